"""``tau-sim human``: the run a person plays, checked before the screen opens.

``human_settings`` turns the command's options into the settings ``tau-sim run`` would take
(one agent, one user, one trial, one conversation at a time, the tasks chosen or drawn), so
the session is an ordinary run: stored, scored, reported and resumed like any other;
``session_config`` makes them a ``RunConfig`` (for the command, and for the start screen's
check of a choice: ``tui.start``).
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from tau_sim.simulator.cli import config_from_settings
from tau_sim.simulator.core import UsageError
from tau_sim.simulator.grid import RunConfig
from tau_sim.simulator.run import Player
from tau_sim.simulator.store import Store
from tau_sim.simulator.world import run_domains, task_pool
from tau_sim.tui.human import HumanApp
from tau_sim.tui.launch import Outcome, live_source
from tau_sim.tui.session_defaults import (
    DEFAULT_AGENT,
    DEFAULT_EMOTION,
    DEFAULT_INTENSITY,
    DEFAULT_USER,
)
from tau_sim.users.human import HUMAN, Desk

ROLES = ("user", "agent")
"""What the person plays."""
HUMAN_TIMEOUT_S = 3600.0
"""Seconds per conversation: a person types far slower than a model answers."""
RANDOM = "random"


def human_settings(
    role: str,
    *,
    agent: str | None,
    user: str | None,
    domain: str | None,
    task: str,
    tasks: int,
    seed: int,
) -> dict[str, Any]:
    """The run settings of a session (``configure_run``'s layer of given flags).

    ``task`` is a task id (or several, comma-separated) or ``random``: ``tasks`` ids drawn
    with ``seed`` from the domain's tasks. Unknown ids, roles and counts are ``UsageError``.
    """
    if role not in ROLES:
        raise UsageError(f"--role: {role!r} is not a role (choose from {', '.join(ROLES)})")
    if tasks < 1:
        raise UsageError("--tasks must be at least 1")
    domains = [domain] if domain else RunConfig().domains
    pool = task_pool(list(run_domains(domains).values()), None)
    ids = [t.id for t in pool]
    if task.strip().lower() == RANDOM:
        if tasks > len(ids):
            raise UsageError(f"--tasks: {tasks} asked, the domain has {len(ids)} tasks")
        chosen = random.Random(seed).sample(ids, tasks)
    else:
        chosen = [t.strip() for t in task.split(",") if t.strip()]
        unknown = [t for t in chosen if t not in ids]
        if unknown or not chosen:
            raise UsageError(
                f"--task: unknown task {(unknown or [task])[0]!r} in domain {domains[0]!r} "
                f"(e.g. {', '.join(ids[:3])}, or {RANDOM})"
            )
    if role == "user":
        if agent == HUMAN:
            raise UsageError("--agent: the person plays the user; choose another agent")
        players = {"agent": agent or DEFAULT_AGENT, "user": HUMAN}
    else:
        if user == HUMAN:
            raise UsageError("--user: the person plays the agent; choose another user")
        players = {"agent": HUMAN, "user": user or DEFAULT_USER}
    return {
        "domain": ",".join(domains),
        "tasks": ",".join(chosen),
        **players,
        "trials": 1,
        "concurrency": 1,
        "workers": 1,
        "seed": seed,
        "timeout": HUMAN_TIMEOUT_S,
    }


def session_config(args: argparse.Namespace) -> RunConfig:
    """The run config of a new session from ``tau-sim human``'s options (``UsageError``: bad).

    Options left out take their defaults: the user role, a random task, anger at high.
    """
    settings = human_settings(
        args.role or "user",
        agent=args.agent,
        user=args.user,
        domain=args.domain,
        task=args.task or RANDOM,
        tasks=1 if args.tasks is None else args.tasks,
        seed=args.seed,
    )
    settings["emotions"] = args.emotions or DEFAULT_EMOTION
    settings["intensities"] = args.intensities or DEFAULT_INTENSITY
    return config_from_settings(settings, None, {}, {})


def role_of(config: RunConfig) -> str:
    """Which side the person plays in a session's config (``UsageError``: not a session)."""
    if config.users == [HUMAN]:
        return "user"
    if config.agents == [HUMAN]:
        return "agent"
    raise UsageError("--resume: this run is not a `tau-sim human` session (use `tau-sim run`)")


def desk_of(player: Player, role: str) -> Desk:
    """The desk of the session's human provider."""
    provider = player.user_providers[HUMAN] if role == "user" else player.agent_providers[HUMAN]
    desk = getattr(provider, "desk", None)
    assert isinstance(desk, Desk)  # the human kinds carry one
    return desk


def make_app(
    store: Store,
    config: RunConfig,
    run_id: str,
    player: Player | None = None,
    *,
    resume: bool = False,
) -> HumanApp:
    """The app of a new session (``player`` checked and prepared) or of the rest of one."""
    role = role_of(config)
    source = live_source(store, config, run_id, player, resume=resume)
    return HumanApp(source, desk_of(source.runner.player, role), role)


def run_session(app: HumanApp, *, headless: bool = False) -> Outcome:
    """Run the screen until the person quits; how the session ended (``headless``: tests)."""
    app.run(headless=headless)
    runner = app.source.runner
    return Outcome(
        runner.run_id,
        runner.status or app.source.info.status,
        runner.interrupted,
        runner.created,
        app.source.error,
        runner.config,
        app.crash,
        runner.total,
    )
