"""A resumed run's time counts its earlier part: the headless progress bar of ``tau-sim run
--resume`` (on a real terminal, a pty) and the ``duration`` of ``tau-sim runs`` go on from the
time the interrupted invocation played, and leave out the pause between the two (issue 23)."""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

from tau_sim.simulator.store import get_run, open_database, played_seconds
from tests.helpers.cli import ALL_AT_ONCE, SMALL, SMALL_CELLS, TAU_SIM, tau_sim

SLOW = ["--agent-arg", "latency=0.1", "--user-arg", "latency=0.1", "--concurrency", "2"]
EARLIER_S = 3.0
"""Seconds the first invocation plays before it is interrupted (more than the bar's rounding)."""
ELAPSED = re.compile(rb"(\d+):(\d\d):(\d\d)")


def _run_row(db: Path) -> dict[str, Any]:
    conn = open_database(db, readonly=True)
    try:
        return get_run(conn, None)
    finally:
        conn.conn.close()


def _played_enough(db: Path) -> bool:
    """Whether the run was claimed ``EARLIER_S`` ago and has completed two conversations."""
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            done = conn.execute("select count(*) from conversations where status = 'completed'")
            claimed = conn.execute("select claimed_at from runs").fetchone()
            return int(done.fetchone()[0]) >= 2 and time.time() - claimed[0] >= EARLIER_S
        finally:
            conn.close()
    except (sqlite3.Error, TypeError):  # no file, no table or no claim yet
        return False


def _interrupted_run(db: Path) -> None:
    """Play ``SMALL`` slowly, stop it with SIGINT once it has played ``EARLIER_S``."""
    command = [*TAU_SIM, "run", *SMALL, *SLOW, "--db", str(db), "--quiet"]
    with subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as proc:
        deadline = time.monotonic() + 60
        while not _played_enough(db):
            assert time.monotonic() < deadline, "the first invocation stored too little"
            assert proc.poll() is None, "the run ended before it could be interrupted"
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130


def _on_a_terminal(command: list[str]) -> bytes:
    """What ``command`` writes on a pty (the progress bar draws only on a terminal)."""
    pid, terminal = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.execv(command[0], command)
    shown = b""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if select.select([terminal], [], [], 0.1)[0]:
            try:
                chunk = os.read(terminal, 65536)
            except OSError:  # the child is gone
                break
            if not chunk:
                break
            shown += chunk
    os.close(terminal)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, shown[-2000:]
    return shown


def test_a_resumed_runs_bar_and_duration_count_the_earlier_part(tmp_path: Path) -> None:
    db = tmp_path / "resumed.db"
    _interrupted_run(db)
    first = _run_row(db)
    earlier = played_seconds(first)
    assert first["status"] == "interrupted" and earlier >= EARLIER_S
    assert first["earlier_s"] == 0.0  # a new run: nothing before its first claim

    time.sleep(1.0)  # a pause between the two invocations: not played time
    resume = [*TAU_SIM, "run", "--resume", first["id"], "--db", str(db), *ALL_AT_ONCE]
    shown = _on_a_terminal(resume)
    final = _run_row(db)
    assert final["status"] == "completed"
    assert final["earlier_s"] == earlier
    played = played_seconds(final)
    assert played < final["ended_at"] - final["created_at"] - 0.9  # the pause is left out

    times = ELAPSED.findall(shown)
    assert times, shown[-2000:]
    h, m, s = (int(x) for x in times[-1])
    bar = 3600 * h + 60 * m + s  # the bar's last drawing: the whole run's time
    # the bar starts a little before the store's claim and stops a little after the end
    assert int(played) - 1 <= bar <= int(played) + 2, (bar, played, earlier)
    assert bar >= int(earlier)  # more than the resumed part alone could show

    listed = tau_sim("runs", "--db", str(db)).stdout
    line = next(line for line in listed.splitlines() if first["id"] in line)
    assert f"{played:.1f}s" in line, line
    assert str(SMALL_CELLS) in line
