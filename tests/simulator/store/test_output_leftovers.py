"""A write killed mid-way (``kill -9`` during ``tau-sim export``) leaves a temporary file beside
its target; the next write to that target removes it, and never one a live process writes."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.helpers.cli import tau_sim


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], check=True,
                          capture_output=True, text=True)  # fmt: skip
    return int(done.stdout)


def test_the_next_export_removes_what_a_killed_one_left(tmp_path: Path) -> None:
    db = tmp_path / "run.db"
    tau_sim("run", "--tasks", "1", "--db", str(db), "--quiet")
    [[run_id]] = sqlite3.connect(db).execute("select id from runs").fetchall()
    out = tmp_path / "out.jsonl"
    killed = tmp_path / f".out.jsonl.{dead_pid()}-0a1b2c3d.tmp"
    killed.write_text('{"half": ')  # what a writer killed mid-way leaves
    writing = tmp_path / f".out.jsonl.{os.getpid()}-4e5f6a7b.tmp"  # a live writer's
    writing.write_text("")
    other = tmp_path / f".other.jsonl.{dead_pid()}-0a1b2c3d.tmp"  # another target's
    other.write_text("")
    done = tau_sim("export", run_id, "--format", "jsonl", "--out", str(out), "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert out.read_text().strip()
    assert not killed.exists()
    assert writing.exists() and other.exists()
