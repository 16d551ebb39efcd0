"""Conversations as supervised fine-tuning rows: TRL's conversational format, or ShareGPT.

TRL (``SFTTrainer``) reads a ``messages`` column and a ``tools`` column:

- ``system``: the system prompt exactly as the tool-calling agent is sent it (a preamble, then
  the domain policy: ``Conversation.system_prompt``), nothing of the task;
- ``user``: the user's texts; ``assistant``: the agent's texts and, for a turn with tool calls,
  ``tool_calls`` as ``{"id", "type": "function", "function": {"name", "arguments"}}`` with the
  arguments as a JSON object (or, ``arguments_as_string``, a JSON string: ``datasets`` < 4.7
  would merge every call's objects into one struct padded with nulls), and the model's
  reasoning in ``reasoning_content`` only with ``reasoning="keep"``; ``tool``: one message per
  result, with ``tool_call_id`` (the call's ``id``), ``name`` and ``content``;
- ``tools``: the domain's agent tools as JSON-schema function definitions.

Call ids are the stored ones (what the model's provider returned), or with ``call_ids="mistral"``
nine letters and digits made from them (Mistral's tokenizer accepts only those), the same in a
call and its result.

Only what the agent saw enters a row: never the scenario, the user's emotion reports, the
user's own device tools, the reward or the condition. Trailing user and tool messages (the
user's goodbye, the result of a call that ended the conversation) are left out: no assistant
turn follows them to learn from, and a row ends on the assistant as chat templates for
training expect.

ShareGPT rows (``conversations`` with ``from`` human/gpt/function_call/observation, ``system``
and ``tools`` as a JSON string) carry the same content.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from tau_sim.simulator.core import AgentMessage, ToolResult, UserMessage
from tau_sim.simulator.world import Domain
from tau_sim.tracer.source import Conversation

Reasoning = Literal["keep", "drop"]
CallIds = Literal["stored", "mistral"]
FORMATS = ("trl", "sharegpt")
_ALNUM = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def mistral_id(conversation_id: str, call_id: str) -> str:
    """Nine letters and digits for a stored call id (the same for the same conversation and id)."""
    number = int.from_bytes(hashlib.sha256(f"{conversation_id}/{call_id}".encode()).digest()[:8])
    digits = []
    for _ in range(9):
        number, digit = divmod(number, len(_ALNUM))
        digits.append(_ALNUM[digit])
    return "".join(digits)


def tool_definitions(domain: Domain) -> list[dict[str, Any]]:
    """The domain's agent tools as JSON-schema function definitions (OpenAI's layout)."""
    return [
        {
            "type": "function",
            "function": {
                "name": spec.name,
                "description": spec.description,
                "parameters": spec.parameters,
            },
        }
        for spec in domain.toolkit.specs
    ]


def messages(
    conversation: Conversation,
    reasoning: Reasoning = "drop",
    *,
    arguments_as_string: bool = False,
    call_ids: CallIds = "stored",
) -> list[dict[str, Any]]:
    """The conversation as the agent saw it, in TRL's message layout (see the module docstring)."""

    def call_id(stored: str) -> str:
        return stored if call_ids == "stored" else mistral_id(conversation.id, stored)

    out: list[dict[str, Any]] = [{"role": "system", "content": conversation.system_prompt()}]
    for event in conversation.events:
        if isinstance(event, UserMessage):
            out.append({"role": "user", "content": event.text})
        elif isinstance(event, AgentMessage):
            message: dict[str, Any] = {"role": "assistant", "content": event.text or ""}
            if event.tool_calls:
                message["tool_calls"] = [
                    {
                        "id": call_id(c.id),
                        "type": "function",
                        "function": {
                            "name": c.name,
                            "arguments": json.dumps(c.arguments, ensure_ascii=False)
                            if arguments_as_string
                            else c.arguments,
                        },
                    }
                    for c in event.tool_calls
                ]
            if reasoning == "keep" and event.reasoning:
                message["reasoning_content"] = event.reasoning
            out.append(message)
        elif isinstance(event, ToolResult):
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": call_id(event.call_id),
                    "name": event.name,
                    "content": event.content,
                }
            )
    while out[-1]["role"] in ("user", "tool"):
        out.pop()
    return out


def trl_row(
    conversation: Conversation,
    reasoning: Reasoning,
    tools_as_string: bool,
    *,
    arguments_as_string: bool = False,
    call_ids: CallIds = "stored",
) -> dict[str, Any]:
    """One TRL row: ``id``, ``domain``, ``messages``, ``tools``."""
    tools: Any = tool_definitions(conversation.domain)
    rows = messages(
        conversation, reasoning, arguments_as_string=arguments_as_string, call_ids=call_ids
    )
    return {
        "id": conversation.id,
        "domain": conversation.domain.name,
        "messages": rows,
        "tools": json.dumps(tools, sort_keys=True) if tools_as_string else tools,
    }


_FROM = {"user": "human", "assistant": "gpt", "tool": "observation"}


def sharegpt_row(conversation: Conversation, reasoning: Reasoning) -> dict[str, Any]:
    """One ShareGPT row: ``id``, ``domain``, ``system``, ``conversations``, ``tools`` (JSON)."""
    turns: list[dict[str, str]] = []
    system, *rest = messages(conversation, reasoning)
    for message in rest:
        if message["role"] == "assistant" and "tool_calls" in message:
            if message["content"]:
                turns.append({"from": "gpt", "value": message["content"]})
            for call in message["tool_calls"]:
                value = json.dumps(call["function"], sort_keys=True)
                turns.append({"from": "function_call", "value": value})
        else:
            turns.append({"from": _FROM[message["role"]], "value": message["content"]})
    return {
        "id": conversation.id,
        "domain": conversation.domain.name,
        "system": system["content"],
        "conversations": turns,
        "tools": json.dumps(tool_definitions(conversation.domain), sort_keys=True),
    }
