"""How intensity is drawn, on the real app over a real store: a constant 0.9 is drawn high and
red, a neutral 0.0 low and green, in the conversation's track and in the table's bar (issue 23:
a constant 0.9 drew like neutral, since a sparkline scales to its own range)."""

from __future__ import annotations

from pathlib import Path

import anyio
import msgspec
import pytest

from tau_sim.simulator.core.events import (
    ConversationEnded,
    ConversationStarted,
    EmotionUpdate,
    Event,
    UserMessage,
)
from tau_sim.simulator.store import Store
from tau_sim.tui.app import TauSimApp
from tau_sim.tui.dialogue import EmotionTrack, LevelLine
from tau_sim.tui.screens import ConversationScreen
from tau_sim.tui.sources import StoreSource
from tests.tui.runs import opened, tables_sized, until

pytestmark = pytest.mark.anyio

TRACKS = {"steady": ("frustration", 0.9), "calm": ("neutral", 0.0)}
"""Conversation -> its emotion and the intensity every one of its five updates holds."""


def _events(cid: str, emotion: str, intensity: float) -> list[Event]:
    started = ConversationStarted(
        conversation=cid,
        run_id="levels",
        task_id="retail-000",
        domain="retail",
        agent="scripted/gold",
        user="scripted",
        emotion=emotion,
        intensity=intensity,
        trial=0,
        seed=1,
    )
    turns: list[Event] = []
    for i in range(5):
        turns.append(UserMessage(conversation=cid, text=f"message {i}"))
        turns.append(
            EmotionUpdate(
                conversation=cid, emotion=emotion, intensity=intensity, dissatisfaction=0.1
            )
        )
    ended = ConversationEnded(
        conversation=cid, reason="user_stop", reward=1.0, turns=5, tool_calls=0
    )
    return [started, *turns, ended]


async def _store(db: Path) -> None:
    store = Store(db)
    store.create_run("levels", 1, "{}", len(TRACKS), tasks_hash="")
    async with anyio.create_task_group() as tg:
        tg.start_soon(store.run_writer)
        for name, (emotion, intensity) in TRACKS.items():
            for seq, event in enumerate(_events(f"levels/{name}", emotion, intensity)):
                store.offer(msgspec.structs.replace(event, seq=seq, ts=1.0))
        await store.close()
    store.finish_run("levels", "completed")
    store.close_sync()


def _rows(line: LevelLine) -> tuple[list[str], set[str]]:
    """The line's text rows (top first) and the colours of its marks."""
    text = line.render()
    return text.plain.split("\n"), {str(span.style) for span in text.spans}


async def test_a_constant_high_intensity_is_drawn_high_and_red(tmp_path: Path) -> None:
    db = tmp_path / "levels.db"
    await _store(db)
    app = TauSimApp(StoreSource(db, "levels"), clock=None)
    drawn: dict[str, tuple[list[str], set[str]]] = {}
    bars: dict[str, str] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.settled and tables_sized(pilot))
        table = app.dashboard.table
        for name in TRACKS:
            cid = f"levels/{name}"
            bars[name] = str(table.get_cell(cid, "intensity"))
            table.focus()
            table.move_cursor(row=table.get_row_index(cid))
            await pilot.press("enter")
            await opened(pilot)
            assert isinstance(app.screen, ConversationScreen)
            track = app.screen.query_one(EmotionTrack)
            assert track.intensity == [TRACKS[name][1]] * 5
            line = track.intensity_line
            await until(pilot, lambda line=line: line.size.width > 0)
            drawn[name] = _rows(line)
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, ConversationScreen))

    (steady_top, steady_bottom), steady_colours = drawn["steady"]
    (calm_top, calm_bottom), calm_colours = drawn["calm"]
    # 0.9 of two rows: the bottom full, the top three-quarters; 0.0: only the lowest mark
    assert set(steady_bottom) == {"█"} and set(steady_top) == {"▆"}
    assert set(calm_bottom) == {"▁"} and set(calm_top) == {" "}
    assert steady_colours == {"red"} and calm_colours == {"green"}
    assert bars["steady"].startswith("█████░") and bars["steady"].endswith("0.90")
    assert bars["calm"].startswith("░░░░░░") and bars["calm"].endswith("0.00")
