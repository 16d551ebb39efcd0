"""The runner: a grid of agents x users x tasks x emotions x intensities x levels x trials.

Conversations are admitted up to ``concurrency`` by a fixed set of workers pulling the next
grid cell from a lazy stream (``simulator.grid.cells.pending``), and a conversation's row is written
when it is admitted, so memory and start-up stay flat whatever the grid size. The first
conversations are admitted one per ``ADMISSION_INTERVAL_S`` (a ramp), later ones as soon as a
slot frees. Every
conversation's seed is derived from (run seed, user, task, condition, trial) — not the agent,
so two agents meet the same users. A resumed run skips completed cells (known from the store as
a bitmap, ``Store.done_cells``) and re-plays the others from scratch.
"""

from __future__ import annotations

import gc
import logging
import signal
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
    Sequence,
    Sized,
)
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import anyio
import msgspec
from anyio.abc import TaskGroup

from tau_sim.simulator.core.conditions import (
    DEFAULT_LEVEL,
    DIMENSIONS,
    LEVELS,
    NEUTRAL,
    TASK_EMOTION,
    check_level,
)
from tau_sim.simulator.core.errors import OptionError, StoreError, UsageError
from tau_sim.simulator.core.events import ConversationEnded
from tau_sim.simulator.core.infra import COMPLETED_WITH_ERRORS, INFRA_REASON, run_error_share
from tau_sim.simulator.core.keys import seal_keys
from tau_sim.simulator.core.registry import (
    AgentProvider,
    CalibrationAgentProvider,
    UserProvider,
    get_domain,
    load_plugins,
    make_agent_provider,
    make_user_provider,
    resolve_emotion,
)
from tau_sim.simulator.core.roles import Agent
from tau_sim.simulator.engine.bus import Bus, LiveFeed, Subscriber
from tau_sim.simulator.engine.conversation import run_conversation
from tau_sim.simulator.engine.judging import AssertionJudge
from tau_sim.simulator.grid.cells import (
    Cell,
    CellSet,
    RunConfig,
    conversation_id,
    grid_size,
    pending,
    task_set_hash,
)
from tau_sim.simulator.models.capacity import fit_connections
from tau_sim.simulator.run.rayshards import RayShards, check_run, cluster
from tau_sim.simulator.run.shards import ProgressCallback, Shards
from tau_sim.simulator.store import Store
from tau_sim.simulator.world.domain import Domain, Task, load_tasks
from tau_sim.simulator.world.evaluation import make_evaluator
from tau_sim.simulator.world.views import (
    ConversationContext,
    OracleView,
    agent_view,
    oracle_view,
    user_view,
)

log = logging.getLogger(__name__)


def validate(config: RunConfig) -> tuple[dict[str, Domain], list[Task]]:
    """Check names and numbers before anything is stored; ``UsageError`` on the first problem."""
    load_plugins(config.domains)
    check_numbers(config)
    if not 0.0 <= config.max_error_share <= 1.0:  # also refuses NaN
        raise UsageError(
            f"--max-error-share must be between 0 and 1 (got {config.max_error_share:g})"
        )
    if not config.agents or not config.users or not config.emotions:
        raise UsageError("--agent, --user and --emotions each need at least one name")
    for flag, names, options in (
        ("--agent", config.agents, config.agent_options),
        ("--user", config.users, config.user_options),
    ):
        stray = sorted(set(options) - set(names))
        if stray:  # options nobody would read: a typo in a model name, not a silent no-op
            raise UsageError(
                f"{flag}: options are given for {', '.join(map(repr, stray))}, which the run "
                f"does not play (it plays {', '.join(names)})"
            )
    check_unique(config)
    for dimension in DIMENSIONS:
        levels: list[str | None] = getattr(config, dimension)
        if not levels:
            raise UsageError(f"--{dimension} needs at least one level")
        for level in levels:
            if level is not None:
                check_level(dimension, level, f"--{dimension}")
    domains = run_domains(config.domains)
    available = {t.id: t for t in task_pool(list(domains.values()), config.tasks_file)}
    tasks = []
    for task_id in config.tasks:
        if task_id not in available:
            where = config.tasks_file or _where(config.domains)
            raise UsageError(f"--tasks: {where} has no task {task_id!r}")
        tasks.append(available[task_id])
    if not tasks:
        raise UsageError("--tasks selects no task")
    return domains, tasks


