"""The interfaces of the two conversational roles: the agent and the user."""

from __future__ import annotations

from typing import Protocol

import msgspec

from tau_sim.simulator.core.chat import ChatMessage, ChatResponse, ToolCallSpec, Usage
from tau_sim.simulator.core.events import EmotionUpdate

STOP = "###STOP###"
UNSATISFIED = "###UNSATISFIED###"
EMPTY_TURN = "…"
"""What a user says when its model gave no usable message (a malformed or empty turn)."""
UNSTRUCTURED_REPLY = "unstructured_reply"
"""The trigger of a turn whose model answer was not the JSON object asked for."""
REPAIRED_REPLY = "repaired_reply"
"""The trigger of a turn the user's model was asked to answer again (a repair)."""


class UserTurn(msgspec.Struct, frozen=True):
    """One user message; ``ends`` is ``STOP`` (satisfied) or ``UNSATISFIED`` (abandoned).

    ``state`` is the user's emotional state after the turn, as the event the actor publishes
    (the bus stamps its ``seq`` and ``ts``).

    A turn with ``tool_calls`` runs the user's own tools instead of speaking (``text`` is then
    ignored): the user is asked again once every result is in its transcript.
    """

    text: str
    ends: str | None = None
    state: EmotionUpdate | None = None
    model: str = "scripted"
    usage: Usage | None = None
    tool_calls: list[ToolCallSpec] = []


class UserSimulator(Protocol):
    """Plays the user of one conversation.

    ``transcript`` is what the user has seen: its own messages (role ``user``) and the agent's
    texts (role ``assistant``); never the agent's tool calls, tool results or reasoning. A user
    with tools of its own also sees its own tool calls (role ``user`` with ``tool_calls``) and
    their results (role ``tool``).
    """

    async def respond(self, transcript: list[ChatMessage]) -> UserTurn:
        """Write the next user message (the first one when the transcript is empty)."""
        ...


class Agent(Protocol):
    """Plays the agent of one conversation.

    ``history`` is the agent's view: user messages, its own turns with tool calls, and tool
    results; the agent adds its system prompt itself.
    """

    async def respond(self, history: list[ChatMessage]) -> ChatResponse:
        """Produce the next agent turn (text for the user and/or tool calls)."""
        ...
