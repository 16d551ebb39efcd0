"""A task file's gold paths are replayed for the tasks a run plays, not for the whole file.

The real ``tau-sim run --tasks-file`` on a copy of retail's tasks in which one task's gold path
names an order that does not exist: it type-checks (its arguments are strings), so only a
replay finds it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.helpers.cli import run_error, tau_sim

RETAIL = Path(__file__).resolve().parents[3] / "domains" / "retail" / "tasks.jsonl"


def _file_with_a_broken_gold_path(tmp_path: Path) -> tuple[Path, int]:
    lines = RETAIL.read_text().splitlines()[:5]
    broken = json.loads(lines[2])
    for action in broken["actions"]:
        if "order_id" in action["arguments"]:
            action["arguments"]["order_id"] = "#W0000000"
    lines[2] = json.dumps(broken)
    path = tmp_path / "tasks.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path, 3


def test_only_the_played_tasks_gold_paths_are_replayed(tmp_path: Path) -> None:
    path, line = _file_with_a_broken_gold_path(tmp_path)
    broken_id = json.loads(path.read_text().splitlines()[line - 1])["id"]
    db = tmp_path / "t.db"
    grid = ["--tasks-file", str(path), "--trials", "1", "--emotions", "neutral", "--quiet"]
    played = ["retail-000", "retail-001"]
    tau_sim("run", *grid, "--tasks", ",".join(played), "--db", str(db))
    conn = sqlite3.connect(db)
    stored = [r[0] for r in conn.execute("select task_id from conversations order by cell")]
    conn.close()
    assert stored == played

    error = run_error("run", *grid, "--tasks", broken_id, "--db", str(tmp_path / "b.db")).stderr
    assert error.startswith(f"tau-sim: error: {path}:{line}: task {broken_id}: actions[")
    assert "fails on a fresh database" in error
    assert not (tmp_path / "b.db").exists()
    # a type error is found in every task, played or not
    typed = json.loads(path.read_text().splitlines()[4])
    typed["actions"][0]["arguments"] = {k: 7 for k in typed["actions"][0]["arguments"]}
    lines = path.read_text().splitlines()
    lines[4] = json.dumps(typed)
    path.write_text("\n".join(lines) + "\n")
    error = run_error("run", *grid, "--tasks", "retail-000", "--db", str(tmp_path / "c.db")).stderr
    assert error.startswith(f"tau-sim: error: {path}:5: task {typed['id']}: actions[0].arguments.")
