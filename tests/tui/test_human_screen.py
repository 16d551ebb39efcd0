"""``tau-sim human``'s screen between and after conversations, at a small size, and with a tool
command short of an argument: the real app (Pilot) on a real SQLite file."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import pytest

from tau_sim.simulator.core.registry import get_domain
from tau_sim.tui.dialogue import Turn
from tau_sim.tui.tool_lines import CallError, parse_call
from tests.helpers.cli import tau_sim
from tests.tui.runs import until
from tests.tui.test_human import SIZE, my_turn, say, session

pytestmark = pytest.mark.anyio


async def test_a_tool_command_short_of_an_argument_gets_its_usage(tmp_path: Path) -> None:
    """``/check_status_bar`` alone is answered on the screen with one line naming the missing
    argument and the tool's usage (it was a ``zip()`` error); nothing is sent to the phone."""
    toolkit = get_domain("telecom").user_toolkit
    assert toolkit is not None
    with pytest.raises(CallError, match="check_status_bar: missing phone_number; usage: "):
        parse_call("/check_status_bar  ", toolkit.specs, "c1")
    app = session(tmp_path / "phone.db", task="telecom-002", domain="telecom")
    notices: list[str] = []
    notify = app.notify

    def kept(message: str, **kwargs: Any) -> None:
        notices.append(message)
        notify(message, **kwargs)

    app.notify = kept  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        asked = screen.ask
        screen.say.value = "/check_status_bar"
        await pilot.press("enter")
        await until(pilot, lambda: any("check_status_bar" in n for n in notices))
        assert screen.ask is asked and screen.say.value == "/check_status_bar"  # not sent
        turns = [str(t.render()) for t in screen.dialogue.query(Turn)]
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.done)
    (notice,) = [n for n in notices if "check_status_bar" in n]
    assert "missing phone_number" in notice and "/check_status_bar phone_number=" in notice
    assert "\n" not in notice and "zip()" not in notice
    assert not any(t.startswith("phone check_status_bar") for t in turns)


async def test_between_and_after_conversations(tmp_path: Path) -> None:
    db = tmp_path / "two.db"
    app = session(db, task="retail-000,retail-001")
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen_of
        await say(pilot, "hello")
        await my_turn(pilot)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: screen.started == 2 and screen.ask is not None)
        said = str(screen.outcome.render())
        assert "in progress" in said and "conversation 1 ended user stop" in said
        assert screen.track.intensity == [] and screen.track.intensity_line.data == []
        assert str(screen.track.intensity_label.render()) == ""
        await say(pilot, "hello again")
        await my_turn(pilot)
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.done)
        await until(pilot, lambda: "session is over" in screen.say.placeholder)
        assert screen.say.disabled
        shown = tau_sim("show", "human-run/000001", "--db", str(db)).stdout
    assert "0 model calls" in shown and "turns scripted or typed by a person" in shown


async def test_too_small_a_terminal_closes_the_input_and_names_the_command(
    tmp_path: Path,
) -> None:
    app = session(tmp_path / "small.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        assert not screen.say.disabled
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: screen.too_small)
        notice = str(screen.query_one(".too-small").render())
        assert "tau-sim human" in notice and "ctrl+q" in notice and "tau-sim tui" not in notice
        assert screen.say.disabled
        await pilot.press(*"typed blind", "enter")
        assert screen.ask is not None  # nothing was sent
        await pilot.resize_terminal(*SIZE)
        await until(pilot, lambda: not screen.too_small and not screen.say.disabled)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.done)


async def test_at_120x40_the_acting_and_the_phone_are_in_view(tmp_path: Path) -> None:
    """What the person needs at every turn is on the screen, not below the fold."""
    app = session(tmp_path / "fold.db", task="telecom-002", domain="telecom")
    async with app.run_test(size=SIZE) as pilot:
        screen = await my_turn(pilot)
        await pilot.pause(0.2)
        shown = html.unescape(app.export_screenshot()).replace("\xa0", " ")
        for words in ("acting now", "Your phone", "/check_status_bar", "/toggle_airplane_mode"):
            assert words.replace(" ", "") in shown.replace(" ", ""), words
        with pytest.raises(CallError, match=r"no tool 'nope' \(tools: check_status_bar"):
            parse_call("/nope", screen.ask.view.tools, "c")  # type: ignore[union-attr]
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.done)
