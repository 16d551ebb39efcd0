"""The live dashboard on real scripted runs: it fills while the run proceeds, ends with the
store's counts, lists early terminations, opens conversations, filters, sorts and quits."""

from __future__ import annotations

from pathlib import Path

import anyio
import msgspec
import pytest

from tau_sim.simulator.grid import RunConfig
from tau_sim.simulator.results.metrics import run_report
from tau_sim.simulator.store import Store, get_run, iter_events, open_database
from tau_sim.tui.app import TauSimApp
from tau_sim.tui.dialogue import DialogueView, Outcome, Turn
from tau_sim.tui.launch import live_source
from tau_sim.tui.screens import ConversationScreen, DashboardScreen, HelpScreen
from tau_sim.tui.sources import LiveSource
from tau_sim.tui.widgets import RowFilter
from tests.helpers.cli import TAU_SIM
from tests.tui.runs import live_app, opened, retail, stored_counts, until

pytestmark = pytest.mark.anyio


async def test_dashboard_fills_during_the_run_and_ends_with_the_store_counts(
    tmp_path: Path,
) -> None:
    db = tmp_path / "live.db"
    # 10 tasks x 2 agents x 2 conditions x 2 trials = 80, for about 2 s
    config = retail(tasks=10, trials=2, concurrency=8, latency=0.01)
    app = live_app(db, config)
    seen_midway: list[tuple[int, int]] = []
    show = app.dashboard.show

    def recording(*args: object, **kwargs: bool) -> None:  # what each tick put on screen
        show(*args, **kwargs)  # type: ignore[arg-type]
        if 0 < app.state.done < 80:
            seen_midway.append((app.state.done, app.dashboard.table.row_count))

    app.dashboard.show = recording  # type: ignore[method-assign,assignment]
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.settled)
        await pilot.pause(0.2)
        table = app.dashboard.table
        summary = str(app.dashboard.summary.query_one("#run-figures").render())
        assert table.row_count == 80
    assert seen_midway, "the dashboard never showed the run in progress"
    assert any(rows > 0 for _, rows in seen_midway)
    stored = stored_counts(db, "tui-run")
    assert stored["completed"] == 80
    assert app.state.done == stored["completed"]
    assert app.state.successes == stored["successes"]
    assert app.state.abandoned == stored["abandoned"]
    conn = open_database(db, readonly=True)
    report = run_report(conn, get_run(conn, "tui-run"))
    assert app.state.pass_1 is not None
    assert round(app.state.pass_1, 4) == report["pass_hat_k"]["1"]
    assert f"pass^1 {report['pass_hat_k']['1']:.3f}" in summary
    assert "80/80 done" in summary
    share = stored["abandoned"] / app.state.finished  # as the headless bar: of the finished
    assert f"abandoned {stored['abandoned']} ({share:.0%})" in summary
    assert app.source.info.status == "completed"


async def test_abandoned_conversations_appear_in_early_terminations(tmp_path: Path) -> None:
    db = tmp_path / "abandon.db"
    app = live_app(db, retail(tasks=4, agents=("scripted/over-asker",)))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.settled)
        await pilot.pause(0.2)
        panel = app.dashboard.terminations
        listed = {panel.get_option_at_index(i).id for i in range(panel.option_count)}
    conn = open_database(db, readonly=True)
    early = {
        r[0]
        for r in conn.execute(
            "select id from conversations where reason not in ('user_stop', 'transfer')"
        )
    }
    abandoned = {
        r[0] for r in conn.execute("select id from conversations where reason='user_abandoned'")
    }
    assert abandoned, "over-asker under high frustration should be abandoned"
    assert listed == early
    assert abandoned <= listed


async def test_selecting_a_row_shows_its_dialogue(tmp_path: Path) -> None:
    db = tmp_path / "dialogue.db"
    app = live_app(db, retail(tasks=2, agents=("scripted/gold",), emotions=("frustration",)))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.settled)
        await pilot.pause(0.2)
        table = app.dashboard.table
        table.focus()
        table.move_cursor(row=0)
        chosen = str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)
        await pilot.press("enter")
        await opened(pilot)
        screen = app.screen
        assert isinstance(screen, ConversationScreen)
        assert screen.conversation == chosen
        turns = list(screen.query_one(DialogueView).query(Turn))
        kinds = [next(iter(t.classes)) for t in turns]
        outcome = str(screen.query_one(Outcome).render())
        await pilot.press("escape")
        await pilot.pause(0.1)
        assert isinstance(app.screen, DashboardScreen)
    conn = open_database(db, readonly=True)
    events = list(iter_events(conn, chosen))
    users = [e for e in events if type(e).__name__ == "UserMessage"]
    calls = [e for e in events if type(e).__name__ == "ToolCall"]
    assert kinds.count("user") == len(users)
    assert kinds.count("tool-call") == len(calls) > 0
    assert "agent" in kinds and "tool-result" in kinds
    reason = conn.execute("select reason from conversations where id = ?", [chosen]).fetchone()
    assert reason[0].replace("_", " ") in outcome
    assert "reward" in outcome and "breakdown" in outcome


