"""tau-sim's ``tau-sim-tools`` chat format: its prompt, and its answers on a real llama.cpp server.

The prompt tests run without llama.cpp. The server tests start the embedded model's real server
entry (``llama_server``) through the launcher and send it raw chat requests.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from tau_sim.simulator.models.launcher import LaunchOptions, ReplicaPool
from tau_sim.simulator.models.llama_chat import FORMAT, choice_grammar, prompt, response_schema
from tau_sim.simulator.models.local_provider import LOCAL_MODELS, gguf_path, llama_server_spec
from tests.helpers.require import missing

needs_llama = pytest.mark.skipif(
    missing("llama_cpp", "LOCAL"),
    reason="llama-cpp-python is not installed: pip install 'tau-sim[local]'",
)

CANCEL_TOOL = {
    "type": "function",
    "function": {
        "name": "cancel_order",
        "description": "Cancel a pending order.",
        "parameters": {
            "type": "object",
            "properties": {
                "order_id": {"type": "string", "pattern": "^#W[0-9]{7}$"},
                "reason": {"type": "string", "enum": ["no longer needed", "ordered by mistake"]},
            },
            "required": ["order_id", "reason"],
        },
    },
}
NOTE_TOOL = {
    "type": "function",
    "function": {
        "name": "write_note",
        "description": "Write a long note to the customer's file.",
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
        },
    },
}
ASK = [
    {"role": "system", "content": "You help customers of a shop. Use the tools."},
    {"role": "user", "content": 'Please cancel my order #W1234567, I "ordered by mistake".'},
]


def test_the_prompt_holds_tool_results_and_earlier_calls_as_sent() -> None:
    call = '{"order_id": "#W1234567", "reason": "ordered by mistake"}'
    history = [
        *ASK,
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"id": "c1", "function": {"name": "cancel_order", "arguments": call}},
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": '{"status": "cancelled"} <done> & ok'},
    ]
    text = prompt(history, [CANCEL_TOOL])
    assert text.startswith("<|im_start|>system\nYou help customers of a shop. Use the tools.")
    assert "\nfunctions.cancel_order:\n" + json.dumps(CANCEL_TOOL["function"]["parameters"]) in text
    assert '<|im_start|>user\nPlease cancel my order #W1234567, I "ordered by mistake".' in text
    assert f"<|im_start|>assistant\nfunctions.cancel_order:\n{call}<|im_end|>\n" in text
    assert '<|im_start|>tool\n{"status": "cancelled"} <done> & ok<|im_end|>\n' in text
    assert "&#34;" not in text and "&lt;" not in text and "&amp;" not in text
    assert text.endswith("<|im_end|>\n<|im_start|>assistant\n")


def test_a_conversation_prompt_extends_the_one_before_by_what_was_generated() -> None:
    first = prompt(ASK, [CANCEL_TOOL])
    answer = {"role": "assistant", "content": "Which order, please?"}
    later = prompt([*ASK, answer, {"role": "user", "content": "#W1234567"}], [CANCEL_TOOL])
    assert later.startswith(first + "message:\nWhich order, please?<|im_end|>\n")


def test_without_tools_the_prompt_is_plain_chatml() -> None:
    text = prompt([{"role": "user", "content": "Hi"}], [])
    assert text == "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n"
    with_tools = prompt([{"role": "user", "content": "Hi"}], [CANCEL_TOOL])
    assert with_tools.startswith("<|im_start|>system\n\n\nYou have access to the following")


def test_the_choice_grammar_offers_the_tools_and_a_message_unless_a_call_is_required() -> None:
    names = ["cancel_order", "write_note"]
    assert choice_grammar(names, message=True) == (
        'root ::= functions | "message:"\n'
        'functions ::= "functions.cancel_order:" | "functions.write_note:"\n'
    )
    assert choice_grammar(names, message=False).startswith("root ::= functions\n")


def test_response_formats_give_their_schema() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert response_schema({"type": "json_object", "schema": schema}) == schema
    assert response_schema({"type": "json_object"}) == {}
    assert response_schema({"type": "json_schema", "json_schema": {"schema": schema}}) == schema
    assert response_schema({"type": "text"}) is None and response_schema(None) is None


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def server(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[str]:
    """The base URL of one real llama.cpp server with tau-sim's chat format."""
    gguf = gguf_path(LOCAL_MODELS["smollm2-135m"], "local/smollm2-135m")
    spec = llama_server_spec(gguf, alias="m", chat_format=FORMAT, n_threads=2, n_ctx=2048, extra=[])
    options = LaunchOptions(
        log_dir=tmp_path_factory.mktemp("logs"), health_paths=("/v1/models",), stop_grace_s=5
    )
    async with ReplicaPool([spec], options) as pool:
        yield pool.urls[0]


