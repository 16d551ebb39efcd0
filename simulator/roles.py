"""The interfaces of the two conversational roles: the agent and the user."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import msgspec

from simulator.chat import ChatMessage, ChatResponse, Usage

if TYPE_CHECKING:
    pass

STOP = "###STOP###"
UNSATISFIED = "###UNSATISFIED###"
EMPTY_TURN = "…"
"""What a user says when its model gave no usable message (a malformed or empty turn)."""
UNSTRUCTURED_REPLY = "unstructured_reply"
"""The trigger of a turn whose model answer was not the JSON object asked for."""
REPAIRED_REPLY = "repaired_reply"
"""The trigger of a turn the user's model was asked to answer again (a repair)."""


class EmotionState(msgspec.Struct, frozen=True):
    """The user's emotional state as reported after a turn."""

    emotion: str
    intensity: float
    dissatisfaction: float
    reason: str = ""
    triggers: list[str] = []


class UserTurn(msgspec.Struct, frozen=True):
    """One user message; ``ends`` is ``STOP`` (satisfied) or ``UNSATISFIED`` (abandoned)."""

    text: str
    ends: str | None = None
    state: EmotionState | None = None
    model: str = "scripted"
    usage: Usage | None = None


class UserSimulator(Protocol):
    """Plays the user of one conversation.

    ``transcript`` is what the user has seen: its own messages (role ``user``) and the agent's
    texts (role ``assistant``); never tool calls, tool results or reasoning.
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
