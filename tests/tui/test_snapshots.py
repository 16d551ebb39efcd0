"""SVG snapshots (pytest-textual-snapshot) of a finished run's dashboard and of one
conversation. Deterministic: a fixed run id and seed, one conversation at a time, and no
clock (``clock=None`` hides elapsed time, rate and ETA). Update with ``--snapshot-update``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tau_sim.tui.app import TauSimApp
from tau_sim.tui.screens import HelpScreen
from tau_sim.tui.sources import StoreSource
from tests.tui.runs import newest_shown, opened, played, retail, tables_sized, until

SIZE = (100, 30)  # the smallest layout the screens are made for


def _browsing(tmp_path: Path) -> TauSimApp:
    db = tmp_path / "snap.db"
    played(db, retail(tasks=3, concurrency=1), run_id="snapshot-run")
    return TauSimApp(StoreSource(db, "snapshot-run"), clock=None)


async def _loaded(pilot: Any) -> None:
    """Wait until the run is shown and the screen stops changing.

    The tables size their columns when their message queue is idle, after the rows are in;
    a screenshot taken before that shows cells cut at the headers' widths. The early
    terminations show their newest entry once laid out.
    """
    await until(pilot, lambda: pilot.app.settled)
    await until(pilot, lambda: tables_sized(pilot) and newest_shown(pilot))
    await _steady(pilot)


async def _steady(pilot: Any) -> None:
    """Wait until two screenshots 0.1 s apart are the same."""
    shot = None
    for _ in range(40):
        await pilot.pause(0.1)
        previous, shot = shot, pilot.app.export_screenshot()
        if shot == previous:
            return
    raise AssertionError("the screen kept changing for 4 s")


def test_dashboard_of_a_finished_run(tmp_path: Path, snap_compare: Any) -> None:
    assert snap_compare(_browsing(tmp_path), terminal_size=SIZE, run_before=_loaded)


def test_conversation_view(tmp_path: Path, snap_compare: Any) -> None:
    async def open_abandoned(pilot: Any) -> None:
        await _loaded(pilot)
        table = pilot.app.dashboard.table
        table.focus()
        row = next(i for i in range(table.row_count) if str(table.get_row_at(i)[1]) == "abandoned")
        table.move_cursor(row=row)
        await pilot.press("enter")
        await opened(pilot)

    assert snap_compare(_browsing(tmp_path), terminal_size=SIZE, run_before=open_abandoned)


def _help_laid_out(pilot: Any) -> bool:
    """Whether the help screen is on top with its text mounted and given a place on screen.

    Two equal screenshots alone do not show that the help was drawn: on a loaded machine both
    can come before its text is laid out (the test failed so, now and then, under load).
    """
    screen = pilot.app.screen
    if not isinstance(screen, HelpScreen):
        return False
    shown = screen.query("#help")
    return bool(shown) and shown.first().region.area > 0


def test_help(tmp_path: Path, snap_compare: Any) -> None:
    async def help_shown(pilot: Any) -> None:
        await _loaded(pilot)
        await pilot.press("question_mark")
        await until(pilot, lambda: _help_laid_out(pilot))
        await _steady(pilot)

    assert snap_compare(_browsing(tmp_path), terminal_size=SIZE, run_before=help_shown)


def test_human_screen(tmp_path: Path, snap_compare: Any) -> None:
    from tests.tui.test_human import my_turn, say, session

    async def first_reply(pilot: Any) -> None:
        await say(pilot, "hi, my order [bold red]")
        await my_turn(pilot)
        pilot.app.screen_of.say.cursor_blink = False
        await pilot.press("ctrl+up")
        await pilot.pause(0.2)
        pilot.app.clear_notifications()  # the screen as it is once the notification went
        await pilot.pause(0.2)

    app = session(tmp_path / "snap.db")
    assert snap_compare(app, terminal_size=(120, 40), run_before=first_reply)


def test_human_agent_screen(tmp_path: Path, snap_compare: Any) -> None:
    """The agent player after looking the order up: the whole result, the policy as Markdown."""
    from tests.tui.test_human import my_turn, say_line, session

    async def order_read(pilot: Any) -> None:
        for line in (
            "/find_user_id_by_name_zip first_name=Samuel last_name=Nguyen zip=77034",
            "/get_order_details order_id=#W4803757",
        ):
            await say_line(pilot, await my_turn(pilot), line)
        screen = await my_turn(pilot)
        screen.say.cursor_blink = False
        await until(pilot, lambda: len(screen.policy.children) > 1)
        await _steady(pilot)

    app = session(tmp_path / "snap.db", role="agent")
    assert snap_compare(app, terminal_size=(120, 40), run_before=order_read)


def test_tool_form(tmp_path: Path, snap_compare: Any) -> None:
    """The agent player's form for an exchange after the user's details: the schema's fields,
    the user's orders and payment methods offered, one field still missing."""
    from tau_sim.tui.tool_form import ArgumentField, ToolForm
    from tests.tui.test_human import my_turn, say_line, session

    async def form_checked(pilot: Any) -> None:
        for line in (
            "/find_user_id_by_name_zip first_name=Samuel last_name=Nguyen zip=77034",
            "/get_user_details user_id=samuel_nguyen_4142",
        ):
            await say_line(pilot, await my_turn(pilot), line)
        screen = await my_turn(pilot)
        screen.say.value = "/modify_pending_order_payment"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, ToolForm))
        form = pilot.app.screen
        await until(pilot, lambda: bool(form.query(ArgumentField)) and pilot.app.focused)
        pilot.app.focused.cursor_blink = False
        await pilot.press(*"#W4803757", "enter")
        await until(pilot, lambda: "required" in str(form.errors.render()))
        await _steady(pilot)

    app = session(tmp_path / "snap.db", role="agent")
    assert snap_compare(app, terminal_size=(120, 40), run_before=form_checked)
