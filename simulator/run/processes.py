"""Worker processes for one run: the parent deals cells out and stores what comes back.

One Python event loop tops out at a few thousand model calls per second; past that, the run's
cells are dealt round-robin to ``--workers`` processes (``python -m
tau_sim.simulator.run.worker``), each playing one part of the grid (``simulator.run.orders``).
A process gets its ``WorkOrder`` on stdin and streams its events back on stdout, one msgspec
JSON line each (JSON escapes newlines inside strings). The parent is the only writer of the
store, so crash safety and ``--resume`` are unchanged. Each process runs in a session of its
own (a terminal's Ctrl-C and hang-up reach only the parent) and plays while its stdin stays
open: the parent closes it to stop the run, and a parent that dies closes it too, so no worker
outlives it (``simulator.run.worker``). How many (``--workers N|auto``) is the run's
setting (``simulator.grid.workers``).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
from anyio.abc import ByteReceiveStream, ByteSendStream, Process

from tau_sim.simulator.core.events import ConversationEnded, Event, decode_lines
from tau_sim.simulator.core.keys import worker_environment
from tau_sim.simulator.run.orders import PartFailed, Pool, WorkOrder, encode_order

MAX_LINE = 256 * 2**20
READ_SIZE = 2**20
"""Bytes the driver takes from a worker's pipe at most per read (``event_batches``)."""


async def event_batches(stream: ByteReceiveStream) -> AsyncIterator[list[Event]]:
    """The events a worker writes (one JSON line each), in the batches the pipe delivers.

    Each read takes what the pipe holds and decodes its complete lines at once
    (``decode_lines``); a line cut by the read waits for its end. A line over ``MAX_LINE``
    is a ``PartFailed``; an unfinished last line (a worker killed mid-write) is dropped.
    """
    partial = bytearray()
    while True:
        try:
            chunk = await stream.receive(READ_SIZE)
        except (anyio.EndOfStream, anyio.BrokenResourceError):
            return
        end = chunk.rfind(b"\n") + 1
        if not end:
            partial += chunk
            if len(partial) > MAX_LINE:
                raise PartFailed(f"a worker sent a line over {MAX_LINE} bytes")
            continue
        if partial:
            partial += chunk[:end]
            lines = bytes(partial)
            partial = bytearray(chunk[end:])
        else:
            lines = chunk[:end]
            partial += chunk[end:]
        yield decode_lines(lines)


class ProcessPool(Pool):
    """Runs the pending cells of one run in ``config.workers`` child processes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.processes: list[Process] = []
        self._stopping = anyio.Event()

    def interrupt(self) -> None:
        """Ask every worker to stop after sending what it has finished (its stdin is closed)."""
        self.interrupted = True
        self._stopping.set()

    async def run(self) -> int:
        """Play every part in its own process; returns the conversations completed."""
        share = self._share()
        async with anyio.create_task_group() as tg:
            for part in range(self.parts):
                order = WorkOrder(self.config, self.run_id, part, self.parts, share, self.done)
                tg.start_soon(self._play_part, part, order)
        return self.completed

    async def _play_part(self, number: int, order: WorkOrder) -> None:
        command = [sys.executable, "-m", "tau_sim.simulator.run.worker"]
        async with await anyio.open_process(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,
            env=worker_environment(),
            start_new_session=True,
        ) as process:
            self.processes.append(process)
            stdin, stdout = process.stdin, process.stdout
            assert stdin is not None and stdout is not None
            async with anyio.create_task_group() as tg:
                tg.start_soon(self._stop_part, stdin, encode_order(order))
                subscribers = self.bus.subscribers
                on_end = self.on_end
                async for batch in event_batches(stdout):
                    for event in batch:
                        for subscriber in subscribers:
                            await subscriber.deliver(event)
                        if isinstance(event, ConversationEnded):
                            self.completed += 1
                            if on_end is not None:
                                on_end(self._cell_of(event.conversation), event)
                tg.cancel_scope.cancel()
            code = await process.wait()
        if code != 0 and not self.interrupted:
            raise PartFailed(f"worker process {number} exited with status {code}")

    async def _stop_part(self, stdin: ByteSendStream, order: bytes) -> None:
        """Send a worker its order, then close its stdin once the run is interrupted."""
        try:
            await stdin.send(order)
            await self._stopping.wait()
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            return  # the worker is gone already: its exit status tells why
        finally:
            with anyio.CancelScope(shield=True):
                await stdin.aclose()
