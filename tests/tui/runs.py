"""Real scripted retail runs for the TUI tests: configs, a played store, a live app."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import anyio
from textual.widgets import DataTable

from tau_sim.simulator.grid import RunConfig
from tau_sim.simulator.run import Player, Runner
from tau_sim.simulator.store import Store, open_database
from tau_sim.tui.app import TauSimApp
from tau_sim.tui.launch import live_source


def retail(
    tasks: int = 3,
    agents: tuple[str, ...] = ("scripted/gold", "scripted/over-asker"),
    emotions: tuple[str, ...] = ("frustration", "neutral"),
    intensities: tuple[float, ...] = (0.9,),
    trials: int = 1,
    concurrency: int = 8,
    latency: float = 0.0,
) -> RunConfig:
    """A grid of scripted agents and the scripted user on the first retail tasks.

    ``latency``: seconds each scripted turn waits, as a model would.
    """
    slow = {"latency": str(latency)} if latency else {}
    return RunConfig(
        domains=["retail"],
        tasks=[f"retail-{i:03d}" for i in range(tasks)],
        agents=list(agents),
        emotions=list(emotions),
        intensities=list(intensities),
        trials=trials,
        concurrency=concurrency,
        agent_options={agent: dict(slow) for agent in agents},
        user_options={"scripted": dict(slow)},
    )


def live_app(db: Path, config: RunConfig, run_id: str = "tui-run") -> TauSimApp:
    """The TUI on a new run of ``config`` played in this process into ``db``."""
    player = Player(config, run_id)
    player.prepare()
    return TauSimApp(live_source(Store(db), config, run_id, player), clock=None)


def played(db: Path, config: RunConfig, run_id: str = "tui-run") -> None:
    """Play ``config`` to its end into ``db`` (no TUI)."""
    store = Store(db)
    anyio.run(Runner(store, config, run_id, create=True).run)
    store.close_sync()


async def aplayed(db: Path, config: RunConfig, run_id: str = "tui-run") -> None:
    """``played`` inside a running event loop."""
    store = Store(db)
    await Runner(store, config, run_id, create=True).run()
    store.close_sync()


def stored_counts(db: Path, run_id: str) -> dict[str, int]:
    """What the store holds for a run: completed, successes, abandoned."""
    conn = open_database(db, readonly=True)
    row = conn.execute(
        "select count(*), coalesce(sum(reward >= 1.0 - 1e-6), 0), "
        "coalesce(sum(reason = 'user_abandoned'), 0) from conversations "
        "where run_id = ? and status = 'completed'",
        [run_id],
    ).fetchone()
    conn.conn.close()
    return {"completed": row[0], "successes": row[1], "abandoned": row[2]}


async def until(pilot: object, done: object, within: float = 120.0) -> None:
    """Let the app run until ``done()`` holds.

    ``within`` only guards against a hang (a failed assertion after that many seconds): it is
    no expectation of speed, so it is far above what any state takes on a loaded 2-core machine
    (an 80-conversation run took more than 8 s there).
    """
    deadline = time.monotonic() + within
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out waiting for the app"
        await pilot.pause(0.05)  # type: ignore[attr-defined]


async def opened(pilot: object) -> None:
    """Wait until a conversation screen is on top and shows its events."""
    from tau_sim.tui.screens import ConversationScreen

    app = pilot.app  # type: ignore[attr-defined]
    await until(pilot, lambda: isinstance(app.screen, ConversationScreen) and app.screen.shown)
    await pilot.pause(0.1)  # type: ignore[attr-defined]


def tables_sized(pilot: Any) -> bool:
    """Whether no table on the screen has rows or cells left to measure.

    A ``DataTable`` sizes its columns when its message queue is idle; on a loaded machine that
    can come after two screenshots 0.1 s apart agreed.
    """
    return not any(
        table._require_update_dimensions or table._new_rows or table._updated_cells
        for table in pilot.app.screen.query(DataTable)
    )


def newest_shown(pilot: Any) -> bool:
    """Whether the dashboard's early terminations are laid out at their newest entry.

    The panel's anchor scrolls it when the compositor lays it out; a screenshot waits for
    that state rather than for a time.
    """
    panel = pilot.app.dashboard.terminations
    return bool(panel.following and panel.scroll_y == panel.max_scroll_y)