async def chat(url: str, **request: Any) -> dict[str, Any]:
    import httpx2

    body = {"model": "m", "temperature": 0, **request}
    async with httpx2.AsyncClient(timeout=300) as client:
        reply = await client.post(
            url + "/chat/completions",
            content=msgspec.json.encode(body),
            headers={"content-type": "application/json"},
        )
    assert reply.status_code == 200, reply.text
    answer: dict[str, Any] = reply.json()
    return answer


@needs_llama
@pytest.mark.local_model
@pytest.mark.slow
@pytest.mark.anyio
@pytest.mark.parametrize("tool_choice", ["auto", "required"])
async def test_an_answer_with_tools_stays_within_max_tokens(server: str, tool_choice: str) -> None:
    """A note tool invites a long free text; whatever the model chooses, 12 tokens end it."""
    answer = await chat(
        server,
        messages=[
            {"role": "system", "content": "You keep detailed notes. Use the tools."},
            {"role": "user", "content": "Write a very long note about everything I bought."},
        ],
        tools=[NOTE_TOOL, CANCEL_TOOL],
        tool_choice=tool_choice,
        max_tokens=12,
    )
    assert answer["usage"]["completion_tokens"] <= 12
    assert answer["usage"]["prompt_tokens"] > 200  # the tools' schemas are in the prompt
    message = answer["choices"][0]["message"]
    if tool_choice == "required":
        (call,) = message["tool_calls"]
        assert call["function"]["name"] in {"write_note", "cancel_order"}
        assert answer["choices"][0]["finish_reason"] in {"length", "tool_calls"}


@needs_llama
@pytest.mark.local_model
@pytest.mark.slow
@pytest.mark.anyio
async def test_the_arguments_follow_their_tools_schema(server: str) -> None:
    answer = await chat(
        server,
        messages=ASK,
        tools=[CANCEL_TOOL],
        tool_choice={"type": "function", "function": {"name": "cancel_order"}},
        max_tokens=128,
    )
    (call,) = answer["choices"][0]["message"]["tool_calls"]
    arguments = json.loads(call["function"]["arguments"])
    assert set(arguments) == {"order_id", "reason"}
    assert re.fullmatch(r"#W[0-9]{7}", arguments["order_id"])
    assert arguments["reason"] in {"no longer needed", "ordered by mistake"}
    assert answer["choices"][0]["finish_reason"] == "tool_calls"


@needs_llama
@pytest.mark.local_model
@pytest.mark.slow
@pytest.mark.anyio
async def test_a_json_answer_without_tools_follows_the_schema(server: str) -> None:
    schema = {
        "type": "object",
        "properties": {"mood": {"type": "string", "enum": ["calm", "angry"]}},
        "required": ["mood"],
    }
    answer = await chat(
        server,
        messages=[{"role": "user", "content": "I am furious! Answer in JSON."}],
        response_format={"type": "json_object", "schema": schema},
        max_tokens=32,
    )
    content = answer["choices"][0]["message"]["content"]
    assert json.loads(content)["mood"] in {"calm", "angry"}
    assert answer["usage"]["completion_tokens"] <= 32