def run_domains(names: Sequence[str]) -> dict[str, Domain]:
    """The domains ``names`` by name, each built once; unknown or repeated names are errors."""
    if not names:
        raise UsageError("--domain needs at least one domain")
    domains: dict[str, Domain] = {}
    for name in names:
        if name in domains:
            raise UsageError(f"--domain: {name!r} is given twice")
        domains[name] = get_domain(name)
    return domains


def _where(names: Sequence[str]) -> str:
    return f"domain {names[0]!r}" if len(names) == 1 else f"domains {', '.join(names)}"


ADMISSION_INTERVAL_S = 0.0005
"""Seconds between the first admissions of a process: its slot ``k`` starts its first
conversation ``k`` intervals after the play began (a ramp of ``concurrency`` x 0.5 ms, once).

Admitted all at once, the conversations send their first model calls together and get the
answers back together; the answers queue behind each other on the event loop and the
conversations stay in step for several rounds, each round waiting on the whole batch. Spaced
by about the process's CPU per model call (0.5 to 0.65 ms in ``benchmarks/backends.py``), the
answers come back about as fast as they are handled. Measured there at 512 conversations x
1 s: 0.91 of the ideal with no ramp, 0.96 / 0.95 / 0.95 with 0.5 / 0.75 / 1 ms."""

MAX_SEED = 2**63 - 1
"""The largest run seed (SQLite stores a signed 64-bit integer)."""
MAX_CELLS = 1_000_000
"""The most conversations one run may hold (split a larger grid into several runs)."""
_BOUNDS: tuple[tuple[str, str, int, int], ...] = (
    ("--concurrency", "concurrency", 1, 100_000),
    ("--workers", "workers", 1, 256),
    ("--trials", "trials", 1, MAX_CELLS),
    ("--seed", "seed", 0, MAX_SEED),
)
_LIMIT_BOUNDS: tuple[tuple[str, str, int, int], ...] = (
    ("--max-steps", "max_steps", 2, 1_000_000),
    ("--max-tool-errors", "max_tool_errors", 0, 1_000_000),
)
MAX_TIMEOUT_S = 1e7
"""The longest ``--timeout`` in seconds (about four months: a finite stand-in for "none")."""


def _check_bound(flag: str, value: int, low: int, high: int) -> None:
    if value < low:
        raise UsageError(f"{flag} must be at least {low} (got {value})")
    if value > high:
        raise UsageError(f"{flag} must be at most {high} (got {value})")


def check_numbers(config: RunConfig) -> None:
    """Every number of ``config`` within its range, and the grid within ``MAX_CELLS``."""
    for flag, field, low, high in _BOUNDS:
        _check_bound(flag, getattr(config, field), low, high)
    for flag, field, low, high in _LIMIT_BOUNDS:
        _check_bound(flag, getattr(config.limits, field), low, high)
    timeout = config.limits.timeout_s
    if not timeout > 0:  # also true for nan
        raise UsageError(f"--timeout must be positive (got {timeout:g})")
    if timeout > MAX_TIMEOUT_S:
        raise UsageError(f"--timeout must be at most {MAX_TIMEOUT_S:g} seconds (got {timeout:g})")
    size = grid_size(config)
    if size > MAX_CELLS:
        raise UsageError(
            f"the grid holds {size} conversations, more than {MAX_CELLS} per run; "
            "split it into several runs"
        )


def check_unique(config: RunConfig) -> None:
    """No grid dimension lists the same entry twice (it would copy cells at the same seed)."""
    for flag, values in (
        ("--agent", config.agents),
        ("--user", config.users),
        ("--tasks", config.tasks),
        ("--emotions", config.emotions),
        ("--intensities", config.intensities),
        *((f"--{d}", getattr(config, d)) for d in DIMENSIONS),
    ):
        seen: set[object] = set()
        for value in values:
            if value in seen:
                shown = DEFAULT_LEVEL if value is None else value
                raise UsageError(f"{flag}: {shown!r} is given twice; give each entry once")
            seen.add(value)


