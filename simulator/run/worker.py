"""One worker process of a run dealt to ``--workers`` processes (``python -m`` this module).

It plays the cells of a ``WorkOrder`` read from stdin and writes every event to stdout as one
JSON line (see ``simulator.run.processes``, which starts it and reads what it writes).
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
from tau_sim.simulator.run.signals import until_signal


class PipeSink:
    """A bus subscriber that batches encoded events onto a file descriptor (a pipe)."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._chunks: list[bytes] = []
        self._size = 0
        self._room = asyncio.Event()
        self._closing = False

    def offer(self, event: Event) -> bool:
        """Buffer one event if the buffer is under its limit; False when ``deliver`` must wait."""
        if self._size >= MAX_BUFFERED:
            return False
        data = encode(event) + b"\n"
        self._chunks.append(data)
        self._size += len(data)
        return True

    async def deliver(self, event: Event) -> None:
        """Buffer one event; waits while the buffer is over its limit (never drops)."""
        while self._size >= MAX_BUFFERED:
            self._room.clear()
            await self._room.wait()
        data = encode(event) + b"\n"
        self._chunks.append(data)
        self._size += len(data)

    async def run(self) -> None:
        """Write what is buffered every ``FLUSH_INTERVAL`` until closed and drained."""
        while True:
            closing = self._closing
            if self._chunks:
                data = b"".join(self._chunks)
                self._chunks.clear()
                self._size = 0
                self._room.set()
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(self._write_all, data)
            if closing:
                return
            await anyio.sleep(FLUSH_INTERVAL)

    def close(self) -> None:
        """Finish after writing everything buffered so far."""
        self._closing = True

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.write(self.fd, view)
            view = view[written:]


async def play_order(order: WorkOrder) -> None:
    """Play the order's cells; SIGINT/SIGTERM stop it after flushing what is finished."""
    sink = PipeSink(sys.stdout.fileno())
    bus = Bus([sink])
    async with anyio.create_task_group() as outer:
        outer.start_soon(sink.run)
        try:
            async with order_player(order) as (player, cells):
                await until_signal(lambda: player.play_cells(cells, bus, order.concurrency))
        finally:
            sink.close()


def main() -> None:
    """Entry point of ``python -m tau_sim.simulator.run.worker``."""
    import msgspec

    line = sys.stdin.buffer.readline()
    copy_dir = os.environ.get(STDIN_COPY_ENV)
    if copy_dir:
        with open(os.path.join(copy_dir, f"worker-{os.getpid()}.stdin"), "wb") as copy:
            copy.write(line)
    order = msgspec.json.decode(line, type=WorkOrder)
    anyio.run(play_order, order, backend_options=backend_options())


if __name__ == "__main__":
    main()
