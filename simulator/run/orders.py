"""What a run deals to its worker processes or Ray actors: work orders, and the pool's base.

A run's cells are dealt round-robin to ``parts`` players (worker processes,
``simulator.run.processes``, or Ray actors, ``simulator.run.ray_actors``): part ``part`` of
``parts`` plays the cells whose index is ``part`` modulo ``parts``. Each part gets a
``WorkOrder`` (never an API key: sealed keys travel in the environment, ``simulator.core.keys``;
no list of cells: its part number and the run's done cells as a bitmap, so an order's size and
the parent's memory do not grow with the grid). ``Pool`` holds what both kinds of pool share:
the dealing and the count of completed conversations; the parent is the only writer of the
store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import msgspec

from tau_sim.simulator.core.events import ConversationEnded
from tau_sim.simulator.engine.bus import Bus
from tau_sim.simulator.grid.cells import Cell, CellSet, cell_at, cell_index, grid_size, pending
from tau_sim.simulator.grid.config import RunConfig

ProgressCallback = Callable[[Cell, ConversationEnded], None]
"""Called with each cell whose conversation ended, and its ``ConversationEnded``."""

FLUSH_INTERVAL = 0.02
"""Seconds between two batches of events a worker process or a Ray actor sends back."""
MAX_BUFFERED = 8 * 2**20
"""Bytes of events a worker or an actor holds unsent before its conversations wait."""
STDIN_COPY_ENV = "TAU_SIM_WORKER_STDIN_COPY"
"""Debugging and tests: a directory where each worker writes a copy of what it read on stdin."""


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


class PartFailed(RuntimeError):
    """A worker process or a Ray actor ended with an error before finishing its cells."""


class Pool:
    """Deals the pending cells of one run to ``config.workers`` parts; the parent stores.

    ``done`` are the cells already completed; each part gets the same bitmap and its part
    number (``WorkOrder``), so nothing here grows with the grid. Subclasses play the parts
    (``run``) and stop them (``interrupt``).
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
        self.parts = min(config.workers, left)  # no part when nothing is left
        self.done = bytes(done) if len(done) else b""
        self.completed = 0
        self.interrupted = False

    def _cell_of(self, conversation: str) -> Cell:
        """The grid cell a part's conversation plays (from the index in its id)."""
        index = cell_index(conversation)
        if index is None:
            raise PartFailed(f"a worker sent an event of another conversation {conversation!r}")
        return cell_at(self.config, index)

    def _share(self) -> int:
        """The conversations each part plays at once: the run's concurrency, split."""
        return -(-self.config.concurrency // max(self.parts, 1))

    def interrupt(self) -> None:
        """Ask every part to stop after sending what it has finished."""
        raise NotImplementedError

    async def run(self) -> int:
        """Play every part; returns the conversations completed."""
        raise NotImplementedError