AnyAgentProvider = AgentProvider | CalibrationAgentProvider


def make_providers(
    config: RunConfig,
) -> tuple[dict[str, AnyAgentProvider], dict[str, UserProvider]]:
    """One provider per agent name and per user name; bad names and options are ``UsageError``.

    Each gets its own table of ``agent_options``/``user_options`` (already merged); an option
    the provider does not know, or a bad value, is an error naming the flag and the key.
    """
    agents = {
        name: _with_flag("--agent-arg", make_agent_provider, name, config.agent_options)
        for name in config.agents
    }
    users = {
        name: _with_flag("--user-arg", make_user_provider, name, config.user_options)
        for name in config.users
    }
    return agents, users


_P = TypeVar("_P")


def _with_flag(
    flag: str,
    build: Callable[[str, dict[str, Any]], _P],
    name: str,
    options: dict[str, dict[str, Any]],
) -> _P:
    """``build(name, its options)``, with the option flag named in front of an ``OptionError``.

    Providers that know their role (the scripted ones) name the flag themselves.
    """
    try:
        return build(name, options.get(name, {}))
    except OptionError as exc:
        if str(exc).startswith(flag):
            raise
        raise UsageError(f"{flag}: {exc}") from None


def task_pool(domains: Sequence[Domain], tasks_file: str | None) -> list[Task]:
    """The domains' benchmark tasks in domain order, or the tasks of a JSONL file, gold checked.

    A task file takes exactly one domain: each of its tasks must be for it, name its tools and
    argument types and have a gold path that replays on a fresh database
    (``tau_sim.simulator.world.domain.check_gold``). Task ids must be unique across the domains.
    """
    if tasks_file is not None:
        if len(domains) != 1:
            names = ", ".join(d.name for d in domains)
            raise UsageError(f"--tasks-file takes one domain (got {len(domains)}: {names})")
        return load_tasks(Path(tasks_file), domains[0])
    pool: list[Task] = []
    owner: dict[str, str] = {}
    for domain in domains:
        for task in domain.tasks:
            if task.id in owner:
                raise UsageError(
                    f"--domain: task id {task.id!r} is in both {owner[task.id]!r} and "
                    f"{domain.name!r}; run them separately"
                )
            owner[task.id] = domain.name
            pool.append(task)
    return pool


def select_tasks(pool: list[Task], spec: str | None, where: str) -> list[str]:
    """``N`` = the first N tasks of each domain; a comma-separated list of ids; None = all."""
    if spec is None:
        return [t.id for t in pool]
    spec = spec.strip()
    if spec.isdigit():
        n = int(spec)
        if n < 1:
            raise UsageError("--tasks must select at least one task")
        by_domain: dict[str, list[Task]] = {}
        for task in pool:
            by_domain.setdefault(task.domain, []).append(task)
        selected: list[str] = []
        for name, tasks in by_domain.items():
            if n > len(tasks):
                place = where if len(by_domain) == 1 else f"domain {name!r}"
                raise UsageError(f"--tasks {n}: {place} has {len(tasks)} tasks")
            selected.extend(t.id for t in tasks[:n])
        return selected
    ids = [t.strip() for t in spec.split(",") if t.strip()]
    known = {t.id for t in pool}
    for task_id in ids:
        if task_id not in known:
            raise UsageError(f"--tasks: {where} has no task {task_id!r}")
    return ids


def normalize_emotions(names: list[str], *, dedupe: bool = True) -> list[str]:
    """Canonical leaf names, in order; without duplicates unless ``dedupe`` is False.

    A family name stands for its default leaf; ``task`` (each task's own profile) stays.
    """
    out: list[str] = []
    for name in names:
        leaf = name if name in (NEUTRAL, TASK_EMOTION) else resolve_emotion(name)
        if leaf not in out or not dedupe:
            out.append(leaf)
    return out