async def test_filter_and_sort(tmp_path: Path) -> None:
    db = tmp_path / "filter.db"
    app = live_app(db, retail(tasks=4))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.settled)
        await pilot.pause(0.2)
        await pilot.press("slash")
        for key in "status:abandoned":
            await pilot.press(key if key != ":" else "colon")
        await pilot.press("enter")
        await pilot.pause(0.1)
        table = app.dashboard.table
        statuses = {str(table.get_row_at(i)[1]) for i in range(table.row_count)}
        shown = table.row_count
        table.sort_by("turns")
        turns = [int(str(table.get_row_at(i)[5])) for i in range(table.row_count)]
        await pilot.press("escape")
        await pilot.pause(0.1)
        everything = table.row_count
    assert statuses == {"abandoned"}
    assert shown == app.state.abandoned > 0
    assert turns == sorted(turns)
    assert everything == len(app.state.conversations)
    assert RowFilter.parse("agent:gold frustration").matches(
        next(
            s
            for s in app.state.conversations.values()
            if s.agent == "scripted/gold" and s.emotion == "frustration"
        )
    )


async def test_quit_leaves_the_run_interrupted_and_resumable(tmp_path: Path) -> None:
    db = tmp_path / "quit.db"
    config = retail(tasks=10, trials=2, concurrency=8, latency=0.05)  # 80, several s
    app = live_app(db, config)
    source = app.source
    assert isinstance(source, LiveSource)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.state.done >= 5)
        await pilot.press("q")  # the first asks for a second
        assert not source.runner._stop_requested and not app.done
        await pilot.press("q")
        await until(pilot, lambda: app.settled)
    assert source.runner.interrupted
    conn = open_database(db, readonly=True)
    run = get_run(conn, "tui-run")
    stored = stored_counts(db, "tui-run")
    conn.conn.close()
    assert run["status"] == "interrupted"
    assert 5 <= stored["completed"] < 80
    resume = ["run", "--resume", "tui-run", "--db", str(db), "--quiet", "--json"]
    with anyio.fail_after(60):
        resumed = await anyio.run_process([*TAU_SIM, *resume])
    assert resumed.returncode == 0, resumed.stderr.decode()
    assert stored_counts(db, "tui-run")["completed"] == 80


async def test_help_theme_and_a_terminal_too_small(tmp_path: Path) -> None:
    app = live_app(tmp_path / "keys.db", retail(tasks=1, agents=("scripted/gold",)))
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.settled)
        await pilot.press("question_mark")
        await pilot.pause(0.05)
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert app.theme == "textual-dark"
        await pilot.press("t")
        assert app.theme == "textual-light"
        await pilot.resize_terminal(90, 24)
        await pilot.pause(0.1)
        notice = app.screen.query_one(".too-small")
        assert app.screen.has_class("-too-small") and notice.display
        assert "100x30" in str(notice.render())
        await pilot.resize_terminal(100, 30)
        await pilot.pause(0.1)
        assert not app.screen.has_class("-too-small")


async def test_resume_under_the_tui_shows_the_kept_conversations(tmp_path: Path) -> None:
    db = tmp_path / "resume.db"
    config = retail(tasks=10, trials=2, concurrency=8, latency=0.05)  # 80, several s
    app = live_app(db, config)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.state.done >= 5)
        await pilot.press("ctrl+q")  # Textual's own quit key stops the run the same way
        await until(pilot, lambda: app.settled)
    kept = stored_counts(db, "tui-run")["completed"]
    assert 5 <= kept < 80
    store = Store(db, create=False)
    run = get_run(store.db, "tui-run")
    assert run["status"] == "interrupted"
    stored = msgspec.json.decode(run["config"], type=RunConfig)
    resumed = TauSimApp(live_source(store, stored, "tui-run", resume=True), clock=None)
    async with resumed.run_test(size=(120, 40)) as pilot:
        # the rest of the run plays here: ~75 conversations of 0.05 s turns, 9 s seen under load
        await until(pilot, lambda: resumed.settled, within=120)
        rows = resumed.dashboard.table.row_count
    final = stored_counts(db, "tui-run")
    assert final["completed"] == rows == resumed.state.done == 80
    assert (resumed.state.successes, resumed.state.abandoned) == (
        final["successes"],
        final["abandoned"],
    )
    assert resumed.source.info.status == "completed"
