"""The TUI's start-up order and its crashes, on the real app with real SQLite files: the run
starts only once the screen is laid out, and an error of the screen stops the run resumable,
with one line and exit 1 (no traceback)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from tau_sim.simulator.core import Event
from tau_sim.simulator.grid import decode_config
from tau_sim.simulator.store import Store, open_database
from tau_sim.tui.launch import crash_line
from tau_sim.tui.session import make_app, run_session
from tau_sim.tui.sources import RunInfo
from tau_sim.tui.state import Changes
from tests.tui.runs import live_app, retail, stored_counts, until
from tests.tui.test_human import SIZE, my_turn, session

pytestmark = pytest.mark.anyio


class Boom(RuntimeError):
    """The error the tests make the screen raise."""


def status(db: Path) -> str:
    data = open_database(db, readonly=True)
    found = str(next(data.query("select status from runs"))["status"])
    data.conn.close()
    return found


async def test_the_run_starts_only_once_the_screen_is_laid_out(tmp_path: Path) -> None:
    """In the agent role the user speaks first: its message must find the dialogue mounted."""
    app = session(tmp_path / "order.db", role="agent")
    screen = app.screen_of
    seen: list[tuple[bool, bool]] = []
    follow = app.source.follow

    async def recorded() -> None:
        seen.append((screen.ready, screen.dialogue.is_mounted))
        await follow()

    app.source.follow = recorded  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await my_turn(pilot)
        assert seen == [(True, True)]
        await until(pilot, lambda: len(screen.dialogue.children) >= 1)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.done)
    assert status(tmp_path / "order.db") == "interrupted"


def test_a_crash_of_the_screen_stops_the_run_resumable_and_exits_1(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    app = session(db, role="agent")
    screen = app.screen_of

    def broken(events: list[Event]) -> None:
        raise Boom("the dialogue [red]broke[/red]\nin two lines")

    screen.dialogue.add_events = broken  # type: ignore[method-assign]
    outcome = run_session(app, headless=True)
    assert isinstance(outcome.crash, Boom)
    assert app.return_code == 1
    assert outcome.created and outcome.interrupted and outcome.total == 1
    assert status(db) == "interrupted"
    line = crash_line(outcome.crash, f"tau-sim human --resume {outcome.run_id} --db {db}")
    assert "\n" not in line and "broke" in line and "--resume human-run" in line


def test_a_crashed_session_resumes(tmp_path: Path) -> None:
    db = tmp_path / "again.db"
    app = session(db, role="agent")

    def broken(events: list[Event]) -> None:
        raise Boom("the dialogue broke")

    app.screen_of.dialogue.add_events = broken  # type: ignore[method-assign]
    run_session(app, headless=True)
    store = Store(db, create=False)
    config = decode_config(next(store.db.query("select config from runs"))["config"])
    again = make_app(store, config, "human-run", resume=True)

    async def resumed() -> None:
        async with again.run_test(size=SIZE) as pilot:
            screen: Any = await my_turn(pilot)
            assert screen.started == 1
            assert status(db) == "running"
            await pilot.press("ctrl+q")
            await until(pilot, lambda: again.done)

    anyio.run(resumed)
    assert status(db) == "interrupted"


def test_a_crash_of_the_dashboard_stops_its_run_resumable(tmp_path: Path) -> None:
    db = tmp_path / "dash.db"
    app = live_app(db, retail(tasks=10, trials=2, latency=0.05))  # 80 conversations, some s
    show = app.dashboard.show

    def broken(info: RunInfo, changes: Changes, *, table: bool = True) -> None:
        if app.state.ended:
            raise Boom("the dashboard broke")
        show(info, changes, table=table)

    app.dashboard.show = broken  # type: ignore[method-assign]
    app.run(headless=True, size=(120, 40))
    assert isinstance(app.crash, Boom) and app.return_code == 1
    assert app.source.runner.interrupted
    assert status(db) == "interrupted"
    assert 1 <= stored_counts(db, "tui-run")["completed"] < 80
