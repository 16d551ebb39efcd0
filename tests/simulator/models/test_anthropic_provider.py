"""anthropic/MODEL against a local server speaking the Messages API wire format."""

from __future__ import annotations

import json
import time
from typing import Any

import anthropic  # noqa: F401  (imported here: its 1.5 s import is not one test's time)
import pytest

from benchmarks.fake_openai_server import Response
from tau_sim.simulator.core.chat import (
    ChatMessage,
    EndpointError,
    ModelError,
    ToolCallSpec,
    ToolSpec,
)
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import MODELS
from tau_sim.simulator.models.anthropic_provider import (
    AnthropicChatModel,
    make_anthropic_provider,
    to_anthropic,
)
from tests.helpers.servers import ScriptServer
from tests.helpers.wire import an_error, an_message

pytestmark = pytest.mark.anyio

TOOLS = [ToolSpec("get_order", "Look up an order.", {"type": "object", "properties": {}})]
FAST = {"timeout": 3, "max_retries": 2}


def model_for(server: ScriptServer, **options: Any) -> AnthropicChatModel:
    return AnthropicChatModel(
        "anthropic/claude-x", "claude-x", base_url=server.url, api_key="k", **{**FAST, **options}
    )


def test_registered() -> None:
    assert MODELS["anthropic"] is make_anthropic_provider


async def test_tool_use_round_trip_with_merged_tool_results(server: ScriptServer) -> None:
    server.then(
        an_message(
            [
                {"type": "thinking", "thinking": "Two lookups.", "signature": "sig-1"},
                {"type": "text", "text": "Let me check both."},
                {"type": "tool_use", "id": "toolu_1", "name": "get_order", "input": {"id": "A1"}},
                {"type": "tool_use", "id": "toolu_2", "name": "get_order", "input": {"id": "A2"}},
            ],
            usage=(120, 40),
        ),
        an_message([{"type": "text", "text": "Both shipped."}]),
    )
    model = model_for(server, thinking_budget=2048, temperature=1)
    history = [
        ChatMessage("system", "You are an agent."),
        ChatMessage("user", "Where are A1 and A2?"),
    ]
    first = await model.chat(history, TOOLS)
    message = first.message
    assert message.content == "Let me check both."
    assert message.reasoning == "Two lookups."
    assert [(c.id, c.arguments) for c in message.tool_calls] == [
        ("toolu_1", {"id": "A1"}),
        ("toolu_2", {"id": "A2"}),
    ]
    assert (first.usage.tokens_in, first.usage.tokens_out) == (120, 40)
    history += [
        message,
        ChatMessage("tool", "shipped", tool_call_id="toolu_1"),
        ChatMessage("tool", "Error: no such order", tool_call_id="toolu_2"),
    ]
    second = await model.chat(history, TOOLS)
    assert second.message.content == "Both shipped."
    await model.aclose()

    body = server.bodies()[1]
    assert body["system"] == "You are an agent."
    assert body["max_tokens"] == 4096 and body["temperature"] == 1
    assert body["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert body["tools"] == [
        {
            "name": "get_order",
            "description": "Look up an order.",
            "input_schema": TOOLS[0].parameters,
        }
    ]
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user"]
    assistant = body["messages"][1]["content"]
    # the signed thinking block goes back during the tool loop, first, as the API requires
    assert assistant[0] == {"type": "thinking", "thinking": "Two lookups.", "signature": "sig-1"}
    assert [b["type"] for b in assistant] == ["thinking", "text", "tool_use", "tool_use"]
    results = body["messages"][2]["content"]
    assert results == [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "shipped"},
        {
            "type": "tool_result",
            "tool_use_id": "toolu_2",
            "content": "Error: no such order",
            "is_error": True,
        },
    ]
    headers = server.requests[0].headers
    assert headers.get("x-api-key") == "k" or headers.get("authorization") == "Bearer k"


def test_mapping_without_thinking_sends_no_reasoning() -> None:
    calls = [ToolCallSpec("t1", "get_order", {"id": "A1"})]
    system, wire = to_anthropic(
        [
            ChatMessage("assistant", "Hello, how can I help?", reasoning="secret plan"),
            ChatMessage("user", "A1?"),
            ChatMessage("assistant", None, tool_calls=calls, reasoning="more"),
            ChatMessage("tool", "ok", tool_call_id="t1"),
            ChatMessage("user", "thanks"),
        ]
    )
    assert system is None
    assert [m["role"] for m in wire] == ["user", "assistant", "user", "assistant", "user"]
    assert "secret" not in str(wire) and "more" not in str(wire)
    assert wire[4]["content"] == [
        {"type": "tool_result", "tool_use_id": "t1", "content": "ok"},
        {"type": "text", "text": "thanks"},
    ]


async def test_overloaded_then_success_counts_a_retry(server: ScriptServer) -> None:
    server.then(
        an_error(529, "overloaded_error", retry_after="0"),
        an_message([{"type": "text", "text": "hi"}]),
    )
    model = model_for(server)
    response = await model.chat([ChatMessage("user", "hi")], [])
    assert response.message.content == "hi" and response.usage.retries == 1
    await model.aclose()


async def test_500_storm_exhausts_retries(server: ScriptServer) -> None:
    server.then(an_error(500))
    model = model_for(server, max_retries=2)
    with pytest.raises(ModelError, match="gave up after 3 attempts: HTTP 500"):
        await model.chat([ChatMessage("user", "hi")], [])
    await model.aclose()


