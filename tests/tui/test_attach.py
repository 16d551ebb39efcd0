"""Attach mode: following a run a real ``tau-sim run`` subprocess writes, browsing a stored
run, escaped text, and the one-line errors of ``--attach``."""

from __future__ import annotations

import html
import subprocess
import time
import unicodedata
from pathlib import Path

import anyio
import msgspec
import pytest

from tau_sim.simulator.core.chat import ToolCallSpec
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.events import (
    AgentMessage,
    ConversationEnded,
    ConversationStarted,
    EmotionUpdate,
    ToolCall,
    ToolResult,
    UserMessage,
)
from tau_sim.simulator.store import Store
from tau_sim.tui.app import TauSimApp
from tau_sim.tui.dialogue import DialogueView, EmotionTrack, Turn
from tau_sim.tui.screens import ConversationScreen
from tau_sim.tui.sources import StoreSource
from tests.helpers.cli import TAU_SIM
from tests.tui.runs import (
    aplayed,
    newest_shown,
    opened,
    played,
    retail,
    stored_counts,
    tables_sized,
    until,
)

pytestmark = pytest.mark.anyio


async def _source_when_stored(db: Path, within: float = 20.0) -> StoreSource:
    deadline = time.monotonic() + within
    while True:
        try:
            return StoreSource(db, None)
        except UsageError:  # no file or no run row yet
            assert time.monotonic() < deadline, "the subprocess stored no run"
            await anyio.sleep(0.05)


RUN_ARGS = "--domain retail --tasks 20 --agent scripted/gold,scripted/over-asker --emotions "
RUN_ARGS += "frustration,neutral --intensities high --trials 2 --concurrency 8 --quiet --json"
RUN_ARGS += " --agent-arg latency=0.01 --user-arg latency=0.01"  # about 2 s of run


async def test_attach_follows_a_run_written_by_a_subprocess(tmp_path: Path) -> None:
    db = tmp_path / "followed.db"
    command = [*TAU_SIM, "run", *RUN_ARGS.split(), "--db", str(db)]
    async with await anyio.open_process(command, stdout=subprocess.DEVNULL) as writer:
        source = await _source_when_stored(db)
        app = TauSimApp(source, clock=None)
        statuses: set[str] = set()
        async with app.run_test(size=(120, 40)) as pilot:

            def finished() -> bool:
                statuses.add(source.info.status)
                return app.settled

            await until(pilot, finished, within=30)
            await pilot.pause(0.2)
            figures = str(app.dashboard.summary.query_one("#run-figures").render())
            rows = app.dashboard.table.row_count
        with anyio.fail_after(30):
            assert await writer.wait() == 0
    stored = stored_counts(db, source.info.run_id)
    assert stored["completed"] == 160
    assert "running" in statuses and source.info.status == "completed"
    assert source.reads > 1
    assert rows == 160
    assert (app.state.done, app.state.successes, app.state.abandoned) == (
        stored["completed"],
        stored["successes"],
        stored["abandoned"],
    )
    assert "160/160 done" in figures and f"abandoned {stored['abandoned']}" in figures


async def test_attach_to_a_finished_run_opens_it_for_browsing(tmp_path: Path) -> None:
    db = tmp_path / "done.db"
    await aplayed(db, retail(tasks=3))
    app = TauSimApp(StoreSource(db, "tui-run"), clock=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.settled)
        await pilot.pause(0.1)
        app.dashboard.table.focus()
        await pilot.press("down", "enter")
        await opened(pilot)
        assert isinstance(app.screen, ConversationScreen)
        turns = len(app.screen.query(Turn))
    assert app.state.done == stored_counts(db, "tui-run")["completed"] == 12
    assert turns > 3


async def _store_markup_conversation(db: Path) -> None:
    store = Store(db)
    store.create_run("markup", 1, "{}", 1, tasks_hash="")
    cid = "markup/000000"
    call = ToolCallSpec(id="c1", name="find[/]", arguments={"q": "[link=x]y"})
    events = [
        ConversationStarted(
            conversation=cid,
            run_id="markup",
            task_id="t[red]x",
            domain="retail",
            agent="[bold]agent",
            user="scripted",
            emotion="frustration",
            intensity=0.9,
            trial=0,
            seed=1,
        ),
        EmotionUpdate(conversation=cid, emotion="frustration", intensity=0.9, dissatisfaction=0.1),
        UserMessage(conversation=cid, text="I said [bold red]NOW[/bold red] and [/]"),
        AgentMessage(conversation=cid, tool_calls=[call]),
        ToolCall(conversation=cid, call=call),
        ToolResult(conversation=cid, call_id="c1", name="find[/]", content="[i]none[/i]"),
        AgentMessage(conversation=cid, text="Sorry [blink]really[/blink]"),
        EmotionUpdate(
            conversation=cid,
            emotion="frustration",
            intensity=1.0,
            dissatisfaction=0.6,
            reason="[b]friction",
        ),
        UserMessage(conversation=cid, text="bye [red]", ends="###UNSATISFIED###"),
        ConversationEnded(
            conversation=cid,
            reason="user_abandoned",
            reward=0.0,
            detail="bye [red]",
            turns=4,
            tool_calls=1,
        ),
    ]

    async with anyio.create_task_group() as tg:
        tg.start_soon(store.run_writer)
        for seq, event in enumerate(events):
            store.offer(msgspec.structs.replace(event, seq=seq, ts=1.0))
        await store.close()
    store.finish_run("markup", "completed")
    store.close_sync()


