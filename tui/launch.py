"""Start the TUI: on a run played in this process, or attached to a stored run.

``tau-sim tui`` (``tui.commands.run_tui``) checks its options the way ``tau-sim run`` does,
then calls ``watch_run`` or ``attach`` here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tau_sim.simulator.engine import LiveFeed
from tau_sim.simulator.grid import RunConfig
from tau_sim.simulator.run import Player, Runner
from tau_sim.simulator.store import Store
from tau_sim.tui.app import TauSimApp, innermost
from tau_sim.tui.sources import LiveSource, StoreSource, kept_history


@dataclass(slots=True)
class Outcome:
    """How a TUI session ended: the run, its status, and whether it was stopped."""

    run_id: str
    status: str
    interrupted: bool
    created: bool
    error: BaseException | None = None
    config: RunConfig | None = None
    """The run's config as played (keys sealed)."""
    crash: BaseException | None = None
    """An error of the screen itself (the run was stopped and is resumable)."""
    total: int = 0
    """The conversations the run plays in all (0: not known, a stored run only watched)."""


def live_source(
    store: Store,
    config: RunConfig,
    run_id: str,
    player: Player | None = None,
    *,
    resume: bool = False,
    keep_errors: bool = False,
) -> LiveSource:
    """A source that plays a run into ``store``.

    A new one (checked and prepared in ``player``), or with ``resume`` the rest of a stored
    one, whose kept conversations are shown first.
    """

    def make_runner(feed: LiveFeed, on_start: object) -> Runner:
        return Runner(
            store,
            config,
            run_id,
            feed=feed,
            create=not resume,
            on_start=on_start,  # type: ignore[arg-type]
            keep_errors=keep_errors,
            player=player,
        )

    history = kept_history(store.db, run_id, keep_errors=keep_errors) if resume else None
    return LiveSource(make_runner, run_id, store.path, history=history)


def watch_run(
    store: Store,
    config: RunConfig,
    run_id: str,
    player: Player | None = None,
    *,
    resume: bool = False,
    keep_errors: bool = False,
) -> Outcome:
    """Play a new run (or ``resume`` a stored one) under the TUI until the person quits."""
    source = live_source(store, config, run_id, player, resume=resume, keep_errors=keep_errors)
    app = TauSimApp(source)
    app.run()
    runner = source.runner
    return Outcome(
        run_id,
        runner.status or source.info.status,
        runner.interrupted,
        runner.created,
        source.error,
        runner.config,
        app.crash,
        runner.total,
    )


def attach(db: str | Path, run_id: str | None) -> Outcome:
    """Follow (or browse) a stored run; ``UsageError``: no such database or run."""
    source = StoreSource(db, run_id)
    app = TauSimApp(source)
    app.run()
    return Outcome(source.info.run_id, source.info.status, False, False, crash=app.crash)


def crash_line(crash: BaseException, resume: str | None) -> str:
    """The one line a command prints when its screen failed (``resume``: the command to go on)."""
    line = f"tau-sim: the screen failed: {type(crash).__name__}: {innermost(crash)}"
    line = " ".join(line.split())
    return f"{line}; resume with: {resume}" if resume else line