def task_condition(cell: Cell, task: Task) -> Cell:
    """``cell`` with the task's own emotion profile when the cell plays ``--emotions task``.

    The profile's leaf, else its family's default leaf, else neutral; its intensity, else
    ``medium`` (0 for neutral); each dimension level it sets replaces the cell's. The seed stays
    the cell's. Any other cell is returned as it is.
    """
    if cell.emotion != TASK_EMOTION:
        return cell
    spec = task.emotion
    if spec is None or (spec.leaf or spec.family or NEUTRAL) == NEUTRAL:
        leaf, intensity = NEUTRAL, 0.0
    else:
        leaf = resolve_emotion(spec.leaf or spec.family or NEUTRAL)
        intensity = LEVELS["medium"] if spec.intensity is None else spec.intensity
    return msgspec.structs.replace(
        cell,
        emotion=leaf,
        intensity=intensity,
        politeness=(spec and spec.politeness) or cell.politeness,
        urgency=(spec and spec.urgency) or cell.urgency,
        trust=(spec and spec.trust) or cell.trust,
    )


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
    provider: AnyAgentProvider, ctx: ConversationContext, oracle: Callable[[Task], OracleView]
) -> Agent:
    """The agent of one conversation, made from its view alone.

    Only a calibration agent (a scripted profile) is also handed the task's answer key, which
    ``oracle`` builds.
    """
    view = agent_view(ctx)
    if isinstance(provider, CalibrationAgentProvider):
        return provider.for_oracle(view, oracle(ctx.task))
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
        self._oracles: dict[str, OracleView] = {}

    def _oracle(self, task: Task) -> OracleView:
        """The answer key of ``task`` for calibration agents (replayed once per task)."""
        oracle = self._oracles.get(task.id)
        if oracle is None:
            oracle = self._oracles[task.id] = oracle_view(self.domains[task.domain], task)
        return oracle

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
                self._oracle(task)

    @property
    def providers(self) -> list[Any]:
        """Every model and user provider of the run (and the judge's model)."""
        judge = [self.judge.provider] if self.judge is not None else []
        return [*self.agent_providers.values(), *self.user_providers.values(), *judge]

    def conversation_id(self, cell: Cell) -> str:
        """The id of a cell's conversation (stable across resumes)."""
        return conversation_id(self.run_id, cell.index)

    async def play(
        self,
        cells: Iterable[Cell],
        bus: Bus,
        concurrency: int,
        on_end: ProgressCallback | None = None,
    ) -> int:
        """Play ``cells`` with up to ``concurrency`` at once; returns how many completed.

        ``cells`` is consumed lazily (a generator of a million cells costs nothing up front):
        each of the ``concurrency`` workers pulls the next one when its conversation ends.
        Worker ``k`` pulls its first cell at once and starts it ``k`` admission intervals
        after the play began (``ADMISSION_INTERVAL_S``).
        """
        completed = 0
        queue = iter(cells)
        if isinstance(cells, Sized):
            concurrency = min(concurrency, max(len(cells), 1))
        began = anyio.current_time()

        async def worker(slot: int) -> None:
            nonlocal completed
            for played, cell in enumerate(queue):
                if played == 0 and slot:
                    await anyio.sleep_until(began + slot * ADMISSION_INTERVAL_S)
                ended = await self._play_one(cell, bus)
                completed += 1
                if on_end is not None:
                    on_end(cell, ended)

        async with anyio.create_task_group() as workers:
            for slot in range(concurrency):
                workers.start_soon(worker, slot)
        return completed

    async def _play_one(self, cell: Cell, bus: Bus) -> ConversationEnded:
        task = self.tasks[cell.task_id]
        cell = task_condition(cell, task)
        ctx = ConversationContext(
            conversation_id=self.conversation_id(cell),
            run_id=self.run_id,
            task=task,
            domain=self.domains[task.domain],
            emotion=cell.emotion,
            intensity=cell.intensity,
            trial=cell.trial,
            seed=cell.seed,
            politeness=cell.politeness,
            urgency=cell.urgency,
            trust=cell.trust,
        )
        agent = make_agent(self.agent_providers[cell.agent], ctx, self._oracle)
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