async def test_timeout_is_a_model_error(server: ScriptServer) -> None:
    server.hold = 5
    server.then(an_message([{"type": "text", "text": "late"}]))
    model = model_for(server, timeout=0.2, max_retries=0)
    with pytest.raises(ModelError, match=r"no answer within 0\.2 s"):
        await model.chat([ChatMessage("user", "hi")], [])
    await model.aclose()


@pytest.mark.parametrize("transport", ["aiohttp", "httpx"])
async def test_timeout_bounds_a_trickled_answer_as_a_whole(
    server: ScriptServer, transport: str
) -> None:
    """Headers at once, then the body in 20 parts 0.3 s apart: the attempt still ends at 1 s."""
    answer = an_message([{"type": "text", "text": "slow but whole"}])
    server.then(Response(body=answer.body, trickle=0.3, pieces=20))
    model = model_for(server, timeout=1, max_retries=1, http_client=transport)
    start = time.perf_counter()
    with pytest.raises(EndpointError) as info:
        await model.chat([ChatMessage("user", "hi")], [])
    took = time.perf_counter() - start
    assert (info.value.kind, str(info.value)) == (
        "timeout",
        "gave up after 2 attempts: no answer within 1 s",
    )
    assert len(server.requests) == 2  # the SDK retried the attempt that ran out
    assert took < 6, took  # two attempts of 1 s and a backoff; the body alone takes 6 s
    await model.aclose()


async def test_malformed_tool_input_is_passed_raw(server: ScriptServer) -> None:
    server.then(an_message([{"type": "tool_use", "id": "t", "name": "get_order", "input": "oops"}]))
    model = model_for(server)
    response = await model.chat([ChatMessage("user", "hi")], TOOLS)
    assert response.message.tool_calls[0].arguments == {"__raw__": "oops"}
    await model.aclose()


async def test_start_checks_endpoint_and_key(server: ScriptServer) -> None:
    good = make_anthropic_provider("claude-x", {"base_url": server.url, "api_key": "k"})
    async with good:
        pass
    bad = make_anthropic_provider("claude-x", {"base_url": server.url, "api_key": "bad-key"})
    with pytest.raises(UsageError, match=r"rejected the API key.*ANTHROPIC_API_KEY"):
        async with bad:
            pass


def test_missing_api_key_names_the_variable() -> None:
    with pytest.raises(UsageError, match="ANTHROPIC_API_KEY"):
        make_anthropic_provider("claude-sonnet-4-5", {})


def test_price_of_a_snapshot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    provider = make_anthropic_provider("claude-3-5-haiku-20241022", {})
    assert provider.model._prices == (0.80, 4.0)


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        (an_error(429, "rate_limit_error"), "HTTP 429 rate limit"),
        (an_error(529, "overloaded_error"), "HTTP 529 overloaded"),
        (Response(body=b"not json"), "invalid JSON"),
        (Response(body=b"{}"), "empty response"),
        (Response.json({"content": []}), "empty response"),
        (Response(drop=True), "connection error"),
    ],
)
async def test_what_the_endpoint_does_wrong_is_an_endpoint_error(
    server: ScriptServer, answer: Response, kind: str
) -> None:
    server.then(answer)
    model = model_for(server, max_retries=0)
    with pytest.raises(EndpointError) as info:
        await model.chat([ChatMessage("user", "hi")], [])
    assert info.value.kind == kind
    await model.aclose()


async def test_cache_reads_are_cached_prompt_tokens(server: ScriptServer) -> None:
    reply = an_message([{"type": "text", "text": "hi"}], usage=(30, 5))
    body = json.loads(reply.body)
    body["usage"].update(cache_read_input_tokens=200, cache_creation_input_tokens=10)
    server.then(Response.json(body))
    model = model_for(server, price_in=1.0, price_out=2.0)
    usage = (await model.chat([ChatMessage("user", "hello")], [])).usage
    await model.aclose()
    # every prompt token counts as input; the cache reads are reported apart
    assert (usage.tokens_in, usage.tokens_cached, usage.tokens_out) == (240, 200, 5)
    assert usage.cost_usd == pytest.approx((240 * 1.0 + 5 * 2.0) / 1e6)


async def test_cache_prompt_marks_the_system_prompt_and_keeps_the_prefix_order(
    server: ScriptServer,
) -> None:
    server.then(an_message([{"type": "text", "text": "hi"}]))
    history = [ChatMessage("system", "Policy."), ChatMessage("user", "hello")]
    model = model_for(server, cache_prompt=True)
    await model.chat(history, TOOLS)
    await model.chat([*history, ChatMessage("assistant", "hi"), ChatMessage("user", "more")], TOOLS)
    plain = model_for(server)
    await plain.chat(history, TOOLS)
    await model.aclose()
    await plain.aclose()
    first, second, without = (r.body for r in server.requests)
    assert json.loads(first)["system"] == [
        {"type": "text", "text": "Policy.", "cache_control": {"type": "ephemeral"}}
    ]
    assert json.loads(without)["system"] == "Policy."
    # tools, then the system prompt, then the messages: the order of Anthropic's cache prefix
    assert first.index(b'"tools"') < first.index(b'"system"') < first.index(b'"messages"')
    assert first.endswith(b"]}") and second.startswith(first[:-2] + b",")
