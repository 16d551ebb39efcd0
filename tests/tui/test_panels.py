"""The dashboard's panels as a person reads them, on the real app with real stores: the early
terminations follow the newest, the filter says what it cannot read, the sort is marked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from tau_sim.simulator.core import resolve_emotion
from tau_sim.tui.app import TauSimApp
from tau_sim.tui.sources import StoreSource
from tau_sim.tui.widgets import Terminations
from tests.tui.runs import aplayed, live_app, retail, until

pytestmark = pytest.mark.anyio


def at_end(panel: Terminations) -> bool:
    """Whether the panel overflows and shows its newest entry."""
    return panel.max_scroll_y > 0 and panel.scroll_y == panel.max_scroll_y


async def test_early_terminations_follow_the_newest_until_scrolled_up(tmp_path: Path) -> None:
    """Followed while at the end; left where the person scrolled it while new ones come;
    followed again once scrolled back to the end (issue 23, defect 4)."""
    config = retail(
        tasks=40,
        agents=("scripted/over-asker",),
        emotions=("frustration",),
        concurrency=4,
        latency=0.05,  # about four early terminations a second
    )
    app = live_app(tmp_path / "early.db", config)
    async with app.run_test(size=(120, 40)) as pilot:
        panel = app.dashboard.terminations
        await until(pilot, lambda: panel.option_count >= 8)  # more than the panel shows
        await until(pilot, lambda: at_end(panel))
        panel.scroll_home(animate=False)
        count = panel.option_count
        await until(pilot, lambda: panel.option_count >= count + 2, within=20)
        await pilot.pause()
        assert panel.scroll_y == 0 and not panel.following  # left where the person put it

        panel.scroll_end(animate=False)
        await until(pilot, lambda: panel.following)
        count = panel.option_count
        await until(pilot, lambda: panel.option_count >= count + 2, within=20)
        await until(pilot, lambda: at_end(panel))  # the newest again
        await pilot.press("ctrl+c")
        await until(pilot, lambda: app.settled, within=30)
    assert panel.option_count == app.state.abandoned + sum(
        s.status == "error" for s in app.state.conversations.values()
    )


async def test_early_terminations_follow_after_the_screen_was_too_small(tmp_path: Path) -> None:
    """Hidden at 80x24 the panel has no size; once shown it still shows the newest (it used
    to keep showing the first ones, as if scrolled up)."""
    config = retail(tasks=40, agents=("scripted/over-asker",), emotions=("frustration",))
    app = live_app(tmp_path / "small.db", config)
    async with app.run_test(size=(80, 24)) as pilot:
        panel = app.dashboard.terminations
        await until(pilot, lambda: panel.option_count >= 8)
        assert app.dashboard.too_small
        await pilot.resize_terminal(120, 40)
        await until(pilot, lambda: app.settled, within=30)
        await until(pilot, lambda: at_end(panel))
        assert panel.following


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


async def type_filter(pilot: Any, text: str) -> None:
    await pilot.press("slash")
    pilot.app.dashboard.query_one("#filter", Input).value = ""
    for key in text:
        await pilot.press({":": "colon", " ": "space"}.get(key, key))
    await pilot.press("enter")


async def test_filter_by_family_unknown_values_and_the_sort_mark(tmp_path: Path) -> None:
    db = tmp_path / "anger.db"
    anger = resolve_emotion("anger")  # what `--emotions anger` plays: the family's default leaf
    app = live_app(db, retail(tasks=3, agents=("scripted/gold",), emotions=(anger, "neutral")))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.settled)
        table = app.dashboard.table
        notice = app.dashboard.query_one("#filter-notice", Static)
        leaves = {s.emotion for s in app.state.conversations.values()} - {"neutral"}
        assert leaves and "anger" not in leaves  # the rows name the leaf, not the family

        await type_filter(pilot, "emotion:anger")
        await until(pilot, lambda: table.row_count == 3)
        assert {str(table.get_row_at(i)[3]) for i in range(3)} == leaves
        assert not notice.has_class("-shown")

        await type_filter(pilot, "status:bogus")
        await until(pilot, lambda: notice.has_class("-shown"))
        assert table.row_count == 0
        said = str(notice.render())
        assert "status:bogus is no status" in said and "passed" in said and "\n" not in said
        await type_filter(pilot, "task:retail-999")
        await until(
            pilot, lambda: "no conversation matches task:retail-999" in str(notice.render())
        )
        await pilot.press("escape")
        await until(pilot, lambda: not notice.has_class("-shown") and table.row_count == 6)

        await pilot.press("s", "s")  # id, then turns... the second column: status
        await until(pilot, lambda: table.sort_column == "status")
        labels = {str(c.label) for c in table.columns.values()}
        assert "status ▲" in labels and "# ▲" not in labels
        before = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        await pilot.press("S")
        await until(pilot, lambda: table.sort_reverse)
        assert "status ▼" in {str(c.label) for c in table.columns.values()}
        after = [str(table.get_row_at(i)[0]) for i in range(table.row_count)]
        statuses = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
        assert statuses == sorted(statuses, reverse=True) and sorted(after) == sorted(before)


async def test_the_success_grid_shows_every_agent_and_condition_from_the_first_start(
    tmp_path: Path,
) -> None:
    """Before any conversation has ended the grid has its rows and columns, each cell ``-``."""
    config = retail(tasks=2, concurrency=8, latency=1.0)  # every turn takes a second
    app = live_app(tmp_path / "grid.db", config)
    async with app.run_test(size=(120, 40)) as pilot:
        grid = app.dashboard.grid
        await until(pilot, lambda: app.state.live == 8 and grid.row_count == 2)
        assert app.state.ended == 0  # the first end is several turns away
        assert len(grid.columns) == 3  # condition, gold, over-asker
        cells = {str(grid.get_row_at(i)[j]) for i in range(2) for j in (1, 2)}
        assert cells == {"-"}
        await pilot.press("ctrl+c")
        await until(pilot, lambda: app.settled, within=30)


async def test_every_agent_has_its_column_before_its_first_conversation(tmp_path: Path) -> None:
    """One conversation at a time: the over-asker's column is there while gold plays first."""
    config = retail(tasks=2, concurrency=1, latency=1.0)
    app = live_app(tmp_path / "one.db", config)
    async with app.run_test(size=(120, 40)) as pilot:
        grid = app.dashboard.grid
        await until(pilot, lambda: app.state.live == 1 and grid.row_count >= 1)
        assert app.state.ended == 0
        started = {c.agent for c in app.state.conversations.values()}
        assert len(started) == 1  # only one agent has started a conversation
        assert [str(c.label) for c in grid.columns.values()][1:] == ["gold", "over-asker"]
        await pilot.press("ctrl+c")
        await until(pilot, lambda: app.settled, within=30)
