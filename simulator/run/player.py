"""The player: grid cells of one run played on one event loop, with one set of providers.

Conversations are admitted up to ``concurrency`` by a fixed set of slots pulling the next grid
cell from a lazy stream (``simulator.grid.cells.pending``), so memory and start-up stay flat
whatever the grid size. The first conversations are admitted one per ``ADMISSION_INTERVAL_S``
(a ramp), later ones as soon as a slot frees. Every conversation's seed is derived from (run
seed, user, task, condition, trial), not the agent, so two agents meet the same users.

What every player shares: the run in one process (``simulator.run.runner``), each worker
process (``simulator.run.worker``) and each Ray actor (``simulator.run.ray_actors``), the
latter two through ``order_player``; and the GC settings of a playing process
(``settle_memory``) and its event loop (``backend_options``).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sized
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import anyio
import msgspec

from tau_sim.simulator.core.condition import Condition
from tau_sim.simulator.core.conditions import INTENSITY_LEVELS, NEUTRAL, TASK_EMOTION
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.events import ConversationEnded
from tau_sim.simulator.core.registry import CalibrationAgentProvider, resolve_emotion
from tau_sim.simulator.core.roles import Agent
from tau_sim.simulator.engine.bus import Bus
from tau_sim.simulator.engine.conversation import run_conversation
from tau_sim.simulator.grid.cells import Cell, conversation_id, task_set_hash
from tau_sim.simulator.grid.config import RunConfig
from tau_sim.simulator.models.capacity import fit_connections
from tau_sim.simulator.run.checks import AnyAgentProvider, make_judge, make_providers, validate
from tau_sim.simulator.run.orders import ProgressCallback, WorkOrder
from tau_sim.simulator.world.domain import Task
from tau_sim.simulator.world.evaluation import make_evaluator
from tau_sim.simulator.world.views import (
    AnswerKey,
    ConversationContext,
    agent_view,
    answer_key,
    user_view,
)

log = logging.getLogger(__name__)


ADMISSION_INTERVAL_S = 0.0005
"""Seconds between the first admissions of a process: its slot ``k`` starts its first
conversation ``k`` intervals after the play began (a ramp of ``concurrency`` x 0.5 ms, once).

