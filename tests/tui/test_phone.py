"""The user's own device (phone) calls and what they showed, in ``tau-sim show`` and in the
dashboard's conversation view: a real telecom run into a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from tau_sim.simulator.core import UserToolCall, UserToolResult
from tau_sim.simulator.grid import RunConfig
from tau_sim.simulator.store import iter_events, open_database
from tau_sim.tui.app import TauSimApp
from tau_sim.tui.dialogue import Turn
from tau_sim.tui.sources import StoreSource
from tests.helpers.cli import tau_sim
from tests.tui.runs import aplayed, opened, until

pytestmark = pytest.mark.anyio
TASK = "telecom-003"  # fix_no_service: the user checks the status bar on the phone


def phone_run() -> RunConfig:
    return RunConfig(
        domains=["telecom"],
        tasks=[TASK],
        agents=["scripted/gold"],
        emotions=["neutral"],
        trials=1,
        concurrency=1,
    )


def device_events(db: Path) -> tuple[str, list[UserToolCall], list[UserToolResult]]:
    data = open_database(db, readonly=True)
    cid = str(next(data.query("select id from conversations"))["id"])
    events = list(iter_events(data, cid))
    data.conn.close()
    calls = [e for e in events if isinstance(e, UserToolCall)]
    results = [e for e in events if isinstance(e, UserToolResult)]
    assert calls and results, "the scripted user of this task uses the phone"
    return cid, calls, results


async def test_phone_calls_in_show_and_in_the_conversation_view(tmp_path: Path) -> None:
    db = tmp_path / "phone.db"
    await aplayed(db, phone_run(), run_id="phone-run")
    cid, calls, results = device_events(db)

    shown = tau_sim("show", cid, "--db", str(db)).stdout
    phone_lines = [line for line in shown.splitlines() if line.lstrip().startswith("phone")]
    for call in calls:
        assert any(f"{call.call.name}(" in line for line in phone_lines)
    for result in results:
        assert any(f"{result.name} shows: " in line for line in phone_lines)

    app = TauSimApp(StoreSource(db, "phone-run"), clock=None)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.settled)
        app.dashboard.table.post_message(app.dashboard.table.Chosen(cid))
        await opened(pilot)
        texts = [str(turn.render()) for turn in app.screen.query(Turn)]
    for call in calls:
        assert any(text.startswith(f"phone {call.call.name}(") for text in texts)
    assert sum(text.startswith("shows ") for text in texts) == len(results)
