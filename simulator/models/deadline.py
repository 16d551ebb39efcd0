"""``timeout=`` as a bound on one whole attempt: headers and body, streamed or not.

The SDKs hand ``timeout`` to their transports (httpx, aiohttp) as per-read timeouts: a server
that sends the headers and then trickles the body, one piece a second, never trips them, and an
attempt lasts as long as the server likes. ``deadline_client(http_class)`` is the SDK's HTTP
client class with ``send`` bounded: the attempt's read timeout (what the SDK sets per request,
``with_options`` included) is its deadline, counted from the moment ``send`` starts. Waiting for
the headers past it, or for any later piece of the body (the whole body of a non-streamed
answer, read inside ``send``; each chunk of a stream, read later), raises ``httpx2.ReadTimeout``,
so the SDK sees the timeout it already knows: its retry loop retries a non-streamed attempt up
to ``max_retries``, and a stream raises ``APITimeoutError`` from its iterator.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from functools import cache
from typing import Any

import httpx2


def attempt_seconds(request: httpx2.Request, default: httpx2.Timeout) -> float | None:
    """The seconds ``request`` may take in all: its read timeout (None: no bound)."""
    timeout = request.extensions.get("timeout")
    if isinstance(timeout, dict):
        read = timeout.get("read")
        return None if read is None else float(read)
    return default.read


def expired(request: httpx2.Request, seconds: float) -> httpx2.ReadTimeout:
    """The error of an attempt that ran past its ``seconds``."""
    return httpx2.ReadTimeout(f"the attempt took more than {seconds:g} s", request=request)


class DeadlineStream(httpx2.AsyncByteStream):
    """A streamed body whose pieces must all arrive before ``deadline`` (the loop's clock)."""

    def __init__(
        self, inner: Any, request: httpx2.Request, seconds: float, deadline: float
    ) -> None:
        self._inner = inner
        self._request = request
        self._seconds = seconds
        self._deadline = deadline

    async def __aiter__(self) -> AsyncIterator[bytes]:
        """The inner stream's pieces; ``httpx2.ReadTimeout`` once the deadline has passed."""
        pieces = self._inner.__aiter__()
        while True:
            try:
                async with asyncio.timeout_at(self._deadline):  # never spans the yield below
                    piece = await pieces.__anext__()
            except StopAsyncIteration:
                return
            except TimeoutError:
                raise expired(self._request, self._seconds) from None
            yield piece

    async def aclose(self) -> None:
        """Close the inner stream (an unread rest closes the connection)."""
        await self._inner.aclose()


@cache
def deadline_client(http_class: type[httpx2.AsyncClient]) -> type[httpx2.AsyncClient]:
    """``http_class`` whose ``send`` ends an attempt at its read timeout, body included.

    A non-streamed attempt (headers and body, read inside ``send``) runs in one
    ``asyncio.timeout`` (about 5 us; anyio's ``fail_after`` costs about 15 us, and a body of
    several pieces would take one per piece); a stream carries the deadline to each piece.
    """

    class DeadlineClient(http_class):  # type: ignore[valid-type,misc]
        async def send(
            self, request: httpx2.Request, *, stream: bool = False, **kwargs: Any
        ) -> httpx2.Response:
            seconds = attempt_seconds(request, self.timeout)
            if seconds is None:
                unbounded: httpx2.Response = await super().send(request, stream=stream, **kwargs)
                return unbounded
            deadline = asyncio.get_running_loop().time() + seconds
            response: httpx2.Response | None = None
            try:
                async with asyncio.timeout_at(deadline):
                    response = await super().send(request, stream=True, **kwargs)
                    if not stream:
                        await response.aread()
            except BaseException as exc:
                if response is not None:
                    await response.aclose()
                if isinstance(exc, TimeoutError):
                    raise expired(request, seconds) from None
                raise
            if stream:
                response.stream = DeadlineStream(response.stream, request, seconds, deadline)
            return response

    DeadlineClient.__name__ = DeadlineClient.__qualname__ = f"Deadline{http_class.__name__}"
    return DeadlineClient
