"""The SDK clients of one endpoint: grown on demand, each request on the least busy one."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class ClientPool:
    """The SDK clients of one base URL; a request takes the one with the fewest in flight.

    The first client is made at once; more on demand: a new one only when every client has
    ``per_client`` requests in flight, up to ``most`` clients; so the number of pools follows
    the real concurrency.
    """

    __slots__ = ("busy", "clients", "make", "most", "per_client")

    def __init__(self, make: Callable[[], Any], per_client: int, most: int) -> None:
        self.make = make
        self.per_client = per_client
        self.most = most
        self.clients: list[Any] = [make()]
        self.busy: list[int] = [0]

    @contextmanager
    def pick(self) -> Iterator[Any]:
        """Hold the least busy client (a new one if all are full) for one request."""
        busy = self.busy
        i = busy.index(min(busy))
        if busy[i] >= self.per_client and len(busy) < self.most:
            self.clients.append(self.make())
            busy.append(0)
            i = len(busy) - 1
        busy[i] += 1
        try:
            yield self.clients[i]
        finally:
            busy[i] -= 1
