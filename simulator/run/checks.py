"""Checking a run before anything is stored: names, numbers, tasks, providers and the judge.

``validate`` refuses a ``RunConfig`` that could not play (``UsageError`` on the first problem);
``make_providers`` and ``make_judge`` build its models, a bad name or option also a
``UsageError`` naming its flag. ``normalize_emotions`` turns the command line's emotion list
into the config's (its tasks: ``simulator.world.pool``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import msgspec

from tau_sim.simulator.core.conditions import (
    DEFAULT_LEVEL,
    DIMENSIONS,
    NEUTRAL,
    TASK_EMOTION,
    check_level,
)
from tau_sim.simulator.core.errors import OptionError, UsageError
from tau_sim.simulator.core.registry import (
    AgentProvider,
    CalibrationAgentProvider,
    UserProvider,
    load_plugins,
    make_agent_provider,
    make_user_provider,
    resolve_emotion,
)
from tau_sim.simulator.engine.judging import AssertionJudge
from tau_sim.simulator.grid.cells import grid_size
from tau_sim.simulator.grid.config import RunConfig
from tau_sim.simulator.world.domain import Domain, Task
from tau_sim.simulator.world.pool import domains_named, run_domains, task_pool


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
    pool = task_pool(list(domains.values()), config.tasks_file, replay=config.tasks)
    available = {t.id: t for t in pool}
    tasks = []
    for task_id in config.tasks:
        if task_id not in available:
            where = config.tasks_file or domains_named(config.domains)
            raise UsageError(f"--tasks: {where} has no task {task_id!r}")
        tasks.append(available[task_id])
    if not tasks:
        raise UsageError("--tasks selects no task")
    return domains, tasks


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
    if size == 0:  # an empty list: a run of no conversations would be stored as completed
        raise UsageError(
            f"the grid holds no conversations: {_empty_list(config)} lists nothing; "
            "give at least one entry"
        )
    if size > MAX_CELLS:
        raise UsageError(
            f"the grid holds {size} conversations, more than {MAX_CELLS} per run; "
            "split it into several runs"
        )


def _empty_list(config: RunConfig) -> str:
    """The flag of the first empty grid dimension of ``config`` (one of them is)."""
    return next(flag for flag, values in _grid_lists(config) if not values)


def _grid_lists(config: RunConfig) -> tuple[tuple[str, Sequence[object]], ...]:
    """Each grid dimension of ``config`` with the flag that sets it."""
    return (
        ("--agent", config.agents),
        ("--user", config.users),
        ("--tasks", config.tasks),
        ("--emotions", config.emotions),
        ("--intensities", config.intensities),
        *((f"--{d}", getattr(config, d)) for d in DIMENSIONS),
    )


def check_unique(config: RunConfig) -> None:
    """No grid dimension lists the same entry twice (it would copy cells at the same seed)."""
    for flag, values in _grid_lists(config):
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
    _check_aliases(agents, config.agent_options)
    return agents, users


def _check_aliases(agents: dict[str, AnyAgentProvider], options: dict[str, Any]) -> None:
    """No two ``--agent`` names that are one agent with the same options.

    ``scripted/gold`` and its alias ``scripted/oracle`` would play the same cells twice under
    two names. A provider says which agent it is by its ``canonical`` name (its own name where
    it has none).
    """
    seen: dict[tuple[str, bytes], str] = {}
    for name, provider in agents.items():
        canonical = getattr(provider, "canonical", name)
        key = (canonical, msgspec.json.encode(options.get(name, {}), order="sorted"))
        if key in seen:
            raise UsageError(
                f"--agent: {seen[key]!r} and {name!r} are the same agent ({canonical}); "
                "give each agent once"
            )
        seen[key] = name


_P = TypeVar("_P")


def _with_flag(
    flag: str,
    build: Callable[[str, dict[str, Any]], _P],
    name: str,
    options: dict[str, dict[str, Any]],
) -> _P:
    """``build(name, its options)``, with the option flag named in front of an ``OptionError``.

    Providers that know their role (the scripted ones) name the flag themselves. The error
    raised carries ``flag`` and ``model`` (``OptionError``) for the CLI to say where a run
    file set the key.
    """
    try:
        return build(name, options.get(name, {}))
    except OptionError as exc:
        raise _located(exc, flag, name) from None


def _located(exc: OptionError, flag: str, model: str) -> OptionError:
    """``exc`` with ``flag`` in front (unless it names it already), its flag and model set."""
    error = exc if str(exc).startswith(flag) else OptionError(f"{flag}: {exc}", exc.key, exc.reason)
    error.flag, error.model = flag, model
    return error


def make_judge(config: RunConfig) -> AssertionJudge | None:
    """The run's judge of natural-language assertions (``--judge``), or None."""
    if config.judge is None:
        return None
    try:
        return AssertionJudge(config.judge, config.judge_options)
    except OptionError as exc:
        raise _located(exc, "--judge-arg", config.judge) from None


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