def make_judge(config: RunConfig) -> AssertionJudge | None:
    """The run's judge of natural-language assertions (``--judge``), or None."""
    if config.judge is None:
        return None
    try:
        return AssertionJudge(config.judge, config.judge_options)
    except OptionError as exc:
        raise UsageError(f"--judge-arg: {exc}") from None


class Runner:
    """Plays the pending cells of one run into a store, in this process or in worker processes.

    With ``create`` the run's row is written once the providers have started, so a model that
    cannot start (a missing key, an unreachable endpoint) leaves nothing behind.

    Without ``create`` the run exists already (``--resume``): its stored task-set hash must
    match the tasks ``config`` selects now, or nothing is touched (``UsageError``). Literal
    API keys in ``config`` are sealed into the environment first (``simulator.core.keys``), so
    neither the stored config nor a worker's order holds one.

    A resume plays again the cells whose conversation an endpoint ended (``infra_error``: their
    conversations and events are deleted first), unless ``keep_errors``. A run that ends with
    such conversations stored is ``completed_with_errors``, not ``completed``.

    ``player`` is one already made (and prepared) for the same sealed ``config``: the CLI
    checks a new run that way before it opens the store.

    With ``config.workers > 1`` the cells are dealt round-robin to that many worker processes
    (``python -m tau_sim.simulator.run.worker``), each with its own event loop and providers; their events
    stream back over pipes and this process alone writes the store. With ``config.ray`` they
    are dealt to that many Ray actors instead (``tau_sim.simulator.run.rayshards``), the same way.
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
        config = seal_keys(config)
        self.store = store
        self.config = config
        self.run_id = run_id
        self.on_end = on_end
        self.feed = feed
        self.create = create
        self.on_start = on_start
        self.keep_errors = keep_errors
        self.total = grid_size(config)
        self.player = player or Player(config, run_id)
        self.player.prepare()
        if not create:
            self._check_task_set()
        if config.ray is not None:
            check_run(config, self.player.providers)
        elif config.workers > 1:
            for provider in self.player.providers:
                if getattr(provider, "launches_servers", False):
                    raise UsageError(
                        f"--workers {config.workers}: {provider.name} starts its own servers; "
                        "start them once and pass base_url=..., or use --workers 1"
                    )
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
            where = self.config.tasks_file or _where(self.config.domains)
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
        is a ``StoreError`` too.
        """
        providers = self.player.providers
        if self.config.workers > 1 or self.config.ray is not None:
            async with open_providers(providers):  # only a check here: each shard starts its own
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
                if self.create:
                    config_json = msgspec.json.encode(self.config).decode()
                    self.store.create_run(
                        self.run_id,
                        self.config.seed,
                        config_json,
                        self.total,
                        tasks_hash=self.player.tasks_hash,
                    )
                self.created = True
                completed = await self._play(outer)
        except BaseException:
            if self.created:
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
        if self.status == "completed" and run_error_share(self.store.db, self.run_id).errors:
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
            self.store.discard_reason(self.run_id, INFRA_REASON)
        done = self.done_cells()
        if self.on_start is not None:
            self.on_start(len(done))
        subscribers: list[Subscriber] = [self.store]
        if self.feed is not None:
            subscribers.append(self.feed)
        bus = Bus(subscribers)
        sharding = RayShards if self.config.ray is not None else Shards
        shards = (
            sharding(self.config, self.run_id, done, bus, self.on_end)
            if self.config.workers > 1 or self.config.ray is not None
            else None
        )
        cells = pending(self.config, done)
        settle_memory()
        self.store.claim_run(self.run_id)
        outer.start_soon(self.store.run_writer)
        self._stop = anyio.Event()
        if self._stop_requested:
            self._stop.set()
        try:
            if shards is not None:
                # workers send what they finished, then exit
                completed, self.interrupted = await until_signal(
                    shards.run, shards.interrupt, stop=self._stop
                )
            else:
                concurrency = min(self.config.concurrency, max(self.total - len(done), 1))
                completed, self.interrupted = await until_signal(
                    lambda: self.player.play(cells, bus, concurrency, self.on_end),
                    stop=self._stop,
                )
        finally:
            with anyio.CancelScope(shield=True):
                await self.store.close()
        return completed


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
