"""Limits shared by every model call: in-flight caps per endpoint, retries with backoff, timeouts.

Every backend runs each attempt of a call inside ``connection_slot(key, limit)`` (a semaphore
per connection key, shared by all conversations on one event loop) and the whole call inside
``call_with_retries``, which retries what the backend's ``classify`` calls transient: 429, 5xx,
timeouts and connection errors, sleeping an exponential backoff with full jitter or exactly what
the server asked for in ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from typing import TypeVar

import anyio
import msgspec

from simulator.models.base import ModelError

_T = TypeVar("_T")


class RetryPolicy(msgspec.Struct, frozen=True, kw_only=True):
    """How often and how patiently a model call is retried.

    Attributes:
        max_retries: retries after the first attempt (0 disables retrying).
        backoff_base: seconds of the first backoff ceiling; it doubles on each retry.
        backoff_max: the largest backoff ceiling in seconds.
        retry_after_max: the longest ``Retry-After`` honoured, in seconds.
        timeout: seconds one attempt may take, connection included.
    """

    max_retries: int = 6
    backoff_base: float = 1.0
    backoff_max: float = 60.0
    retry_after_max: float = 120.0
    timeout: float = 120.0

    def backoff(self, retry: int, retry_after: float | None, rng: random.Random) -> float:
        """Seconds to wait before retry number ``retry`` (0-based)."""
        if retry_after is not None:
            return min(max(retry_after, 0.0), self.retry_after_max)
        ceiling = min(self.backoff_max, self.backoff_base * 2.0**retry)
        return rng.uniform(0.0, ceiling)  # full jitter: spreads a burst of retries


class Retry(Exception):
    """Raised by ``classify`` results: the failure is transient; ``after`` is Retry-After."""

    def __init__(self, reason: str, after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.after = after


Classifier = Callable[[BaseException], "Retry | ModelError"]
"""Maps an exception of a backend to ``Retry`` (try again) or ``ModelError`` (give up)."""


class CallOutcome(msgspec.Struct, frozen=True):
    """A successful call's latency (all attempts and waits) and how many retries it took."""

    latency_s: float
    retries: int


async def call_with_retries(
    attempt: Callable[[], Awaitable[_T]],
    policy: RetryPolicy,
    classify: Classifier,
    rng: random.Random | None = None,
) -> tuple[_T, CallOutcome]:
    """Run ``attempt`` under the per-call timeout, retrying transient failures.

    Raises:
        ModelError: the failure is permanent, or retries are exhausted (the message says which,
            with the last cause; never the request or its credentials).
    """
    rng = rng or random.Random()
    start = time.perf_counter()
    retry = 0
    while True:
        try:
            with anyio.fail_after(policy.timeout):
                result = await attempt()
            return result, CallOutcome(time.perf_counter() - start, retry)
        except TimeoutError:
            verdict: Retry | ModelError = Retry(f"no answer within {policy.timeout:g} s")
        except (ModelError, Retry) as exc:
            verdict = exc
        except Exception as exc:
            verdict = classify(exc)
        if isinstance(verdict, ModelError):
            raise verdict
        if retry >= policy.max_retries:
            tries = retry + 1
            raise ModelError(
                f"gave up after {tries} attempt{'s' * (tries > 1)}: {verdict.reason}"
            ) from None
        await anyio.sleep(policy.backoff(retry, verdict.after, rng))
        retry += 1


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """Seconds a server asked us to wait (``retry-after-ms``, ``retry-after`` secs or date)."""
    value = headers.get("retry-after-ms")
    if value:
        try:
            return float(value) / 1000.0
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def status_verdict(status: int, message: str, retry_after: float | None) -> Retry | ModelError:
    """The verdict for an HTTP error status: 408/409/429/5xx retry, other statuses fail."""
    if status in (408, 409, 429) or status >= 500:
        return Retry(f"HTTP {status}: {message}", retry_after)
    return ModelError(f"HTTP {status}: {message}")


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
