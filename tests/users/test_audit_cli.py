"""Bad input to ``tau-sim users audit``: one line naming what is wrong, exit 2, no traceback."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tau_sim.simulator.store import Store
from tests.helpers.cli import run_error


def test_a_missing_database_is_refused(tmp_path: Path) -> None:
    out = run_error("users", "audit", "run-x", "--db", str(tmp_path / "none.db"))
    assert "--db" in out.stderr and "none.db" in out.stderr


def test_a_database_of_another_schema_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("create table notes (id integer primary key, body text)")
    conn.close()
    out = run_error("users", "audit", "run-x", "--db", str(other))
    assert "--db" in out.stderr


def test_an_unknown_run_and_a_run_without_user_messages_are_refused(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    store = Store(db)
    store.create_run("run-empty", 0, "{}", 4, tasks_hash="x")
    store.set_run_status("run-empty", "completed")
    store.close_sync()
    out = run_error("users", "audit", "run-nope", "--db", str(db))
    assert "run-nope" in out.stderr
    out = run_error("users", "audit", "run-empty", "--db", str(db))
    assert "run-empty" in out.stderr and "no user messages" in out.stderr


def test_no_run_id_is_refused() -> None:
    out = run_error("users", "audit")
    assert "RUN_ID" in out.stderr
