"""The runner: a whole run of a grid into a store, in this process, worker processes or Ray.

The grid is agents x users x tasks x emotions x intensities x levels x trials
(``simulator.grid``). A conversation's row is written when it is admitted, so memory and
start-up stay flat whatever the grid size. A resumed run skips completed cells (known from the
store as a bitmap, ``Store.done_cells``) and re-plays the others from scratch. The cells are
played by a ``Player`` in this process (``simulator.run.player``), or dealt to worker
processes (``simulator.run.processes``) or Ray actors (``simulator.run.ray_actors``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import anyio
import msgspec
from anyio.abc import TaskGroup

from tau_sim.simulator.core.errors import ClaimLost, StoreError, UsageError
from tau_sim.simulator.core.infra import COMPLETED_WITH_ERRORS, EXCLUDED_REASONS, run_error_share
from tau_sim.simulator.engine.bus import Bus, LiveFeed, Subscriber
from tau_sim.simulator.grid.cells import Cell, CellSet, grid_size, pending
from tau_sim.simulator.grid.config import RunConfig
from tau_sim.simulator.run.orders import ProgressCallback
from tau_sim.simulator.run.player import Player, open_providers, settle_memory
from tau_sim.simulator.run.preparing import prepare_run
from tau_sim.simulator.run.processes import ProcessPool
from tau_sim.simulator.run.ray_actors import RayPool, cluster
from tau_sim.simulator.run.signals import defer_signals, until_signal
from tau_sim.simulator.store import Store
from tau_sim.simulator.world.pool import domains_named


class Runner:
    """Plays the pending cells of one run into a store, in this process or in worker processes.

    With ``create`` the run's row is written once the providers have started, so a model that
    cannot start (a missing key, an unreachable endpoint) leaves nothing behind.

    Without ``create`` the run exists already (``--resume``): its stored task-set hash must
    match the tasks ``config`` selects now, or nothing is touched (``UsageError``). Literal
    API keys are sealed into the environment first (``simulator.grid.keys``, by
    ``prepare_run``), so neither the stored config nor a worker's order holds one.

    A resume plays again the cells whose conversation an endpoint or the user simulator ended
    (``infra_error``, ``user_error``: their conversations and events are deleted first), unless
    ``keep_errors``. A run that ends with such conversations stored is
    ``completed_with_errors``, not ``completed``.

    ``player`` is the run's player from ``prepare_run`` (keys sealed, pool checked, tasks
    prepared), made before the store was opened; its config is the run's and nothing is
    checked again. Without one, ``prepare_run(config, run_id)`` makes it here.

    With ``config.workers > 1`` the cells are dealt round-robin to that many worker processes
    (``ProcessPool``: ``python -m tau_sim.simulator.run.worker``), each with its own event loop
    and providers; their events stream back over pipes and this process alone writes the
    store. With ``config.ray`` they are dealt to that many Ray actors instead (``RayPool``,
    ``simulator.run.ray_actors``), the same way.
    """

    def __init__(
        self,
        store: Store,
        config: RunConfig,
        run_id: str,
        *,
        on_end: ProgressCallback | None = None,
        feed: LiveFeed | None = None,
        create: bool = False,
        on_start: Callable[[int], None] | None = None,
        keep_errors: bool = False,
        player: Player | None = None,
    ) -> None:
        self.player = player if player is not None else prepare_run(config, run_id)
        config = self.player.config
        self.store = store
        self.config = config
        self.run_id = run_id
        self.on_end = on_end
        self.feed = feed
        self.create = create
        self.on_start = on_start
        self.keep_errors = keep_errors
        self.total = grid_size(config)
        if not create:
            self._check_task_set()
        self.interrupted = False
        self.created = False
        self.status: str | None = None
        """The run's stored status once ``run`` has ended (None: no run row was written)."""
        self._stop_requested = False
        self._stop: anyio.Event | None = None

    def interrupt(self) -> None:
        """Stop the run as SIGINT does: it ends ``interrupted``, finished conversations kept.

        For callers in the same process (the TUI's quit); safe before the play has started.
        """
        self._stop_requested = True
        if self._stop is not None:
            self._stop.set()

    def _check_task_set(self) -> None:
        stored = self.store.tasks_hash(self.run_id)
        if stored is None:
            raise UsageError(
                f"--resume {self.run_id}: the run was stored by an older tau-sim without the "
                "hash of its task set, so a changed task set could not be detected; start a "
                "new run (report and rescore still read it)"
            )
        if stored != self.player.tasks_hash:
            where = self.config.tasks_file or domains_named(self.config.domains)
            raise UsageError(
                f"--resume {self.run_id}: the tasks of {where} changed since the run started "
                "(its task-set hash differs); restore them or start a new run"
            )

    def done_cells(self) -> CellSet:
        """The cells of this run with a completed conversation in the store (a bitmap)."""
        return self.store.done_cells(self.run_id, self.total)

    def pending_cells(self) -> Iterator[Cell]:
        """Cells of this run that have no completed conversation yet, made as they are pulled."""
        return pending(self.config, self.done_cells())

    async def run(self) -> int:
        """Play every pending cell; returns how many conversations completed in this call.

        The providers are entered in the run's task group around the play, so servers they
        start live exactly as long as the conversations that use them. The final status is
        stored once the writer has committed its last batch (``Store.finish_run``: never
        ``completed`` with fewer completed conversations than the run's stored total of cells)
        and kept in ``status``. A storage fault
        (``StoreError``, from the writer or the bookkeeping) stops the run; the run is then
        marked ``failed`` if the file still takes that write, else it stays ``running`` and
        reads ``stale`` once its heartbeat is old. A clean play that leaves cells unfinished
        is a ``StoreError`` too. Once the providers are open, SIGINT, SIGTERM and SIGHUP stop
        the play and the run ends ``interrupted`` (``defer_signals``, ``until_signal``).
        """
        providers = self.player.providers
        if self.config.workers > 1 or self.config.ray is not None:
            async with open_providers(providers):  # only a check here: each part starts its own
                pass
            providers = []
        with cluster(self.config):  # with --ray: connected before the run's row is written
            return await self._run_with(providers)

    async def _run_with(self, providers: list[Any]) -> int:
        """``run`` once the providers to open in this process are known."""
        completed = 0
        self.created = False
        try:
            async with anyio.create_task_group() as outer, open_providers(providers):
                defer_signals()  # from here a signal ends the run `interrupted`
                if self.create:
                    config_json = msgspec.json.encode(self.config).decode()
                    self.store.create_run(
                        self.run_id,
                        self.config.seed,
                        config_json,
                        self.total,
                        tasks_hash=self.player.tasks_hash,
                    )
                # claimed before anything of a resumed run is touched: refused (nothing
                # changed) while another process plays it
                self.store.claim_run(self.run_id)
                self.created = True
                completed = await self._play(outer)
        except BaseException as exc:
            if self.created and not _claim_lost(exc):  # a lost run is another's to finish
                self._finish_after_failure()
            raise
        self.status = self.store.finish_run(
            self.run_id, "interrupted" if self.interrupted else "completed"
        )
        if self.status == "failed":
            missing = self.total - self.store.completed_count(self.run_id)
            raise StoreError(
                f"--db {self.store.path}: {missing} of {self.total} conversations were not "
                "stored although the run ended cleanly"
            )
        if self.status == "completed" and run_error_share(self.store.db, self.run_id).excluded:
            self.store.set_run_status(self.run_id, COMPLETED_WITH_ERRORS)
            self.status = COMPLETED_WITH_ERRORS
        return completed

    def _finish_after_failure(self) -> None:
        """Mark the run ``failed`` if the file takes the write; the run's own error goes on."""
        try:
            self.status = self.store.finish_run(self.run_id, "failed")
        except StoreError:  # a full or broken file: the run stays `running`, then `stale`
            self.status = "running"

    async def _play(self, outer: TaskGroup) -> int:
        """Start the store's writer in ``outer`` and play the pending cells as a stream.

        What is done is read from the store once, as a bitmap; no row is written ahead: the
        writer stores each conversation's row when it is admitted.
        """
        self.store.discard_unfinished(self.run_id)
        if not self.create and not self.keep_errors:
            for reason in sorted(EXCLUDED_REASONS):
                self.store.discard_reason(self.run_id, reason)
        done = self.done_cells()
        if self.on_start is not None:
            self.on_start(len(done))
        subscribers: list[Subscriber] = [self.store]
        if self.feed is not None:
            subscribers.append(self.feed)
        bus = Bus(subscribers)
        pool_class = RayPool if self.config.ray is not None else ProcessPool
        pool = (
            pool_class(self.config, self.run_id, done, bus, self.on_end)
            if self.config.workers > 1 or self.config.ray is not None
            else None
        )
        cells = pending(self.config, done)
        settle_memory()
        outer.start_soon(self.store.run_writer)
        self._stop = anyio.Event()
        if self._stop_requested:
            self._stop.set()
        try:
            if pool is not None:
                # workers send what they finished, then exit
                completed, self.interrupted = await until_signal(
                    pool.run, pool.interrupt, stop=self._stop
                )
            else:
                concurrency = min(self.config.concurrency, max(self.total - len(done), 1))
                completed, self.interrupted = await until_signal(
                    lambda: self.player.play_cells(cells, bus, concurrency, self.on_end),
                    stop=self._stop,
                )
        finally:
            with anyio.CancelScope(shield=True):
                await self.store.close()
        return completed


def _claim_lost(exc: BaseException) -> bool:
    """Whether ``exc`` is, or holds, a ``ClaimLost`` (task groups wrap what tasks raise)."""
    if isinstance(exc, ClaimLost):
        return True
    return isinstance(exc, BaseExceptionGroup) and any(
        _claim_lost(inner) for inner in exc.exceptions
    )
