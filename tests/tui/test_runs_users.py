"""``tau-sim runs`` names each run's users once a file holds a run whose user is not the
scripted one, so a session a person played (``tau-sim human``, the real app here) reads apart
from a scripted run in the same file (issue 23, defect 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import tau_sim
from tests.tui.runs import until
from tests.tui.test_human import SIZE, my_turn, say, session

pytestmark = pytest.mark.anyio


async def test_runs_lists_the_user_of_each_run(tmp_path: Path) -> None:
    db = tmp_path / "both.db"
    tau_sim("run", "--tasks", "1", "--agent", "scripted/gold", "--db", str(db), "--quiet")
    only_scripted = tau_sim("runs", "--db", str(db)).stdout
    assert "users" not in only_scripted  # the column shows once another user is in the file
    app = session(db)
    async with app.run_test(size=SIZE) as pilot:
        await say(pilot, "hi, my order")
        await my_turn(pilot)
        await pilot.press("ctrl+b")
        await pilot.pause()
        await pilot.press("down", "enter")  # the first reason
        await until(pilot, lambda: app.done)

    listed = tau_sim("runs", "--db", str(db)).stdout
    header = next(line for line in listed.splitlines() if "agents" in line)
    assert "users" in header
    columns = [c.strip() for c in header.strip("┃│ ").split("┃")]
    users = columns.index("users")
    rows = [
        [c.strip() for c in line.strip("│ ").split("│")]
        for line in listed.splitlines()
        if line.startswith("│") and line.count("│") == len(columns) + 1
    ]
    by_run = {row[0]: row[users] for row in rows if row[0]}
    assert by_run.pop("human-run") == "human"
    assert list(by_run.values()) == ["scripted"]
