"""Ctrl-C, SIGTERM and SIGHUP while a run plays: the first stops it cleanly, later ones nothing.

A process that plays a run (``tau-sim run``, a worker process) calls ``hold_signals`` first:
from then on its handlers for ``STOP_SIGNALS`` stay in place until it exits, so no second
signal ever finds Python's default handler (a ``KeyboardInterrupt`` in the flush, in
asyncio's shutdown or in a thread join: a traceback, a hang, a run marked ``failed``).
What a signal does depends on where the process is:

- starting (``hold_signals(start_up=True)``, until ``defer_signals``): the first raises
  ``KeyboardInterrupt`` where the main thread is (a preflight, a server launch) — nothing is
  stored yet;
- once the run's row may exist (``defer_signals``, which the runner calls before it writes
  it): the first stops the play that ``until_signal`` watches, at once or as soon as it starts;
- every later signal, and any once the play has ended, changes nothing; ``ignore_signals``
  keeps it so while the process exits.

``until_signal`` also works where nothing is held: in the main thread it takes the signals
for its own duration (and gives the previous handlers back), elsewhere only ``stop`` stops it.
The handlers run in the main thread between two bytecodes; they touch the event loop only
through ``call_soon_threadsafe``.
"""

from __future__ import annotations

import asyncio
import errno
import os
import signal
import termios
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from types import FrameType
from typing import Any

import anyio

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop a run (Ctrl-C, ``kill``, a closed terminal), all alike."""


class _Stops:
    """What the process's handlers of ``STOP_SIGNALS`` do, and which signals came."""

    def __init__(self) -> None:
        self.held = False
        self.raising = False
        self.first: int | None = None
        """The first of ``STOP_SIGNALS`` that came (the only one acted on)."""
        self.count = 0
        self.pending = False
        """A signal came while the run's row may exist and no play was watching yet."""
        self._stop: Callable[[], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def handle(self, signum: int, frame: FrameType | None) -> None:
        """A handler of ``STOP_SIGNALS``: act on the first signal only."""
        self.count += 1
        if self.first is not None:
            return
        self.first = signum
        _RECEIVED.append(signum)
        if signum == signal.SIGHUP:
            drop_dead_terminal()
        if self.raising:
            self.raising = False
            raise KeyboardInterrupt
        if self._stop is not None and self._loop is not None:
            self._loop.call_soon_threadsafe(self._stop)
        else:
            self.pending = True

    @contextmanager
    def watching(self, stop: Callable[[], None]) -> Iterator[None]:
        """``stop`` runs on this loop for the first signal (at once if one came already)."""
        self.raising = False
        self._loop = asyncio.get_running_loop()
        self._stop = stop
        if self.pending:
            self.pending = False
            self._loop.call_soon(stop)
        try:
            yield
        finally:
            self._stop = None
            self._loop = None


def terminal_gone(fd: int) -> bool:
    """Whether ``fd`` is a terminal that has hung up (a closed window, a dropped ssh).

    Its attributes then read as an I/O error; a live terminal answers, a pipe or a file says
    it is no terminal.
    """
    try:
        termios.tcgetattr(fd)
    except termios.error as exc:
        return bool(exc.args[0] == errno.EIO)
    except (OSError, ValueError):
        return False
    return False


def drop_dead_terminal() -> None:
    """Point stdout and stderr at /dev/null where they are a terminal that hung up.

    Called on SIGHUP before anything else is written: a write to a hung-up terminal fails
    (EIO), which kills a screen's writer thread and leaves its next writes blocked for ever;
    a ``kill -HUP`` of a process whose terminal is alive keeps its output.
    """
    dead = [fd for fd in (1, 2) if terminal_gone(fd)]
    if not dead:
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in dead:
            os.dup2(devnull, fd)
    finally:
        os.close(devnull)


_STOPS = _Stops()
_RECEIVED: list[int] = []
"""Every stop signal acted on in this process, held or taken for a play (``stop_signal``)."""


def hold_signals(*, start_up: bool = False) -> bool:
    """Take ``STOP_SIGNALS`` for the rest of this process's life; False off the main thread.

    With ``start_up`` the first signal raises ``KeyboardInterrupt`` until ``defer_signals``
    (a process that has stored nothing yet may stop where it is).
    """
    if threading.current_thread() is not threading.main_thread():
        return False
    _STOPS.raising = start_up and _STOPS.first is None
    for signum in STOP_SIGNALS:
        signal.signal(signum, _STOPS.handle)
    _STOPS.held = True
    return True


def defer_signals() -> None:
    """From now on a signal stops the play (``until_signal``) instead of raising.

    The runner calls it before it writes or claims the run's row: a signal that comes before
    the play starts stops it as soon as it starts, so the run ends ``interrupted``.
    """
    _STOPS.raising = False


def ignore_signals() -> None:
    """Where they are held: ignore ``STOP_SIGNALS`` from now on (the process is about to exit).

    The interpreter puts Python's handlers back to the default while it finalizes, where a
    last signal would kill it; an ignored signal stays ignored.
    """
    if _STOPS.held and threading.current_thread() is threading.main_thread():
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_IGN)


def stop_signal() -> int | None:
    """The first of ``STOP_SIGNALS`` this process acted on (None: none).

    Held (``hold_signals``) or taken for one play (``until_signal`` where nothing is held: the
    screens of ``tau-sim tui`` and ``tau-sim human``).
    """
    return _STOPS.first if _STOPS.first is not None else next(iter(_RECEIVED), None)


@contextmanager
def _taken_for_now(stops: _Stops) -> Iterator[None]:
    """Where nothing is held: the signals handled by ``stops`` until the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous: dict[int, Any] = {s: signal.signal(s, stops.handle) for s in STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


async def until_signal(
    body: Callable[[], Awaitable[int]],
    on_signal: Callable[[], None] | None = None,
    *,
    stop: anyio.Event | None = None,
) -> tuple[int, bool]:
    """Run ``body`` until it returns or one of ``STOP_SIGNALS`` comes; (result, interrupted).

    The first signal calls ``on_signal`` (default: cancel ``body``, whose result is then 0);
    later ones change nothing, so a second Ctrl-C does not break the flush. Setting ``stop``
    acts as a signal does (``Runner.interrupt``).
    """
    interrupted = False
    result = 0
    with anyio.CancelScope() as scope:
        stop_body = on_signal or scope.cancel

        def first_stop() -> None:
            nonlocal interrupted
            if not interrupted:
                interrupted = True
                stop_body()

        async def watch_stop(event: anyio.Event) -> None:
            await event.wait()
            first_stop()

        stops = _STOPS if _STOPS.held else _Stops()
        taking: AbstractContextManager[None] = (
            nullcontext() if stops.held else _taken_for_now(stops)
        )
        with stops.watching(first_stop), taking:
            async with anyio.create_task_group() as tg:
                if stop is not None:
                    tg.start_soon(watch_stop, stop)
                result = await body()
                tg.cancel_scope.cancel()
    return result, interrupted
