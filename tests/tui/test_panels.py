"""The dashboard's panels as a person reads them, on the real app with real stores: the early
terminations follow the newest, the filter says what it cannot read, the sort is marked."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_sim.tui.app import TauSimApp
from tau_sim.tui.sources import StoreSource
from tests.tui.runs import aplayed, live_app, retail, until

pytestmark = pytest.mark.anyio


async def test_early_terminations_follow_the_newest_until_scrolled_up(tmp_path: Path) -> None:
    db = tmp_path / "early.db"
    config = retail(tasks=20, agents=("scripted/over-asker",), emotions=("frustration",))
    app = live_app(db, config)
    async with app.run_test(size=(120, 40)) as pilot:
        panel = app.dashboard.terminations
        await until(pilot, lambda: panel.option_count >= 8)  # more than the panel shows
        await until(pilot, lambda: panel.max_scroll_y > 0 and panel.scroll_y == panel.max_scroll_y)
        panel.scroll_home(animate=False)
        await until(pilot, lambda: app.settled)
        await pilot.pause(0.2)
        assert panel.scroll_y == 0  # scrolled up by the person: left there
    assert panel.option_count == app.state.abandoned + sum(
        s.status == "error" for s in app.state.conversations.values()
    )


async def test_a_finished_runs_terminations_open_at_the_newest(tmp_path: Path) -> None:
    db = tmp_path / "browse.db"
    await aplayed(db, retail(tasks=20, agents=("scripted/over-asker",), emotions=("frustration",)))
    app = TauSimApp(StoreSource(db, "tui-run"), clock=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.settled)
        panel = app.dashboard.terminations
        await until(pilot, lambda: panel.max_scroll_y > 0)
        await until(pilot, lambda: panel.scroll_y == panel.max_scroll_y)
        assert panel.border_subtitle == f"{app.state.abandoned} so far"
