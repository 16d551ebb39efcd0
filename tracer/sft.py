"""Conversations as supervised fine-tuning rows: TRL's conversational format, or ShareGPT.

TRL (``SFTTrainer``) reads a ``messages`` column and a ``tools`` column:

- ``system``: the domain policy (what the agent was given, nothing of the task);
- ``user``: the user's texts; ``assistant``: the agent's texts and, for a turn with tool calls,
  ``tool_calls`` as ``{"type": "function", "function": {"name", "arguments"}}`` with the
  arguments as a JSON object, and the model's reasoning in ``reasoning_content`` only with
  ``reasoning="keep"``; ``tool``: one message per result, with ``name`` and ``content``;
- ``tools``: the domain's agent tools as JSON-schema function definitions.

Only what the agent saw enters a row: never the scenario, the user's emotion reports, the
user's own device tools, the reward or the condition. A trailing user message (the one that
ended the conversation) is left out: nothing follows it to learn from.

ShareGPT rows (``conversations`` with ``from`` human/gpt/function_call/observation, ``system``
and ``tools`` as a JSON string) carry the same content.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from tau_sim.simulator.core import AgentMessage, ToolResult, UserMessage
from tau_sim.simulator.world import Domain
from tau_sim.tracer.source import Conversation

Reasoning = Literal["keep", "drop"]
FORMATS = ("trl", "sharegpt")


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


def messages(conversation: Conversation, reasoning: Reasoning = "drop") -> list[dict[str, Any]]:
    """The conversation as the agent saw it, in TRL's message layout (see the module docstring)."""
    out: list[dict[str, Any]] = [{"role": "system", "content": conversation.domain.policy}]
    for event in conversation.events:
        if isinstance(event, UserMessage):
            out.append({"role": "user", "content": event.text})
        elif isinstance(event, AgentMessage):
            message: dict[str, Any] = {"role": "assistant", "content": event.text or ""}
            if event.tool_calls:
                message["tool_calls"] = [
                    {"type": "function", "function": {"name": c.name, "arguments": c.arguments}}
                    for c in event.tool_calls
                ]
            if reasoning == "keep" and event.reasoning:
                message["reasoning_content"] = event.reasoning
            out.append(message)
        elif isinstance(event, ToolResult):
            out.append({"role": "tool", "name": event.name, "content": event.content})
    while out[-1]["role"] == "user":
        out.pop()
    return out


def trl_row(
    conversation: Conversation, reasoning: Reasoning, tools_as_string: bool
) -> dict[str, Any]:
    """One TRL row: ``id``, ``domain``, ``messages``, ``tools``."""
    tools: Any = tool_definitions(conversation.domain)
    return {
        "id": conversation.id,
        "domain": conversation.domain.name,
        "messages": messages(conversation, reasoning),
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