Admitted all at once, the conversations send their first model calls together and get the
answers back together; the answers queue behind each other on the event loop and the
conversations stay in step for several rounds, each round waiting on the whole batch. Spaced
by about the process's CPU per model call (0.5 to 0.65 ms in ``benchmarks/backends.py``), the
answers come back about as fast as they are handled. Measured there at 512 conversations x
1 s: 0.91 of the ideal with no ramp, 0.96 / 0.95 / 0.95 with 0.5 / 0.75 / 1 ms."""


def task_condition(cell: Cell, task: Task) -> Cell:
    """``cell`` with the task's own emotion profile when the cell plays ``--emotions task``.

    The profile's leaf, else its family's default leaf, else neutral; its intensity, else
    ``medium`` (0 for neutral); each dimension level it sets replaces the cell's. The seed stays
    the cell's. Any other cell is returned as it is.
    """
    if cell.condition.emotion != TASK_EMOTION:
        return cell
    spec = task.emotion
    if spec is None or (spec.leaf or spec.family or NEUTRAL) == NEUTRAL:
        leaf, intensity = NEUTRAL, 0.0
    else:
        leaf = resolve_emotion(spec.leaf or spec.family or NEUTRAL)
        intensity = INTENSITY_LEVELS["medium"] if spec.intensity is None else spec.intensity
    own = cell.condition
    played = Condition(
        emotion=leaf,
        intensity=intensity,
        politeness=(spec and spec.politeness) or own.politeness,
        urgency=(spec and spec.urgency) or own.urgency,
        trust=(spec and spec.trust) or own.trust,
    )
    return msgspec.structs.replace(cell, condition=played)


GC_FIRST_GENERATION = 50_000
"""Allocations between two young collections while a run plays (Python's default is 700).

Most of what a conversation allocates (requests, answers, events) is garbage within a turn;
collected every 5,000 allocations, a worker of ``benchmarks/backends.py`` at 512 x 0.2 s spent
5% of its time in the GC (335-418 ms in 7.7 s) with pauses up to 33 ms; every 50,000, 1%
(63-68 ms) and pauses up to 18 ms, its calls' latency 0.21 s against 0.22 s."""


def settle_memory() -> None:
    """Move everything loaded so far (domain bases, tool schemas) out of the GC's way.

    The domain's base records are long-lived and never garbage; freezing them spares every
    full collection from walking them, and a larger first generation means fewer collections
    while thousands of conversations allocate events (``GC_FIRST_GENERATION``).
    """
    gc.collect()
    gc.freeze()
    threshold = gc.get_threshold()
    gc.set_threshold(max(threshold[0], GC_FIRST_GENERATION), *threshold[1:])


def backend_options() -> dict[str, Any]:
    """Event-loop options for ``anyio.run``: uvloop when it is installed (about 10% less CPU)."""
    try:
        import uvloop  # noqa: F401
    except ImportError:
        return {}
    return {"use_uvloop": True}


def make_agent(
    provider: AnyAgentProvider, ctx: ConversationContext, answer_key: Callable[[Task], AnswerKey]
) -> Agent:
    """The agent of one conversation, made from its view alone.

    Only a calibration agent (a scripted profile) is also handed the task's answer key, which
    ``answer_key`` builds.
    """
    view = agent_view(ctx)
    if isinstance(provider, CalibrationAgentProvider):
        return provider.for_answer_key(view, answer_key(ctx.task))
    return provider.for_conversation(view)


class Player:
    """Plays grid cells of one run on one event loop, with one set of providers."""

    def __init__(self, config: RunConfig, run_id: str) -> None:
        self.config = config
        self.run_id = run_id
        self.domains, tasks = validate(config)
        self.tasks = {t.id: t for t in tasks}
        self.evaluators = {name: make_evaluator(d) for name, d in self.domains.items()}
        self.tasks_hash = task_set_hash(tasks)
        self.agent_providers, self.user_providers = make_providers(config)
        self.judge = make_judge(config)
        self.connection_notes = fit_connections(
            {"--agent-arg": self.agent_providers, "--user-arg": self.user_providers},
            config.concurrency,
            config.workers,
        )
        """One line per endpoint whose in-flight cap is below the run's concurrency."""
        self._answer_keys: dict[str, AnswerKey] = {}

    def _answer_key(self, task: Task) -> AnswerKey:
        """The answer key of ``task`` for calibration agents (replayed once per task)."""
        key = self._answer_keys.get(task.id)
        if key is None:
            key = self._answer_keys[task.id] = answer_key(self.domains[task.domain], task)
        return key

    def prepare(self) -> None:
        """Do the per-task work before the first conversation.

        Gold states, and answer keys when a calibration agent plays, are computed once per
        task here (the GC then freezes them with the domain's base); a gold path that fails
        is a ``UsageError`` naming the task, before anything is stored.
        """
        calibrating = any(
            isinstance(p, CalibrationAgentProvider) for p in self.agent_providers.values()
        )
        for task in self.tasks.values():
            try:
                self.evaluators[task.domain].gold_hash(task)
            except ValueError as exc:
                raise UsageError(str(exc)) from None
            if calibrating:
                self._answer_key(task)

    @property
    def providers(self) -> list[Any]:
        """Every model and user provider of the run (and the judge's model)."""
        judge = [self.judge.provider] if self.judge is not None else []
        return [*self.agent_providers.values(), *self.user_providers.values(), *judge]

    def conversation_id(self, cell: Cell) -> str:
        """The id of a cell's conversation (stable across resumes)."""
        return conversation_id(self.run_id, cell.index)

    async def play_cells(
        self,
        cells: Iterable[Cell],
        bus: Bus,
        concurrency: int,
        on_end: ProgressCallback | None = None,
    ) -> int:
        """Play ``cells`` with up to ``concurrency`` at once; returns how many completed.

        ``cells`` is consumed lazily (a generator of a million cells costs nothing up front):
        each of the ``concurrency`` slots pulls the next one when its conversation ends.
        Slot ``k`` pulls its first cell at once and starts it ``k`` admission intervals
        after the play began (``ADMISSION_INTERVAL_S``).
        """
        completed = 0
        queue = iter(cells)
        if isinstance(cells, Sized):
            concurrency = min(concurrency, max(len(cells), 1))
        began = anyio.current_time()

        async def fill_slot(slot: int) -> None:
            nonlocal completed
            for played, cell in enumerate(queue):
                if played == 0 and slot:
                    await anyio.sleep_until(began + slot * ADMISSION_INTERVAL_S)
                ended = await self._play_one(cell, bus)
                completed += 1
                if on_end is not None:
                    on_end(cell, ended)

        async with anyio.create_task_group() as slots:
            for slot in range(concurrency):
                slots.start_soon(fill_slot, slot)
        return completed

    async def _play_one(self, cell: Cell, bus: Bus) -> ConversationEnded:
        task = self.tasks[cell.task_id]
        cell = task_condition(cell, task)
        ctx = ConversationContext(
            conversation_id=self.conversation_id(cell),
            run_id=self.run_id,
            task=task,
            domain=self.domains[task.domain],
            condition=cell.condition,
            trial=cell.trial,
            seed=cell.seed,
        )
        agent = make_agent(self.agent_providers[cell.agent], ctx, self._answer_key)
        user = self.user_providers[cell.user].for_conversation(user_view(ctx))
        return await run_conversation(
            ctx,
            agent,
            cell.agent,
            user,
            cell.user,
            bus,
            self.config.limits,
            evaluator=self.evaluators[task.domain],
            judge=self.judge,
        )


@asynccontextmanager
async def open_providers(providers: list[Any]) -> AsyncIterator[None]:
    """Enter every provider in order around the block and leave them in reverse order.

    If one fails to start, those already started are left (stopped) and the error propagates.
    A failure to stop one is logged and does not stop the others or hide the run's outcome.
    Providers may open task groups of their own: entered and left in this task, last in first
    out, their scopes nest.
    """
    async with AsyncExitStack() as stack:
        for provider in providers:
            await stack.enter_async_context(_leaving_quietly(provider))
        yield


@asynccontextmanager
async def _leaving_quietly(provider: Any) -> AsyncIterator[None]:
    await provider.__aenter__()
    failure: BaseException | None = None
    try:
        yield
    except BaseException as exc:
        failure = exc
    try:
        await provider.__aexit__(
            type(failure) if failure else None,
            failure,
            failure.__traceback__ if failure else None,
        )
    except Exception:  # closing must not hide the run's own outcome
        log.warning("closing %s failed", getattr(provider, "name", provider), exc_info=True)
    if failure is not None:
        raise failure


@asynccontextmanager
async def order_player(order: WorkOrder) -> AsyncIterator[tuple[Player, Iterator[Cell]]]:
    """The prepared ``Player`` of an order and its cells, its providers open in the block.

    What every part plays with: a worker process (``simulator.run.worker``) and a Ray actor
    (``simulator.run.ray_actors``), each on its own event loop, then
    ``player.play_cells(cells, ...)``. The cells are made as they are pulled
    (``WorkOrder.cells``).
    """
    player = Player(order.config, order.run_id)
    cells = order.cells()
    player.prepare()
    settle_memory()
    async with open_providers(player.providers):
        yield player, cells
