"""Ctrl-C and SIGTERM while a run plays: the first stops it cleanly, later ones change nothing."""

from __future__ import annotations

import signal
from collections.abc import Awaitable, Callable

import anyio


async def until_signal(
    body: Callable[[], Awaitable[int]],
    on_signal: Callable[[], None] | None = None,
    *,
    stop: anyio.Event | None = None,
) -> tuple[int, bool]:
    """Run ``body`` until it returns or SIGINT/SIGTERM arrives; returns (result, interrupted).

    The first signal calls ``on_signal`` (default: cancel ``body``, whose result is then 0);
    later ones change nothing, so a second Ctrl-C does not break the flush. Setting ``stop``
    acts as a signal does (``Runner.interrupt``).
    """
    interrupted = False
    result = 0
    with anyio.CancelScope() as scope:
        stop_body = on_signal or scope.cancel

        async def watch() -> None:
            nonlocal interrupted
            with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
                async for _ in signals:
                    if not interrupted:
                        interrupted = True
                        stop_body()

        async def watch_stop(event: anyio.Event) -> None:
            nonlocal interrupted
            await event.wait()
            if not interrupted:
                interrupted = True
                stop_body()

        async with anyio.create_task_group() as tg:
            tg.start_soon(watch)
            if stop is not None:
                tg.start_soon(watch_stop, stop)
            result = await body()
            tg.cancel_scope.cancel()
    return result, interrupted
