"""One worker process of a run dealt to ``--workers`` processes (``python -m`` this module).

It plays the cells of a ``WorkOrder`` read from stdin and writes every event to stdout as one
JSON line (see ``simulator.run.processes``, which starts it and reads what it writes). Its
parent keeps stdin open while it wants the play to go on: the end of stdin (the parent closed
it to stop the run, or the parent is gone) stops the play after what is finished is sent. A
stdout nobody reads any more (the parent is gone) stops it at once, quietly. SIGINT, SIGTERM
and SIGHUP stop it as the end of stdin does (``run.signals``); a worker runs in a session of
its own, so a terminal's Ctrl-C or hang-up reaches only the parent.
"""

from __future__ import annotations

import asyncio
import os
import sys

import anyio

from tau_sim.simulator.core.events import Event, encode
from tau_sim.simulator.engine.bus import Bus
from tau_sim.simulator.run.orders import FLUSH_INTERVAL, MAX_BUFFERED, STDIN_COPY_ENV, WorkOrder
from tau_sim.simulator.run.player import backend_options, order_player
from tau_sim.simulator.run.signals import hold_signals, ignore_signals, until_signal


class PipeSink:
    """A bus subscriber that batches encoded events onto a file descriptor (a pipe)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._chunks: list[bytes] = []
        self._size = 0
        self._room = asyncio.Event()
        self._closing = False
        self.broken = anyio.Event()
        """Set when the reader is gone (a broken pipe): what is buffered then is dropped."""

    def offer(self, event: Event) -> bool:
        """Buffer one event if the buffer is under its limit; False when ``deliver`` must wait."""
        if self.broken.is_set():
            return True
        if self._size >= MAX_BUFFERED:
            return False
        data = encode(event) + b"\n"
        self._chunks.append(data)
        self._size += len(data)
        return True

    async def deliver(self, event: Event) -> None:
        """Buffer one event; waits while the buffer is over its limit (drops only once broken)."""
        if self.broken.is_set():
            return
        while self._size >= MAX_BUFFERED and not self.broken.is_set():
            self._room.clear()
            await self._room.wait()
        data = encode(event) + b"\n"
        self._chunks.append(data)
        self._size += len(data)

    async def run(self) -> None:
        """Write what is buffered every ``FLUSH_INTERVAL`` until closed and drained.

        A broken pipe (no reader) sets ``broken`` and ends it; nothing is written after.
        """
        while True:
            closing = self._closing
            if self._chunks:
                data = b"".join(self._chunks)
                self._chunks.clear()
                self._size = 0
                self._room.set()
                with anyio.CancelScope(shield=True):
                    written = await anyio.to_thread.run_sync(self._write_all, data)
                if not written:
                    self.broken.set()
                    self._room.set()
                    return
            if closing:
                return
            await anyio.sleep(FLUSH_INTERVAL)

    def close(self) -> None:
        """Finish after writing everything buffered so far."""
        self._closing = True

    def _write_all(self, data: bytes) -> bool:
        """Write ``data`` whole; False when the pipe has no reader any more."""
        view = memoryview(data)
        try:
            while view:
                written = os.write(self.fd, view)
                view = view[written:]
        except BrokenPipeError:
            return False
        return True


async def play_order(order: WorkOrder, stdin: int | None = None) -> None:
    """Play the order's cells; the end of ``stdin`` (a file descriptor) or a signal stops it.

    Stopped so, what is finished is sent first; a broken stdout stops it at once.
    """
    sink = PipeSink(sys.stdout.fileno())
    bus = Bus([sink])
    stop = anyio.Event()
    async with anyio.create_task_group() as outer:
        outer.start_soon(sink.run)
        try:
            async with anyio.create_task_group() as watchers:
                if stdin is not None:
                    watchers.start_soon(_set_at_end, stdin, stop)
                async with order_player(order) as (player, cells):
                    with anyio.CancelScope() as play:
                        watchers.start_soon(_cancel_when_set, sink.broken, play)
                        await until_signal(
                            lambda: player.play_cells(cells, bus, order.concurrency), stop=stop
                        )
                watchers.cancel_scope.cancel()
        finally:
            sink.close()


async def _set_at_end(fd: int, stop: anyio.Event) -> None:
    """Set ``stop`` once ``fd`` (the parent's end of stdin) is closed."""
    while True:
        await anyio.wait_readable(fd)
        if not os.read(fd, 4096):
            stop.set()
            return


async def _cancel_when_set(event: anyio.Event, scope: anyio.CancelScope) -> None:
    await event.wait()
    scope.cancel()


def main() -> None:
    """Entry point of ``python -m tau_sim.simulator.run.worker``.

    Exits 0, quietly, once its parent is gone (before its whole order came, too), whatever is
    left unsent.
    """
    import msgspec

    hold_signals()
    line = sys.stdin.buffer.readline()
    copy_dir = os.environ.get(STDIN_COPY_ENV)
    if copy_dir:
        with open(os.path.join(copy_dir, f"worker-{os.getpid()}.stdin"), "wb") as copy:
            copy.write(line)
    if not line.endswith(b"\n"):
        return  # the end of stdin before the order's end: the parent is gone
    order = msgspec.json.decode(line, type=WorkOrder)
    anyio.run(play_order, order, sys.stdin.fileno(), backend_options=backend_options())
    ignore_signals()


if __name__ == "__main__":
    main()
