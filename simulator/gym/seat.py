"""The agent's seat: where the engine's model call for the agent waits for an outside policy.

An environment's agent is the ordinary tool-calling LLM agent (``tau_sim.agents.llm``, found
through the registry as ``gym/<policy>``), whose model is a ``SeatModel``: its ``chat`` hands
the request (the system prompt and history exactly as the agent sends them, and the tools) to
the conversation's ``Seat`` and waits for the policy's answer. This is the human agent's
``Desk`` (``tau_sim.users.human``) one level down, at the model call instead of the agent turn:
the policy sees what a model sees, the engine plays the conversation unchanged, and one seat
serves one conversation, so many conversations share one event loop without mixing answers.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec

from tau_sim.simulator.core.chat import ChatMessage, ChatResponse, ToolSpec
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import MODELS, NothingToStart

BACKEND = "gym"
"""The model provider of an environment's agent: ``gym/<policy>`` (the store's agent name)."""


class Request(msgspec.Struct, frozen=True):
    """One model call of the agent: the messages (system prompt first) and the tools."""

    messages: list[ChatMessage]
    tools: list[ToolSpec]


class Seat:
    """One conversation's agent seat: the engine asks (``ask``), the policy answers (``answer``).

    ``request`` is the model call waiting for an answer (None: none waits). ``wait()`` gives a
    future that is done once a request waits or the conversation is over (``close``).
    """

    def __init__(self) -> None:
        self.request: Request | None = None
        self.closed = False
        self._answer: asyncio.Future[ChatResponse] | None = None
        self._waiter: asyncio.Future[None] | None = None

    async def ask(self, request: Request) -> ChatResponse:
        """Put ``request`` on the seat and wait for the policy's answer."""
        self._answer = asyncio.get_running_loop().create_future()
        self.request = request
        self._wake()
        try:
            return await self._answer
        finally:
            self.request = None

    def answer(self, response: ChatResponse) -> None:
        """Answer the waiting request (``RuntimeError`` when nothing waits)."""
        if self._answer is None or self._answer.done():
            raise RuntimeError("no model call of the agent is waiting for an answer")
        self.request = None
        self._answer.set_result(response)

    def fail(self, error: BaseException) -> None:
        """Make the waiting model call raise ``error`` (``RuntimeError`` when nothing waits)."""
        if self._answer is None or self._answer.done():
            raise RuntimeError("no model call of the agent is waiting for an answer")
        self.request = None
        self._answer.set_exception(error)

    def wait(self) -> asyncio.Future[None]:
        """A future done once a request waits or the seat is closed (at once if so now)."""
        self._waiter = asyncio.get_running_loop().create_future()
        if self.request is not None or self.closed:
            self._wake()
        return self._waiter

    def close(self) -> None:
        """The conversation is over: whoever waits for a request stops waiting."""
        self.closed = True
        self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)


class SeatModel:
    """The agent's chat model in one conversation: every call goes to the conversation's seat."""

    def __init__(self, name: str, seat: Seat) -> None:
        self.name = name
        self.seat = seat

    @property
    def backend(self) -> str:
        """``gym``."""
        return BACKEND

    async def chat(
        self,
        messages: list[ChatMessage],
        tools: list[ToolSpec],
        *,
        response_format: dict[str, Any] | None = None,
    ) -> ChatResponse:
        """Hand the call to the policy through the seat and return its answer."""
        return await self.seat.ask(Request(list(messages), tools))

    async def aclose(self) -> None:
        """Nothing to release."""


class SeatProvider(NothingToStart):
    """The ``gym`` model provider: one seat per conversation, registered before it starts."""

    def __init__(self, model: str, args: dict[str, Any]) -> None:
        if args:
            raise UsageError(f"the {BACKEND} policy takes no options ({', '.join(args)})")
        self.name = f"{BACKEND}/{model}"
        self.seats: dict[str, Seat] = {}

    def seat(self, conversation_id: str) -> Seat:
        """A new seat for ``conversation_id`` (before its conversation starts)."""
        seat = self.seats[conversation_id] = Seat()
        return seat

    def release(self, conversation_id: str) -> None:
        """Forget the seat of a finished conversation."""
        self.seats.pop(conversation_id, None)

    def for_conversation(self, conversation_id: str, role: str) -> SeatModel:
        """The seat's model of ``conversation_id`` (``KeyError``: no episode opened it)."""
        return SeatModel(self.name, self.seats[conversation_id])


@MODELS.register(BACKEND)
def make_seat_provider(model: str, args: dict[str, Any]) -> SeatProvider:
    """The ``gym`` model provider (an environment's policy)."""
    return SeatProvider(model, args)
