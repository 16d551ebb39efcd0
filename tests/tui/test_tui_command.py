"""``tau-sim tui`` as a person runs it: on a real terminal (a pty), quit mid-run.

Quitting twice stops the run; the command then says, in one line, how many conversations are
stored (read back from the file, as ``tau-sim run`` says it after Ctrl-C) and how to resume,
and exits 130.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import sqlite3
import struct
import termios
import time
from collections.abc import Callable
from pathlib import Path

import psutil

from tests.helpers.cli import SMALL, SMALL_CELLS, TAU_SIM

SLOW = ["--agent-arg", "latency=0.05", "--user-arg", "latency=0.05", "--concurrency", "2"]
ENDS_WITHIN = 90
"""Seconds, on a loaded machine, for the screen to start, store a few and end once quit."""
STORED = re.compile(rb"interrupted; (\d+) of (\d+) conversations are stored; resume with: ")


def completed(db: Path) -> int:
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            row = conn.execute("select count(*) from conversations where status = 'completed'")
            return int(row.fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def test_quitting_the_screen_says_how_many_are_stored_and_exits_130(tmp_path: Path) -> None:
    db = tmp_path / "tui.db"
    command = [*TAU_SIM, "tui", *SMALL, *SLOW, "--db", str(db)]
    pid, terminal = pty.fork()
    if pid == 0:  # the child: its controlling terminal is the pty
        os.environ["TERM"] = "xterm-256color"
        os.execv(command[0], command)
    shown = b""
    deadline = time.time() + ENDS_WITHIN
    quits = 0
    while time.time() < deadline:
        if quits < 2 and completed(db) >= 2:
            os.write(terminal, b"q")  # the first asks for a second
            quits += 1
        if select.select([terminal], [], [], 0.1)[0]:
            try:
                chunk = os.read(terminal, 65536)
            except OSError:  # the child is gone: the terminal reads as closed
                break
            if not chunk:
                break
            shown += chunk
    os.close(terminal)
    _, status = os.waitpid(pid, 0)
    assert quits == 2, shown[-2000:]
    assert os.waitstatus_to_exitcode(status) == 130, shown[-2000:]
    found = STORED.search(shown)
    assert found is not None, shown[-2000:]
    assert int(found.group(1)) == completed(db) and int(found.group(2)) == SMALL_CELLS
    assert b"Traceback" not in shown


def closed_terminal_exit(
    command: list[str], db: Path, ready: Callable[[Path], bool]
) -> tuple[int, bytes]:
    """Start ``command`` on a 120x40 pty, wait until ``ready(db)`` (the run plays), close the
    terminal (the kernel sends SIGHUP, then the tty reads as gone); the exit status and what
    the screen showed (fails where the process outlives the close by ``ENDS_WITHIN``)."""
    pid, terminal = pty.fork()
    if pid == 0:  # the child: its controlling terminal is the pty
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        os.environ["TERM"] = "xterm-256color"
        os.execv(command[0], command)
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    shown = b""
    deadline = time.time() + ENDS_WITHIN
    while time.time() < deadline and not ready(db):
        if select.select([terminal], [], [], 0.1)[0]:
            shown += os.read(terminal, 65536)
    assert ready(db), shown[-2000:]
    os.close(terminal)
    status = None
    deadline = time.time() + ENDS_WITHIN
    while status is None and time.time() < deadline:
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            status = raw
        time.sleep(0.05)
    if status is None:  # still there: the defect (a screen polling a dead terminal)
        cpu = sum(psutil.Process(pid).cpu_times()[:2])
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        raise AssertionError(f"still running after the terminal closed ({cpu:.1f} s CPU)")
    return os.waitstatus_to_exitcode(status), shown


def conversation_started(db: Path) -> bool:
    """Whether a conversation of the run has started (the play is under way)."""
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            row = conn.execute("select count(*) from events where kind = 'conversation_started'")
            return int(row.fetchone()[0]) > 0
        finally:
            conn.close()
    except sqlite3.Error:
        return False


def run_status(db: Path) -> str:
    """The stored run's status ("" while the file or its row does not exist)."""
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            row = conn.execute("select status from runs").fetchone()
            return str(row[0]) if row else ""
        finally:
            conn.close()
    except sqlite3.Error:
        return ""


def test_a_human_session_whose_terminal_closes_ends_with_129_and_stays_resumable(
    tmp_path: Path,
) -> None:
    """Closing the terminal (tmux window, ssh drop) of ``tau-sim human``: the session is
    stored ``interrupted`` and the process exits 129 (128 + SIGHUP) instead of polling the dead
    terminal for ever."""
    db = tmp_path / "human.db"
    command = [*TAU_SIM, "human", "--task", "retail-000", "--db", str(db)]
    # the session plays once its conversation has started (it then waits for the person)
    code, shown = closed_terminal_exit(command, db, conversation_started)
    assert code == 129, shown[-2000:]
    assert run_status(db) == "interrupted"


def test_the_dashboard_whose_terminal_closes_ends_with_129(tmp_path: Path) -> None:
    db = tmp_path / "tui.db"
    command = [*TAU_SIM, "tui", *SMALL, *SLOW, "--db", str(db)]
    code, shown = closed_terminal_exit(command, db, lambda db: completed(db) >= 1)
    assert code == 129, shown[-2000:]
    assert run_status(db) == "interrupted"
