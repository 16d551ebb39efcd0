"""openai/MODEL against a local server speaking the chat-completions wire format."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio
import openai
import pytest

from benchmarks.fake_openai_server import Response
from tau_sim.simulator.core.chat import ChatMessage, EndpointError, ModelError, ToolSpec
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import MODELS
from tau_sim.simulator.models.openai_provider import OpenAIChatModel, make_openai_provider
from tests.helpers.servers import ScriptServer
from tests.helpers.wire import oa_chunk, oa_error, oa_message
from tests.simulator.toy import toy_domain

pytestmark = pytest.mark.anyio

TOOLS = [
    ToolSpec(
        "get_order",
        "Look up an order.",
        {
            "type": "object",
            "properties": {"order_id": {"type": "string"}},
            "required": ["order_id"],
        },
    )
]
FAST = {"timeout": 3, "max_retries": 2}  # the SDK backs off 0.5 s, then 1 s


def model_for(server: ScriptServer, **options: Any) -> OpenAIChatModel:
    return OpenAIChatModel("openai/m", "m", base_url=server.url + "/v1", **{**FAST, **options})


def test_registered() -> None:
    assert MODELS["openai"] is make_openai_provider


async def test_tool_call_round_trip(server: ScriptServer) -> None:
    server.then(
        oa_message(tool_calls=[("get_order", '{"order_id": "A1"}')], usage=(30, 12)),
        oa_message("Your order A1 has shipped.", usage=(45, 8)),
    )
    model = model_for(server, temperature="0.25", max_tokens=50)
    history = [ChatMessage("system", "policy"), ChatMessage("user", "where is A1?")]
    first = await model.chat(history, TOOLS)
    call = first.message.tool_calls[0]
    assert (call.name, call.arguments) == ("get_order", {"order_id": "A1"})
    assert (first.usage.tokens_in, first.usage.tokens_out, first.usage.retries) == (30, 12, 0)
    history += [first.message, ChatMessage("tool", '{"status": "shipped"}', tool_call_id=call.id)]
    second = await model.chat(history, TOOLS)
    assert second.message.content == "Your order A1 has shipped."
    assert not second.message.tool_calls
    await model.aclose()

    sent = server.bodies()[1]
    assert sent["temperature"] == 0.25 and sent["max_tokens"] == 50
    assert sent["tools"][0] == {
        "type": "function",
        "function": {
            "name": "get_order",
            "description": "Look up an order.",
            "parameters": TOOLS[0].parameters,
        },
    }
    roles = [m["role"] for m in sent["messages"]]
    assert roles == ["system", "user", "assistant", "tool"]
    assistant, tool = sent["messages"][2], sent["messages"][3]
    assert assistant["tool_calls"][0]["id"] == call.id
    assert assistant["tool_calls"][0]["function"] == {
        "name": "get_order",
        "arguments": '{"order_id":"A1"}',
    }
    assert tool == {"role": "tool", "tool_call_id": call.id, "content": '{"status": "shipped"}'}


async def test_429_with_retry_after_then_success(server: ScriptServer) -> None:
    server.then(oa_error(429, "slow down", retry_after="0.2"), oa_message("ok"))
    model = model_for(server)
    start = time.perf_counter()
    response = await model.chat([ChatMessage("user", "hi")], [])
    assert response.message.content == "ok"
    assert response.usage.retries == 1
    assert time.perf_counter() - start >= 0.2  # the server's Retry-After
    assert response.usage.latency_s >= 0.2
    assert len(server.requests) == 2
    await model.aclose()


async def test_retries_taken_counts_every_retry(server: ScriptServer) -> None:
    server.then(
        oa_error(503, retry_after_ms="10"), oa_error(429, retry_after_ms="10"), oa_message("ok")
    )
    model = model_for(server)
    response = await model.chat([ChatMessage("user", "hi")], [])
    assert (response.message.content, response.usage.retries) == ("ok", 2)
    await model.aclose()


async def test_500_storm_exhausts_retries(server: ScriptServer) -> None:
    server.then(oa_error(500, "internal"))
    model = model_for(server, max_retries=2)
    with pytest.raises(ModelError, match=r"gave up after 3 attempts: HTTP 500: internal"):
        await model.chat([ChatMessage("user", "hi")], [])
    assert len(server.requests) == 3
    await model.aclose()


async def test_client_error_is_not_retried(server: ScriptServer) -> None:
    server.then(oa_error(400, "context too long"))
    model = model_for(server)
    with pytest.raises(ModelError, match=r"^HTTP 400: context too long"):
        await model.chat([ChatMessage("user", "hi")], [])
    assert len(server.requests) == 1
    await model.aclose()


async def test_timeout_is_a_model_error_within_the_call_timeout(server: ScriptServer) -> None:
    server.hold = 5.0
    server.then(oa_message("too late"))
    model = model_for(server, timeout=0.3, max_retries=1)
    start = time.perf_counter()
    with pytest.raises(ModelError, match=r"gave up after 2 attempts: no answer within 0.3 s"):
        await model.chat([ChatMessage("user", "hi")], [])
    # two attempts of 0.3 s and one backoff of at most 0.5 s
    assert time.perf_counter() - start < 2 * 0.3 + 0.5 + 0.5
    await model.aclose()


async def test_connection_drop_is_retried(server: ScriptServer) -> None:
    server.then(Response(drop=True), oa_message("back"))
    model = model_for(server)
    response = await model.chat([ChatMessage("user", "hi")], [])
    assert response.message.content == "back"
    assert response.usage.retries == 1
    await model.aclose()


async def test_malformed_body_is_a_model_error(server: ScriptServer) -> None:
    server.then(Response(body=b"<html>bad gateway</html>"), Response.json({"choices": []}))
    model = model_for(server)
    with pytest.raises(ModelError, match="malformed response"):
        await model.chat([ChatMessage("user", "hi")], [])
    with pytest.raises(ModelError, match="malformed response: no choices"):
        await model.chat([ChatMessage("user", "hi")], [])
    assert len(server.requests) == 2
    await model.aclose()


async def test_malformed_tool_arguments_reach_the_toolkit_as_an_error(server: ScriptServer) -> None:
    server.then(
        oa_message(
            tool_calls=[
                ("get_counter", '{"name": "a"'),  # cut off
                ("get_counter", '```json\n{"name": "a"}\n```'),  # fenced
                ("increment", '{"name": "a", "by": "lots"}'),  # wrong type
                ("no_such_tool", "{}"),
                ("get_counter", "[1, 2]"),  # not an object
            ]
        )
    )
    model = model_for(server)
    response = await model.chat([ChatMessage("user", "hi")], TOOLS)
    calls = response.message.tool_calls
    assert calls[0].arguments == {"__raw__": '{"name": "a"'}
    assert calls[1].arguments == {"name": "a"}
    domain = toy_domain()
    db = domain.new_database()
    outcomes = [domain.toolkit.call(db, c.name, c.arguments) for c in calls]
    assert [o.error for o in outcomes] == [True, False, True, True, True]
    assert "must be a JSON object" in outcomes[0].content
    assert "__raw__" not in " ".join(o.content for o in outcomes)
    assert "unknown tool" in outcomes[3].content

    # the raw text goes back to the model verbatim
    server.then(oa_message("sorry"))
    await model.chat([ChatMessage("user", "hi"), response.message], TOOLS)
    sent = server.bodies()[-1]["messages"][1]["tool_calls"][0]["function"]["arguments"]
    assert sent == '{"name": "a"'
    await model.aclose()


async def test_reasoning_is_kept_but_never_sent_back(server: ScriptServer) -> None:
    server.then(
        oa_message("Hello!", reasoning_content="The user greets me."),
        oa_message("<think>Plan: answer briefly.</think>Sure, A1 shipped."),
        oa_message("ok"),
    )
    model = model_for(server)
    first = await model.chat([ChatMessage("user", "hi")], [])
    assert (first.message.content, first.message.reasoning) == ("Hello!", "The user greets me.")
    second = await model.chat([ChatMessage("user", "and A1?")], [])
    assert second.message.content == "Sure, A1 shipped."
    assert second.message.reasoning == "Plan: answer briefly."
    await model.chat([ChatMessage("user", "hi"), first.message, second.message], [])
    raw = server.requests[-1].body.decode()
    assert "greets" not in raw and "Plan" not in raw and "think" not in raw
    await model.aclose()


async def test_streaming_assembles_text_reasoning_and_tool_call_deltas(
    server: ScriptServer,
) -> None:
    call = {"index": 0, "id": "call_s", "type": "function", "function": {"name": "get_order"}}
    server.then(
        Response.sse(
            [
                oa_chunk({"role": "assistant", "reasoning_content": "Look it "}),
                oa_chunk({"reasoning_content": "up."}),
                oa_chunk({"content": "Checking"}),
                oa_chunk({"content": " now."}),
                oa_chunk(
                    {"tool_calls": [{**call, "function": {"name": "get_order", "arguments": ""}}]}
                ),
                oa_chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"order_'}}]}),
                oa_chunk({"tool_calls": [{"index": 0, "function": {"arguments": 'id": "A1"}'}}]}),
                oa_chunk({}, usage=(50, 20)),
            ]
        )
    )
    model = model_for(server, stream="true")
    response = await model.chat([ChatMessage("user", "where is A1?")], TOOLS)
    message = response.message
    assert message.content == "Checking now."
    assert message.reasoning == "Look it up."
    assert [(c.id, c.name, c.arguments) for c in message.tool_calls] == [
        ("call_s", "get_order", {"order_id": "A1"})
    ]
    assert (response.usage.tokens_in, response.usage.tokens_out) == (50, 20)
    body = server.bodies()[0]
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    await model.aclose()


async def test_streaming_retries_an_error_status(server: ScriptServer) -> None:
    server.then(oa_error(503), Response.sse([oa_chunk({"content": "hi"}), oa_chunk({}, (3, 1))]))
    model = model_for(server, stream=True)
    response = await model.chat([ChatMessage("user", "hi")], [])
    assert response.message.content == "hi"
    assert response.usage.retries == 1
    await model.aclose()


async def test_json_mode_is_sent_when_asked(server: ScriptServer) -> None:
    server.then(oa_message('{"message": "hi"}'))
    model = model_for(server)
    await model.chat([ChatMessage("user", "hi")], [], response_format={"type": "json_object"})
    assert server.bodies()[-1]["response_format"] == {"type": "json_object"}
    plain = model_for(server, json_mode=False)
    await plain.chat([ChatMessage("user", "hi")], [], response_format={"type": "json_object"})
    assert "response_format" not in server.bodies()[-1]
    # a schema goes only where the endpoint takes one (llama.cpp: json_schema=true)
    schema = {"type": "json_object", "schema": {"type": "object"}}
    server.then(oa_message('{"message": "hi"}'), oa_message('{"message": "hi"}'))
    await model.chat([ChatMessage("user", "hi")], [], response_format=schema)
    assert server.bodies()[-1]["response_format"] == {"type": "json_object"}
    with_schema = model_for(server, json_schema=True)
    await with_schema.chat([ChatMessage("user", "hi")], [], response_format=schema)
    assert server.bodies()[-1]["response_format"] == schema
    await model.aclose()
    await plain.aclose()
    await with_schema.aclose()


async def test_in_flight_requests_are_capped_per_endpoint(server: ScriptServer) -> None:
    server.hold = 0.05
    server.then(oa_message("ok"))
    a = model_for(server, max_connections=3)
    b = model_for(server, max_connections=3)  # same endpoint: shares the cap
    async with anyio.create_task_group() as tg:
        for i in range(12):
            tg.start_soon((a if i % 2 else b).chat, [ChatMessage("user", "hi")], [])
    assert server.max_inflight == 3
    await a.aclose()
    await b.aclose()


class TwoReplicas:
    """An EndpointPool over two servers, alternating."""

    def __init__(self, urls: list[str]) -> None:
        self.urls = urls
        self.turn = 0

    @asynccontextmanager
    async def _acquire(self) -> AsyncIterator[str]:
        self.turn += 1
        yield self.urls[self.turn % 2]

    def acquire(self) -> Any:
        return self._acquire()


async def test_pool_spreads_requests_with_one_client_per_replica(server: ScriptServer) -> None:
    async with ScriptServer() as other:
        server.then(oa_message("from one"))
        other.then(oa_message("from two"))
        pool = TwoReplicas([server.url + "/v1", other.url + "/v1"])
        model = OpenAIChatModel("vllm/q", "q", pool=pool, api_key="EMPTY", **FAST)
        assert model.backend == "vllm"
        texts = [
            (await model.chat([ChatMessage("user", "hi")], [])).message.content for _ in range(4)
        ]
        assert sorted(texts) == ["from one", "from one", "from two", "from two"]
        assert len(model._clients) == 2
        await model.aclose()


async def test_many_connections_are_spread_over_several_httpx_clients(
    server: ScriptServer,
) -> None:
    server.hold = 0.1
    server.then(oa_message("ok"))
    model = model_for(server, max_connections=40, http_client="httpx")
    clients = model.client_pool(server.url + "/v1")
    assert (clients.per_client, clients.most, len(clients.clients)) == (14, 3, 1)
    seen: list[list[int]] = []

    async def one() -> None:
        await model.chat([ChatMessage("user", "hi")], [])

    async with anyio.create_task_group() as tg:
        for _ in range(100):
            tg.start_soon(one)
        await anyio.sleep(0.05)
        seen.append(list(clients.busy))
    assert seen == [[14, 14, 12]]  # at most 14 connections per httpx pool
    assert clients.busy == [0, 0, 0]
    assert server.max_inflight == 40
    await model.aclose()


async def test_aiohttp_client_holds_every_connection_in_one_pool(server: ScriptServer) -> None:
    server.hold = 0.1
    server.then(oa_message("ok"))
    model = model_for(server, max_connections=40)
    clients = model.client_pool(server.url + "/v1")
    assert (clients.per_client, clients.most) == (40, 1)
    assert isinstance(clients.clients[0]._client, openai.DefaultAioHttpClient)

    async def one() -> None:
        await model.chat([ChatMessage("user", "hi")], [])

    async with anyio.create_task_group() as tg:
        for _ in range(100):
            tg.start_soon(one)
    assert server.max_inflight == 40
    assert len(clients.clients) == 1
    await model.aclose()


async def test_provider_start_preflights_the_endpoint(server: ScriptServer) -> None:
    provider = make_openai_provider("m", {"base_url": server.url + "/v1", **FAST})
    async with provider:
        assert server.http.requests[0].path == "/v1/models"


async def test_unreachable_base_url_is_a_usage_error_at_start() -> None:
    with anyio.fail_after(4):
        listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
        port = listener.extra(anyio.abc.SocketAttribute.local_port)
        await listener.aclose()  # nothing listens there any more
        provider = make_openai_provider("m", {"base_url": f"http://127.0.0.1:{port}/v1"})
        with pytest.raises(UsageError, match=rf"openai/m: cannot reach http://127.0.0.1:{port}/v1"):
            async with provider:
                pass


async def test_rejected_key_at_start_names_the_variable(server: ScriptServer) -> None:
    provider = make_openai_provider("m", {"base_url": server.url + "/v1", "api_key": "bad-key"})
    with pytest.raises(UsageError, match=r"rejected the API key.*OPENAI_API_KEY") as info:
        async with provider:
            pass
    assert "bad-key" not in str(info.value)


def test_missing_api_key_names_the_variable() -> None:
    with pytest.raises(UsageError, match="set the environment variable OPENAI_API_KEY"):
        make_openai_provider("gpt-4.1", {})
    with pytest.raises(UsageError, match="MY_KEY"):
        make_openai_provider("gpt-4.1", {"api_key_env": "MY_KEY"})


def test_key_from_environment_and_never_in_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-123")
    provider = make_openai_provider("gpt-4.1", {})
    assert "sk-secret" not in repr(provider.model)
    assert provider.model._prices == (2.0, 8.0)


async def test_key_echoed_by_server_is_redacted(server: ScriptServer) -> None:
    server.then(oa_error(400, "Incorrect API key provided: sk-secret-123"))
    model = model_for(server, api_key="sk-secret-123")
    with pytest.raises(ModelError) as info:
        await model.chat([ChatMessage("user", "hi")], [])
    assert "sk-secret-123" not in str(info.value)
    await model.aclose()


async def test_cost_from_the_price_table_or_the_options(server: ScriptServer) -> None:
    server.then(oa_message("hi", usage=(1_000_000, 500_000)))
    model = OpenAIChatModel("openai/gpt-4o-mini", "gpt-4o-mini", base_url=server.url + "/v1")
    assert (await model.chat([ChatMessage("user", "x")], [])).usage.cost_usd == pytest.approx(0.45)
    custom = model_for(server, price_in=1, price_out="2")
    assert (await custom.chat([ChatMessage("user", "x")], [])).usage.cost_usd == pytest.approx(2.0)
    unknown = model_for(server)
    assert (await unknown.chat([ChatMessage("user", "x")], [])).usage.cost_usd is None
    for m in (model, custom, unknown):
        await m.aclose()


def test_bad_options_name_the_model_and_key() -> None:
    with pytest.raises(UsageError, match=r"openai/m: unknown option 'temprature'"):
        make_openai_provider("m", {"base_url": "http://x/v1", "temprature": "0"})
    with pytest.raises(UsageError, match=r"openai/m: invalid option.*max_retries"):
        make_openai_provider("m", {"base_url": "http://x/v1", "max_retries": "many"})
    with pytest.raises(UsageError, match="model name is missing"):
        make_openai_provider("", {})


@pytest.mark.parametrize(
    ("answer", "kind", "message"),
    [
        (oa_error(429, "slow down"), "HTTP 429 rate limit", "HTTP 429: slow down"),
        (oa_error(500, "internal"), "HTTP 500 server error", "HTTP 500: internal"),
        (oa_error(503, "busy"), "HTTP 503 unavailable", "HTTP 503: busy"),
        (oa_error(401, "bad key"), "HTTP 401 unauthorized", "HTTP 401: bad key"),
        (Response(body=b"<html>bad gateway</html>"), "invalid JSON", "malformed response: JSON"),
        (Response(body=b"{}"), "empty response", "malformed response: empty body"),
        (Response(body=b""), "empty response", "malformed response: empty body"),
        (Response.json({"choices": []}), "empty response", "malformed response: no choices"),
        (Response.json({"choices": [{}]}), "malformed response", "malformed response: Object"),
        (Response(drop=True), "connection error", "connection error: Server disconnected"),
    ],
)
async def test_what_the_endpoint_does_wrong_is_an_endpoint_error(
    server: ScriptServer, answer: Response, kind: str, message: str
) -> None:
    server.then(answer)
    model = model_for(server, max_retries=0)
    with pytest.raises(EndpointError) as info:
        await model.chat([ChatMessage("user", "hi")], TOOLS)
    assert info.value.kind == kind
    assert str(info.value).startswith(message), str(info.value)
    await model.aclose()


async def test_a_timeout_is_an_endpoint_error(server: ScriptServer) -> None:
    server.hold = 5.0
    server.then(oa_message("too late"))
    model = model_for(server, timeout=0.2, max_retries=0)
    with pytest.raises(EndpointError) as info:
        await model.chat([ChatMessage("user", "hi")], [])
    assert (info.value.kind, str(info.value)) == ("timeout", "no answer within 0.2 s")
    await model.aclose()


async def test_a_bad_tool_call_of_the_model_is_not_an_endpoint_error(server: ScriptServer) -> None:
    server.then(
        oa_message(tool_calls=[("launch_rocket", '{"target": "moon"}')]),
        oa_message(tool_calls=[("get_order", '{"order_id": ')]),
    )
    model = model_for(server)
    unknown = await model.chat([ChatMessage("user", "hi")], TOOLS)  # the toolkit refuses it
    assert unknown.message.tool_calls[0].name == "launch_rocket"
    cut = await model.chat([ChatMessage("user", "hi")], TOOLS)
    assert cut.message.tool_calls[0].arguments == {"__raw__": '{"order_id": '}
    await model.aclose()


@pytest.mark.parametrize("stream", [False, True])
async def test_cached_prompt_tokens_are_reported(server: ScriptServer, stream: bool) -> None:
    details = {"prompt_tokens_details": {"cached_tokens": 64}}
    if stream:
        last = oa_chunk({}, usage=(80, 4))
        last["usage"].update(details)
        server.then(Response.sse([oa_chunk({"role": "assistant", "content": "hi"}), last]))
    else:
        body = json.loads(oa_message("hi", usage=(80, 4)).body)
        body["usage"].update(details)
        server.then(Response.json(body))
    model = model_for(server, stream=stream)
    usage = (await model.chat([ChatMessage("user", "hello")], [])).usage
    await model.aclose()
    assert (usage.tokens_in, usage.tokens_cached, usage.tokens_out) == (80, 64, 4)


def trickled(stream: bool) -> Response:
    """An answer whose headers come at once and whose body takes 6 s: 20 parts 0.3 s apart."""
    if stream:
        chunks = [oa_chunk({"content": f"w{i} "}) for i in range(19)] + [oa_chunk({}, (5, 19))]
        return Response.sse(chunks, trickle=0.3, pieces=20)
    answer = oa_message("slow but whole")
    return Response(body=answer.body, trickle=0.3, pieces=20)


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
async def test_timeout_bounds_a_trickled_answer_as_a_whole(
    server: ScriptServer, stream: bool, transport: str
) -> None:
    """Every read of the body comes within ``timeout``; the attempt as a whole still ends then."""
    server.then(trickled(stream))
    model = model_for(server, timeout=1, max_retries=0, stream=stream, http_client=transport)
    start = time.perf_counter()
    with pytest.raises(EndpointError) as info:
        await model.chat([ChatMessage("user", "hi")], [])
    took = time.perf_counter() - start
    assert (info.value.kind, str(info.value)) == ("timeout", "no answer within 1 s")
    assert len(server.requests) == 1
    assert took < 4, took  # the body alone takes 6 s
    await model.aclose()


@pytest.mark.parametrize("stream", [False, True])
async def test_an_attempt_that_runs_out_is_retried(server: ScriptServer, stream: bool) -> None:
    server.then(trickled(stream), trickled(stream))
    model = model_for(server, timeout=0.5, max_retries=1, stream=stream)
    with pytest.raises(EndpointError) as info:
        await model.chat([ChatMessage("user", "hi")], [])
    assert (info.value.kind, str(info.value)) == (
        "timeout",
        "gave up after 2 attempts: no answer within 0.5 s",
    )
    assert len(server.requests) == 2
    fast = Response.sse([oa_chunk({"content": "hi"}), oa_chunk({}, (3, 1))]) if stream else None
    server.script.clear()
    server.then(trickled(stream), fast or oa_message("hi"))
    response = await model.chat([ChatMessage("user", "hi")], [])
    assert (response.message.content, response.usage.retries) == ("hi", 1)
    assert len(server.requests) == 4
    await model.aclose()


async def test_a_cut_stream_counts_with_the_sdks_own_retries(server: ScriptServer) -> None:
    """A 503 (the SDK retries it), then a stream that runs out (retried here): 3 attempts."""
    busy = oa_error(503, retry_after_ms="10")
    server.then(busy, trickled(True), trickled(True))
    model = model_for(server, timeout=0.5, max_retries=2, stream=True)
    with pytest.raises(EndpointError, match=r"^gave up after 3 attempts: no answer within 0.5 s$"):
        await model.chat([ChatMessage("user", "hi")], [])
    assert len(server.requests) == 3
    server.script.clear()
    fast = Response.sse([oa_chunk({"content": "hi"}), oa_chunk({}, (3, 1))])
    server.then(trickled(True), busy, fast)
    response = await model.chat([ChatMessage("user", "hi")], [])
    assert (response.message.content, response.usage.retries) == ("hi", 2)
    assert len(server.requests) == 6
    await model.aclose()
