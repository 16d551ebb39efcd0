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

# Semaphores belong to one event loop: keep the semaphores (by key) of each running loop apart,
# so that tests and runs that each start their own loop never share (or leak) a semaphore.
_per_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, anyio.Semaphore]] = (
    weakref.WeakKeyDictionary()
)


@asynccontextmanager
async def connection_slot(key: str, limit: int) -> AsyncIterator[None]:
    """Hold one of the ``limit`` in-flight slots of connection ``key`` (a base URL).

    The semaphore of ``key`` is made on first use, with the limit given then.
    """
    semaphores = _per_loop.setdefault(asyncio.get_running_loop(), {})
    sem = semaphores.get(key)
    if sem is None:
        sem = semaphores[key] = anyio.Semaphore(max(1, limit))
    async with sem:
        yield
