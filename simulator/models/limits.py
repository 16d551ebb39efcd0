"""The in-flight cap per endpoint, shared by every model call on one event loop.

Each call runs inside ``connection_slot(key, limit)``: a semaphore per connection key (a base
URL), shared by all conversations and all models that reach that endpoint. Retries, backoff and
timeouts are the SDKs' own (see ``hosted``).
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import anyio


class KeyedSemaphore:
    """One semaphore per key, created on first use with the limit given then."""

    def __init__(self) -> None:
        self._semaphores: dict[str, anyio.Semaphore] = {}

    def get(self, key: str, limit: int) -> anyio.Semaphore:
        """The semaphore of ``key`` (a new one allows ``limit`` holders)."""
        sem = self._semaphores.get(key)
        if sem is None:
            sem = self._semaphores[key] = anyio.Semaphore(max(1, limit))
        return sem


# Semaphores belong to one event loop: keep one keyed set per running loop, so that tests and
# runs that each start their own loop never share (or leak) a semaphore.
_per_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, KeyedSemaphore] = (
    weakref.WeakKeyDictionary()
)


def connection_limits() -> KeyedSemaphore:
    """The keyed semaphores of the running event loop, shared by all conversations on it."""
    loop = asyncio.get_running_loop()
    limits = _per_loop.get(loop)
    if limits is None:
        limits = _per_loop[loop] = KeyedSemaphore()
    return limits


@asynccontextmanager
async def connection_slot(key: str, limit: int) -> AsyncIterator[None]:
    """Hold one of the ``limit`` in-flight slots of connection ``key`` (a base URL)."""
    async with connection_limits().get(key, limit):
        yield