async def test_markup_in_messages_shows_literally(tmp_path: Path) -> None:
    db = tmp_path / "markup.db"
    await _store_markup_conversation(db)
    app = TauSimApp(StoreSource(db, "markup"), clock=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.settled)
        await until(pilot, lambda: tables_sized(pilot) and newest_shown(pilot))
        await pilot.pause()
        dashboard = html.unescape(app.export_screenshot()).replace("\xa0", " ")
        app.dashboard.table.focus()
        await pilot.press("enter")
        await opened(pilot)
        assert isinstance(app.screen, ConversationScreen)
        track = app.screen.query_one(EmotionTrack)
        assert track.intensity == [0.9, 1.0]
        shown = html.unescape(app.export_screenshot()).replace("\xa0", " ")
        assert len(app.screen.query_one(DialogueView).query(Turn)) == 5
    for literal in (
        "[bold red]NOW[/bold red] and [/]",
        "find[/]",
        "[i]none[/i]",
        "Sorry [blink]really[/blink]",
        "bye [red]",
        "[b]friction",
    ):
        assert literal in shown, literal
    assert "[bold]agent" in dashboard and "t[red]x" in dashboard


HIDDEN = "\x00 \x1b[31mred \u202eevil \u200bgap"
"""NUL, ESC with a colour, a right-to-left override and a zero-width space."""
SHOWN = r"\x00 \x1b[31mred \u202eevil \u200bgap"


async def _store_hidden_conversation(db: Path) -> None:
    store = Store(db)
    store.create_run("hidden", 1, "{}", 1, tasks_hash="")
    cid = "hidden/000000"
    call = ToolCallSpec(id="c1", name="find", arguments={"q": HIDDEN})
    events = [
        ConversationStarted(
            conversation=cid,
            run_id="hidden",
            task_id="t\u202ex",
            domain="retail",
            agent="agent\x1b[0m",
            user="scripted",
            emotion="neutral",
            intensity=0.0,
            trial=0,
            seed=1,
        ),
        UserMessage(conversation=cid, text=f"user says {HIDDEN}"),
        AgentMessage(conversation=cid, tool_calls=[call]),
        ToolCall(conversation=cid, call=call),
        ToolResult(conversation=cid, call_id="c1", name="find", content=f"found {HIDDEN}"),
        AgentMessage(conversation=cid, text=f"agent says {HIDDEN}"),
        ConversationEnded(
            conversation=cid,
            reason="user_stop",
            reward=0.0,
            detail=f"why {HIDDEN}",
            turns=2,
            tool_calls=1,
        ),
    ]
    async with anyio.create_task_group() as tg:
        tg.start_soon(store.run_writer)
        for seq, event in enumerate(events):
            store.offer(msgspec.structs.replace(event, seq=seq, ts=1.0))
        await store.close()
    store.finish_run("hidden", "completed")
    store.close_sync()


def _raw(text: str) -> list[str]:
    """The control and format characters (but newline) in ``text``, as code points."""
    hidden = ("Cc", "Cf", "Zl", "Zp")
    return [f"U+{ord(c):04X}" for c in text if c != "\n" and unicodedata.category(c) in hidden]


async def test_control_and_bidi_characters_show_escaped(tmp_path: Path) -> None:
    db = tmp_path / "hidden.db"
    await _store_hidden_conversation(db)
    app = TauSimApp(StoreSource(db, "hidden"), clock=None)
    async with app.run_test(size=(160, 40)) as pilot:
        await until(pilot, lambda: app.settled)
        await pilot.pause(0.1)
        table = app.dashboard.table
        cells = [str(c) for c in table.get_row_at(0)]
        table.focus()
        await pilot.press("enter")
        await opened(pilot)
        assert isinstance(app.screen, ConversationScreen)
        turns = [str(t.render()) for t in app.screen.query_one(DialogueView).query(Turn)]
        outcome = str(app.screen.outcome.render())
    assert r"agent\x1b[0m" in cells and r"t\u202ex" in cells
    assert turns == [
        f"user  user says {SHOWN}",
        r'call  find({"q": "\u0000 \u001b[31mred \u202eevil \u200bgap"})',  # JSON's escapes
        f"result found {SHOWN}",
        f"agent agent says {SHOWN}",
    ]
    assert f"detail why {SHOWN}" in outcome
    assert _raw("".join(cells + turns) + outcome) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--db", "{tmp}/missing.db"], "--db: no database at"),
        (["nope", "--db", "{db}"], "no run 'nope' in this database"),
        (["--db", "{db}", "--agent", "scripted/gold"], "--attach follows a stored run"),
    ],
)
def test_attach_errors_are_one_line_exit_2(tmp_path: Path, args: list[str], message: str):
    db = tmp_path / "x.db"
    played(db, retail(tasks=1, agents=("scripted/gold",), emotions=("neutral",)))
    argv = [a.format(tmp=tmp_path, db=db) for a in args]
    out = subprocess.run(
        [*TAU_SIM, "tui", "--attach", *argv], capture_output=True, text=True, timeout=30
    )
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and message in out.stderr, out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dry-run"], "--dry-run goes with `tau-sim run`, not `tau-sim tui`"),
        (["--resume", "r1"], "--db: no database at"),
        (["--agent", "nobody/x"], "--agent"),
        (["--tasks", "retail-999"], "--tasks: domain 'retail' has no task 'retail-999'"),
    ],
)
def test_tui_run_options_are_checked_like_run(tmp_path: Path, args: list[str], message: str):
    db = tmp_path / "none.db"
    out = subprocess.run(
        [*TAU_SIM, "tui", *args, "--db", str(db)], capture_output=True, text=True, timeout=30
    )
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and message in out.stderr, out.stderr
    assert not db.exists()
