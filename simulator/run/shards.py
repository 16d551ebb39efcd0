"""Worker processes for one run: the parent deals cells out and stores what comes back.

One Python event loop tops out at a few thousand model calls per second; past that, the run's
cells are dealt round-robin to ``--workers`` processes (``python -m tau_sim.simulator.run.worker``): worker
``part`` of ``parts`` plays the cells whose index is ``part`` modulo ``parts``. Each gets a
``WorkOrder`` on stdin (never an API key: sealed keys travel in the workers' environment; no
list of cells: its part number and the run's done cells as a bitmap, so an order's size and
the parent's memory do not grow with the grid) and streams its events back on stdout, one
msgspec JSON line each (JSON escapes newlines inside strings). The parent is the only writer
of the store, so crash safety and ``--resume`` are unchanged. ``--workers auto`` is one worker
per core this process may use (``auto_workers``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Iterator

import anyio
import msgspec
from anyio.abc import ByteReceiveStream, Process

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.events import ConversationEnded, Event, decode_lines
from tau_sim.simulator.core.keys import worker_environment
from tau_sim.simulator.engine.bus import Bus
from tau_sim.simulator.grid.cells import (
    Cell,
    CellSet,
    RunConfig,
    cell_at,
    cell_index,
    grid_size,
    pending,
)

ProgressCallback = Callable[[Cell, ConversationEnded], None]

MAX_LINE = 256 * 2**20
READ_SIZE = 2**20
"""Bytes the driver takes from a worker's pipe at most per read (``event_batches``)."""
FLUSH_INTERVAL = 0.02
"""Seconds between two batches of events a worker process or a Ray actor sends back."""
MAX_BUFFERED = 8 * 2**20
"""Bytes of events a worker or an actor holds unsent before its conversations wait."""
MAX_WORKERS = 256
"""The most worker processes one run may have (``--workers``)."""


def auto_workers() -> int:
    """Worker processes for ``--workers auto``: the cores this process may run on."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


def resolve_workers(value: int | str) -> int:
    """``--workers``: a count, or ``auto`` (``auto_workers``); anything else is a UsageError."""
    if isinstance(value, int):
        return value
    text = str(value).strip().lower()
    if text == "auto":
        return auto_workers()
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"--workers: expected a number or auto (got {value!r})") from None


class WorkOrder(msgspec.Struct, frozen=True):
    """Everything one worker plays: one part of the run's grid, as a few numbers.

    Its cells are those of ``config``'s grid whose index is ``part`` modulo ``parts``, less
    those in ``done``, played up to ``concurrency`` at once.
    ``done`` is a ``CellSet``'s bytes over the whole grid (empty: nothing done yet), so the
    order stays small for any grid; ``cells`` names the cells it plays, lazily.
    """

    config: RunConfig
    run_id: str
    part: int
    parts: int
    concurrency: int
    done: bytes = b""

    def cells(self) -> Iterator[Cell]:
        """The cells this order plays, made one at a time."""
        size = grid_size(self.config)
        done = CellSet(size, self.done) if self.done else CellSet(size)
        return pending(self.config, done, self.part, self.parts)


def encode_order(order: WorkOrder) -> bytes:
    """The line a worker reads on stdin; an unsealed ``api_key`` never gets this far.

    Keys reach workers through their environment (``simulator.core.keys.worker_environment``).
    """
    for table in (order.config.agent_options, order.config.user_options):
        for name, options in table.items():
            if "api_key" in options:
                raise RuntimeError(f"{name}: a literal api_key must be sealed before sharding")
    return msgspec.json.encode(order) + b"\n"


class WorkerFailed(RuntimeError):
    """A worker process ended with an error before finishing its cells."""


async def event_batches(stream: ByteReceiveStream) -> AsyncIterator[list[Event]]:
    """The events a worker writes (one JSON line each), in the batches the pipe delivers.

    Each read takes what the pipe holds and decodes its complete lines at once
    (``decode_lines``); a line cut by the read waits for its end. A line over ``MAX_LINE``
    is a ``WorkerFailed``; an unfinished last line (a worker killed mid-write) is dropped.
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
                raise WorkerFailed(f"a worker sent a line over {MAX_LINE} bytes")
            continue
        if partial:
            partial += chunk[:end]
            lines = bytes(partial)
            partial = bytearray(chunk[end:])
        else:
            lines = chunk[:end]
            partial += chunk[end:]
        yield decode_lines(lines)


class Shards:
    """Runs the pending cells of one run in ``config.workers`` child processes.

    ``done`` are the cells already completed; each worker gets the same bitmap and its part
    number (``WorkOrder``), so nothing here grows with the grid.
    """

    def __init__(
        self,
        config: RunConfig,
        run_id: str,
        done: CellSet,
        bus: Bus,
        on_end: ProgressCallback | None = None,
    ) -> None:
        self.config = config
        self.run_id = run_id
        self.bus = bus
        self.on_end = on_end
        left = grid_size(config) - len(done)
        self.parts = min(config.workers, left)  # no worker when nothing is left
        self.done = bytes(done) if len(done) else b""
        self.processes: list[Process] = []
        self.completed = 0
        self.interrupted = False

    def _cell_of(self, conversation: str) -> Cell:
        """The grid cell a worker's conversation plays (from the index in its id)."""
        index = cell_index(conversation)
        if index is None:
            raise WorkerFailed(f"a worker sent an event of another conversation {conversation!r}")
        return cell_at(self.config, index)

    def interrupt(self) -> None:
        """Ask every worker to stop after sending what it has finished."""
        self.interrupted = True
        for process in self.processes:
            if process.returncode is None:
                process.send_signal(signal.SIGINT)

    async def run(self) -> int:
        """Play every part in its own process; returns the conversations completed."""
        config = self.config
        share = -(-config.concurrency // max(self.parts, 1))
        async with anyio.create_task_group() as tg:
            for part in range(self.parts):
                order = WorkOrder(config, self.run_id, part, self.parts, share, self.done)
                tg.start_soon(self._shard, part, order)
        return self.completed

    async def _shard(self, number: int, order: WorkOrder) -> None:
        command = [sys.executable, "-m", "tau_sim.simulator.run.worker"]
        async with await anyio.open_process(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,
            env=worker_environment(),
        ) as process:
            self.processes.append(process)
            if self.interrupted:
                process.send_signal(signal.SIGINT)
            assert process.stdin is not None and process.stdout is not None
            await process.stdin.send(encode_order(order))
            await process.stdin.aclose()
            subscribers = self.bus.subscribers
            on_end = self.on_end
            async for batch in event_batches(process.stdout):
                for event in batch:
                    for subscriber in subscribers:
                        await subscriber.deliver(event)
                    if isinstance(event, ConversationEnded):
                        self.completed += 1
                        if on_end is not None:
                            on_end(self._cell_of(event.conversation), event)
            code = await process.wait()
        if code != 0 and not self.interrupted:
            raise WorkerFailed(f"worker process {number} exited with status {code}")
