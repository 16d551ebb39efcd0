"""A person at the keyboard as a role of the engine: the ``human`` user kind.

The engine asks a role for its next turn (``UserSimulator.respond``, ``Agent.respond``); a
human role hands that question to a screen through a ``Desk`` (two anyio memory object
streams: the engine's asks go out on one, the person's answers come back on the other) and
waits for the answer, so a conversation played by a person runs in the ordinary engine and is
stored and evaluated like any other. The screen (``tau_sim.tui.human``) receives the asks with
``async for`` (no polling). ``tau_sim.agents.human`` is the same for a person playing the agent.

A desk without a screen would wait forever, so a provider refuses to start unless a screen
has opened its desk (``Desk.open``): ``tau-sim run --user human`` is a usage error; play it
with ``tau-sim human``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from tau_sim.simulator.core import (
    USERS,
    ChatMessage,
    ChatResponse,
    NothingToStart,
    UsageError,
    UserTurn,
)
from tau_sim.simulator.world import AgentView, UserView

HUMAN = "human"
"""The name of the human user kind and agent kind (the store's user or agent column)."""


@dataclass(frozen=True, slots=True)
class UserAsk:
    """The engine asks the person playing the user for a turn."""

    view: UserView
    transcript: list[ChatMessage]


@dataclass(frozen=True, slots=True)
class AgentAsk:
    """The engine asks the person playing the agent for a turn."""

    view: AgentView
    history: list[ChatMessage]


Ask = UserAsk | AgentAsk
Answer = UserTurn | ChatResponse


class Desk:
    """Where the engine's questions meet the person's answers: one conversation at a time."""

    def __init__(self) -> None:
        self._ask_in: MemoryObjectSendStream[Ask]
        self.asks: MemoryObjectReceiveStream[Ask]
        """What the screen reads (``async for ask in desk.asks``)."""
        self._ask_in, self.asks = anyio.create_memory_object_stream[Ask](1)
        self._answer_in: MemoryObjectSendStream[Answer]
        self._answers: MemoryObjectReceiveStream[Answer]
        self._answer_in, self._answers = anyio.create_memory_object_stream[Answer](1)
        self.opened = False

    def open(self) -> None:
        """Say that a screen reads this desk (providers refuse to start otherwise)."""
        self.opened = True

    def check_open(self, role: str) -> None:
        """``UsageError`` unless a screen reads the desk."""
        if not self.opened:
            raise UsageError(
                f"the {HUMAN} {role} is played by a person: use `tau-sim human`, not `tau-sim run`"
            )

    async def ask(self, ask: Ask) -> Answer:
        """Hand ``ask`` to the screen and wait for the person's answer."""
        await self._ask_in.send(ask)
        return await self._answers.receive()

    async def answer(self, answer: Answer) -> None:
        """The person's answer to the ask on the screen."""
        await self._answer_in.send(answer)


class HumanUser:
    """The user of one conversation, played by a person through ``desk``."""

    def __init__(self, view: UserView, desk: Desk) -> None:
        self.view = view
        self.desk = desk

    async def respond(self, transcript: list[ChatMessage]) -> UserTurn:
        """The person's next message (or user-tool calls), as the screen answers it."""
        answer = await self.desk.ask(UserAsk(self.view, list(transcript)))
        assert isinstance(answer, UserTurn)  # the screen answers a user ask with a user turn
        return answer


class HumanUserProvider(NothingToStart):
    """Makes the human user of each conversation; all of them share one ``desk``."""

    def __init__(self, name: str, args: dict[str, Any]) -> None:
        self.name = name
        if args:
            raise UsageError(f"--user-arg: the {HUMAN} user takes no options ({', '.join(args)})")
        self.desk = Desk()

    async def __aenter__(self) -> HumanUserProvider:
        """Refuse to start without a screen that reads the desk."""
        self.desk.check_open("user")
        return self

    def for_conversation(self, view: UserView) -> HumanUser:
        """The person, for one conversation."""
        return HumanUser(view, self.desk)


@USERS.register(HUMAN)
def make_human_user(name: str, args: dict[str, Any]) -> HumanUserProvider:
    """The ``human`` user kind (``tau-sim human``)."""
    return HumanUserProvider(name, args)


__all__ = ["HUMAN", "AgentAsk", "Answer", "Ask", "Desk", "HumanUser", "UserAsk"]
