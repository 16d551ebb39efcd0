"""Signals to a real ``tau-sim run`` mid-run: Ctrl-C (once, twice, until it exits), SIGHUP,
SIGTERM, with and without worker processes; a parent killed under its workers; a run killed
right after its row was written.

Every case waits for a state (conversations stored, a row written), never for a time; the
signals themselves are sent back to back.
"""

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

import pytest

from tests.helpers.cli import (
    ALL_AT_ONCE,
    SMALL,
    SMALL_CELLS,
    TAU_SIM,
    report,
    tau_sim,
    wait_for_completed,
)

SLOW = ["--agent-arg", "latency=0.05", "--user-arg", "latency=0.05", "--concurrency", "2"]
"""About a tenth of a second a turn: the run lasts long enough to be signalled mid-way."""
ENDS_WITHIN = 60
"""Seconds an interrupted run may take to end on a loaded machine (it takes about one)."""
STORED = re.compile(r"(\d+) of (\d+) conversations are stored; resume with: ")


def start(db: Path, *extra: str) -> subprocess.Popen[str]:
    """A slowed ``SMALL`` run into ``db`` in a session of its own (as a terminal would)."""
    return subprocess.Popen(
        [*TAU_SIM, "run", *SMALL, *SLOW, *extra, "--db", str(db), "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def stored(db: Path) -> tuple[str, str, int]:
    """The run's id, stored status and completed conversations, read from the file."""
    conn = sqlite3.connect(db)
    run_id, status = conn.execute("select id, status from runs").fetchone()
    done = conn.execute("select count(*) from conversations where status = 'completed'")
    count = int(done.fetchone()[0])
    conn.close()
    return run_id, status, count


def completed_now(db: Path) -> int:
    """Completed conversations in ``db`` now (0 while the file or its tables do not exist)."""
    try:
        conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            done = conn.execute("select count(*) from conversations where status = 'completed'")
            return int(done.fetchone()[0])
        finally:
            conn.close()
    except sqlite3.OperationalError:
        return 0


def check_interrupted(
    proc: subprocess.Popen[str], db: Path, err: str, by: str = "", code: int = 130
) -> str:
    """Exit ``code`` (128 + the signal), one line on stderr stating the stored count as the
    file holds it, the run ``interrupted`` (resumable), no traceback; returns the run id."""
    assert proc.returncode == code, err
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tau-sim: interrupted{by}; "), err
    run_id, status, count = stored(db)
    match = STORED.search(lines[0])
    assert match is not None, err
    assert (int(match[1]), int(match[2])) == (count, SMALL_CELLS)
    assert status == "interrupted" and 0 < count < SMALL_CELLS
    assert f"--resume {run_id} --db {db}" in lines[0]
    assert report(db)["status"] == "interrupted"
    return str(run_id)


def rows_and_cells(db: Path) -> tuple[int, int]:
    """The conversation rows in ``db`` and the distinct cells they hold."""
    conn = sqlite3.connect(db)
    try:
        rows, cells = conn.execute(
            "select count(*), count(distinct cell) from conversations"
        ).fetchone()
    finally:
        conn.close()
    return int(rows), int(cells)


def signal_until_exit(proc: subprocess.Popen[str], signum: int) -> None:
    """Send ``signum`` to the process's group again and again until it has exited."""
    while proc.poll() is None:
        try:
            os.killpg(proc.pid, signum)
        except ProcessLookupError:
            return
        time.sleep(0.01)


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("times", [2, 3, "until it exits"])
def test_repeated_ctrl_c_ends_at_once_with_what_is_stored(
    tmp_path: Path, workers: str, times: int | str
) -> None:
    """Later Ctrl-C's change nothing: no hang, no traceback, no ``nothing was stored``."""
    db = tmp_path / "int.db"
    proc = start(db, "--workers", workers)
    assert wait_for_completed(db, 2) >= 2
    if isinstance(times, int):
        for _ in range(times):
            os.killpg(proc.pid, signal.SIGINT)
    else:
        signal_until_exit(proc, signal.SIGINT)
    _out, err = proc.communicate(timeout=ENDS_WITHIN)
    check_interrupted(proc, db, err)


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize(
    ("signum", "by", "code"),
    [(signal.SIGHUP, " by SIGHUP", 129), (signal.SIGTERM, " by SIGTERM", 143)],
)
def test_sighup_and_sigterm_interrupt_as_ctrl_c_does(
    tmp_path: Path, workers: str, signum: int, by: str, code: int
) -> None:
    """As Ctrl-C, but the exit status is 128 + the signal (SIGHUP 129, SIGTERM 143)."""
    db = tmp_path / "hup.db"
    proc = start(db, "--workers", workers)
    assert wait_for_completed(db, 2) >= 2
    os.killpg(proc.pid, signum)
    _out, err = proc.communicate(timeout=ENDS_WITHIN)
    run_id = check_interrupted(proc, db, err, by, code)
    if workers == "2" and signum == signal.SIGHUP:
        tau_sim("run", "--resume", run_id, *ALL_AT_ONCE, "--db", str(db), "--quiet")
        assert stored(db)[1:] == ("completed", SMALL_CELLS)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie no one reaps has exited)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_workers_exit_quietly_when_their_parent_is_killed(tmp_path: Path) -> None:
    db = tmp_path / "orphans.db"
    proc = start(db, "--workers", "2")
    assert wait_for_completed(db, 2) >= 2
    workers = children(proc.pid)
    assert len(workers) == 2
    proc.kill()
    # the workers share the parent's stderr: it ends once the last of them has exited
    _out, err = proc.communicate(timeout=ENDS_WITHIN)
    assert err == ""
    deadline = time.time() + ENDS_WITHIN  # a process closes its files a moment before it ends
    while time.time() < deadline and any(alive(pid) for pid in workers):
        time.sleep(0.05)
    assert not [pid for pid in workers if alive(pid)]


def test_a_run_killed_right_after_its_row_is_resumed_at_once(tmp_path: Path) -> None:
    """No pid lives, so nothing is still running: ``--resume`` does not wait for staleness."""
    db = tmp_path / "early.db"
    proc = start(db)
    deadline = time.time() + ENDS_WITHIN
    row = None
    while row is None and time.time() < deadline:
        try:
            conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
            row = conn.execute("select id, pid from runs").fetchone()
            conn.close()
        except sqlite3.OperationalError:  # no file or no table yet
            time.sleep(0.002)
    assert row is not None and proc.poll() is None
    assert row[1] == proc.pid  # the row names its process from the start
    proc.kill()
    proc.communicate(timeout=ENDS_WITHIN)
    assert stored(db)[1] == "running" and report(db)["status"] == "stale"
    tau_sim("run", "--resume", row[0], *ALL_AT_ONCE, "--db", str(db), "--quiet", clean=True)
    assert stored(db)[1:] == ("completed", SMALL_CELLS)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_closed_terminal_interrupts_the_run(tmp_path: Path, workers: str) -> None:
    """The run on a terminal (a pty, its progress bar drawn) that is closed: the kernel's
    SIGHUP ends it ``interrupted`` at once, though nothing can be written any more."""
    db = tmp_path / "tty.db"
    command = [*TAU_SIM, "run", *SMALL, *SLOW, "--workers", workers, "--db", str(db)]
    pid, terminal = pty.fork()
    if pid == 0:  # the child: its controlling terminal is the pty
        os.execv(command[0], command)
    shown = b""
    deadline = time.time() + ENDS_WITHIN
    while time.time() < deadline and (b"/12" not in shown or completed_now(db) < 2):
        if select.select([terminal], [], [], 0.05)[0]:
            shown += os.read(terminal, 65536)  # its progress bar: "  2/12" and so on
    os.close(terminal)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 129  # 128 + SIGHUP
    assert b"Traceback" not in shown and b"/12" in shown  # the bar was drawn
    assert stored(db)[1] == "interrupted" and report(db)["status"] == "interrupted"


def test_two_resumes_started_at_once_play_the_run_once(tmp_path: Path) -> None:
    """An interrupted run resumed twice at the same moment: one plays it to the end, the other
    is refused with one line (exit 2) whenever it looks (before the claim, at it, or after the
    end), and every cell is stored once."""
    db = tmp_path / "twice.db"
    first = start(db)
    assert wait_for_completed(db, 2) >= 2
    os.killpg(first.pid, signal.SIGINT)
    first.communicate(timeout=ENDS_WITHIN)
    run_id, status, _count = stored(db)
    assert status == "interrupted"
    resumes = [
        subprocess.Popen(
            [*TAU_SIM, "run", "--resume", run_id, "--db", str(db), "--quiet"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outcomes = sorted((p.wait(timeout=ENDS_WITHIN * 2), p.communicate()[1]) for p in resumes)
    (played, played_err), (refused, refused_err) = outcomes
    assert (played, refused) == (0, 2), outcomes
    assert played_err == ""
    lines = refused_err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in refused_err, refused_err
    assert any(
        why in lines[0]
        for why in ("is being played by another process", "is still running", "already completed")
    ), lines[0]
    assert rows_and_cells(db) == (SMALL_CELLS, SMALL_CELLS)  # every cell stored once
    assert stored(db)[1:] == ("completed", SMALL_CELLS)


def test_a_stopped_run_resumed_elsewhere_then_continued_leaves_the_resumers_run_whole(
    tmp_path: Path,
) -> None:
    """``SIGSTOP`` a run until it reads stale, ``--resume`` it in another process to the end,
    then ``SIGCONT`` the first: the resumer exits 0 with every cell stored once, and the first
    stops at its next write with one line (exit 1), changing nothing."""
    db = tmp_path / "stopped.db"
    env = {**os.environ, "TAU_SIM_STALE_AFTER": "1"}
    first = subprocess.Popen(
        [*TAU_SIM, "run", *SMALL, *SLOW, "--db", str(db), "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env=env,
    )
    try:
        assert wait_for_completed(db, 2) >= 2
        os.killpg(first.pid, signal.SIGSTOP)
        run_id = stored(db)[0]
        deadline = time.time() + ENDS_WITHIN
        while time.time() < deadline:  # the state: no heartbeat for longer than stale_after
            conn = sqlite3.connect(db)
            [beat] = conn.execute("select heartbeat_at from runs").fetchone()
            conn.close()
            if time.time() - beat > 1.5:
                break
            time.sleep(0.1)
        resumed = subprocess.run(
            [*TAU_SIM, "run", "--resume", run_id, "--db", str(db), "--quiet"],
            capture_output=True,
            text=True,
            timeout=ENDS_WITHIN * 2,
            env=env,
        )
        assert resumed.returncode == 0 and resumed.stderr == "", resumed.stderr
        whole = stored(db)
        assert whole[1:] == ("completed", SMALL_CELLS)
    finally:
        os.killpg(first.pid, signal.SIGCONT)
    _out, err = first.communicate(timeout=ENDS_WITHIN)
    assert first.returncode == 1 and "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "was resumed by another process" in lines[0], err
    assert rows_and_cells(db) == (SMALL_CELLS, SMALL_CELLS)  # every cell stored once
    assert stored(db) == whole
