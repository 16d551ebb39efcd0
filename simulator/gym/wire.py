"""What crosses between an environment and its policy: observations and actions as JSON text.

An observation is one JSON object, ``{"tools": [...], "messages": [...]}``: the tools in the
chat-completions ``tools`` format and the messages as the agent's model is sent them (the
system prompt first), in the chat-completions shape with each tool message's ``name`` (the
shape TRL and chat templates read). It is ASCII (``json.dumps``' escapes), so it lies in the
environment's ``Text`` observation space.

An action is one assistant turn: plain text (a reply to the user), or a JSON object in the
chat-completions assistant shape, ``{"content": ..., "tool_calls": [{"id", "type": "function",
"function": {"name", "arguments"}}]}`` (``arguments`` a JSON string or an object; ``id``
optional). Whatever a malformed call holds reaches the domain's toolkit as it is, through the
same lenient parsing as a model's answer (``simulator.core.toolargs``), and comes back as an
error tool result: a bad action is an error observation, never a crash.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping, Sequence
from typing import Any

from tau_sim.simulator.core.chat import ChatMessage, ToolCallSpec, ToolSpec
from tau_sim.simulator.core.toolargs import dump_arguments, parse_arguments
from tau_sim.simulator.models.openai_provider import assistant_message, to_openai_tools

CHARSET = frozenset(string.printable)
"""The characters of observations and JSON actions: printable ASCII and its whitespace."""
MAX_OBSERVATION = 1 << 24
"""The longest observation in characters (16 Mi: far past any model's context)."""
MAX_ACTION = 1 << 16
"""The longest action the action space declares (longer ones are taken all the same)."""


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def message_json(message: ChatMessage) -> dict[str, Any]:
    """One message in the chat-completions shape (tool messages with their ``name``)."""
    if message.role == "assistant":
        item: dict[str, Any] = {"role": "assistant", "content": message.content}
        if message.tool_calls:
            item["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": dump_arguments(call.arguments)},
                }
                for call in message.tool_calls
            ]
        return item
    if message.role == "tool":
        return {
            "role": "tool",
            "tool_call_id": message.tool_call_id,
            "name": message.name,
            "content": message.content or "",
        }
    return {"role": message.role, "content": message.content or ""}


class ObservationWriter:
    """Writes one conversation's observations, each message encoded once.

    The agent's history only grows, so every call encodes only the messages it has not seen.
    """

    def __init__(self, tools: list[ToolSpec]) -> None:
        self._head = '{"tools":' + _dumps(to_openai_tools(tools)) + ',"messages":['
        self._parts: list[str] = []

    def write(self, messages: Sequence[ChatMessage]) -> str:
        """The observation of ``messages`` (the previous call's messages and those after)."""
        parts = self._parts
        for message in messages[len(parts) :]:
            parts.append(_dumps(message_json(message)))
        return self._head + ",".join(parts[: len(messages)]) + "]}"


def decode_observation(observation: str) -> dict[str, Any]:
    """An observation as Python data: ``{"tools": [...], "messages": [...]}``."""
    value: dict[str, Any] = json.loads(observation)
    return value


def chat_messages(observation: str | Mapping[str, Any]) -> list[ChatMessage]:
    """The observation's messages as tau-sim's ``ChatMessage``s (system prompt included).

    For driving an environment with a tau-sim ``Agent`` (which adds its own system prompt:
    pass it ``chat_messages(obs)[1:]``).
    """
    data = decode_observation(observation) if isinstance(observation, str) else observation
    out: list[ChatMessage] = []
    for item in data["messages"]:
        calls = [
            ToolCallSpec(
                id=call["id"],
                name=call["function"]["name"],
                arguments=parse_arguments(call["function"]["arguments"]),
            )
            for call in item.get("tool_calls") or ()
        ]
        out.append(
            ChatMessage(
                role=item["role"],
                content=item.get("content"),
                tool_calls=calls,
                tool_call_id=item.get("tool_call_id"),
                name=item.get("name"),
            )
        )
    return out


def encode_action(message: ChatMessage) -> str:
    """An assistant ``ChatMessage`` as an action (the JSON object of ``message_json``)."""
    item = message_json(message)
    del item["role"]
    return _dumps(item)


def _call_parts(call: Any, index: int, turn: int) -> tuple[str, str, str | dict[str, Any]]:
    """(id, name, arguments) of one tool call as a policy wrote it, whatever its shape."""
    if not isinstance(call, Mapping):
        return f"call_{turn}_{index}", "", _dumps(call)
    function = call.get("function", call)
    if not isinstance(function, Mapping):
        function = {"arguments": function}
    name = function.get("name")
    arguments = function.get("arguments")
    if arguments is not None and not isinstance(arguments, str | dict):
        arguments = _dumps(arguments)
    call_id = call.get("id")
    return (
        call_id if isinstance(call_id, str) and call_id else f"call_{turn}_{index}",
        name if isinstance(name, str) else "",
        arguments if arguments is not None else {},
    )


def decode_action(action: str | Mapping[str, Any], turn: int = 0) -> ChatMessage:
    """The assistant message of one action; tool calls without an ``id`` get ``call_<turn>_<i>``.

    A string that is a JSON object with ``content`` or ``tool_calls`` is the message shape;
    any other string is the text of a reply.
    """
    item: Mapping[str, Any] | None = action if isinstance(action, Mapping) else None
    if isinstance(action, str) and action.lstrip().startswith("{"):
        try:
            decoded = json.loads(action)
        except ValueError:
            decoded = None
        if isinstance(decoded, dict) and ("content" in decoded or "tool_calls" in decoded):
            item = decoded
    if item is None:
        return ChatMessage(role="assistant", content=str(action))
    content = item.get("content")
    reasoning = item.get("reasoning", item.get("reasoning_content"))
    calls = item.get("tool_calls") or []
    if not isinstance(calls, list):
        calls = [calls]
    return assistant_message(
        content if isinstance(content, str) else None if content is None else _dumps(content),
        reasoning if isinstance(reasoning, str) else None,
        [_call_parts(call, i, turn) for i, call in enumerate(calls)],
    )
