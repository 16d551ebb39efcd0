"""The message bus: per-conversation routing to actor inboxes and fan-out to subscribers.

``publish`` stamps an event with its conversation's next sequence number and the time, hands
it to every subscriber (the store waits for room, a live feed never blocks), lets the referee
see it, and routes it to the inboxes of the roles that consume its kind.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

import msgspec

from simulator.events import (
    AgentMessage,
    Event,
    ToolCall,
    ToolResult,
    UserMessage,
)

AGENT, USER, ENV = "agent", "user", "env"
INBOX_SIZE = 64


class Subscriber(Protocol):
    """Receives every event of every conversation."""

    async def deliver(self, event: Event) -> None:
        """Take one event (may wait: that is backpressure)."""
        ...


def route(event: Event) -> str | None:
    """The role whose inbox receives ``event`` (None: observers only)."""
    if isinstance(event, UserMessage):
        return AGENT
    if isinstance(event, AgentMessage):
        return None if event.tool_calls else USER
    if isinstance(event, ToolCall):
        return ENV
    if isinstance(event, ToolResult):
        return AGENT
    return None


class Channel:
    """One conversation's view of the bus: its sequence counter and its actors' inboxes."""

    __slots__ = ("_observer", "_seq", "bus", "closed", "conversation", "inboxes")

    def __init__(self, bus: Bus, conversation: str, observer: Callable[[Event], None]) -> None:
        self.bus = bus
        self.conversation = conversation
        self._seq = 0
        self._observer: Callable[[Event], None] | None = observer
        self.closed = False
        self.inboxes: dict[str, asyncio.Queue[Event | None]] = {
            role: asyncio.Queue(maxsize=INBOX_SIZE) for role in (AGENT, USER, ENV)
        }

    def close(self) -> None:
        """End the conversation: later events are dropped and every actor's loop returns.

        Actors leave on their own (a ``None`` in each inbox) instead of being cancelled, so a
        normal ending creates no cancellation tracebacks and no garbage cycles.
        """
        if self.closed:
            return
        self.closed = True
        self._observer = None
        for inbox in self.inboxes.values():
            if not inbox.full():
                inbox.put_nowait(None)

    async def publish(self, event: Event, *, final: bool = False) -> Event | None:
        """Stamp, fan out, observe and route one event; returns the stamped event.

        After ``close`` only the ``final`` event (``ConversationEnded``) is still published.
        """
        if self.closed and not final:
            return None
        stamped = msgspec.structs.replace(event, seq=self._seq, ts=time.time())
        self._seq += 1
        for subscriber in self.bus.subscribers:
            await subscriber.deliver(stamped)
        if self._observer is not None:
            self._observer(stamped)
        role = None if self.closed else route(stamped)
        if role is not None:
            inbox = self.inboxes[role]
            if inbox.full():
                await inbox.put(stamped)
            else:
                inbox.put_nowait(stamped)
        return stamped


class Bus:
    """Routes events of many conversations; subscribers see all of them."""

    def __init__(self, subscribers: list[Subscriber] | None = None) -> None:
        self.subscribers: list[Subscriber] = list(subscribers or [])

    def channel(self, conversation: str, observer: Callable[[Event], None]) -> Channel:
        """Open the channel of one conversation; ``observer`` (the referee) sees every event."""
        return Channel(self, conversation, observer)


class LiveFeed:
    """A subscriber for live viewers: keeps the latest events, never slows the simulation.

    Viewers poll ``drain()``; when they fall behind, the oldest events are dropped and counted.
    """

    def __init__(self, capacity: int = 10_000) -> None:
        self._events: deque[Event] = deque(maxlen=capacity)
        self.dropped = 0

    async def deliver(self, event: Event) -> None:
        """Append without waiting; overflow drops the oldest event."""
        if len(self._events) == self._events.maxlen:
            self.dropped += 1
        self._events.append(event)

    def drain(self) -> list[Event]:
        """Everything received since the last drain, oldest first."""
        out = list(self._events)
        self._events.clear()
        return out
