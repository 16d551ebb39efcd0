"""Storage faults through the real ``tau-sim`` command: full disk, read-only, corrupted, killed.

Real SQLite files and real subprocesses. A full disk and a read-only file are made with small
tmpfs mounts (the tests run as root, where file permissions do not stop a write, but a full
or read-only-mounted file system does); where mounting is refused the test says so and skips
(``test_store_faults.py`` covers a full file with ``PRAGMA max_page_count`` everywhere). A disk
failing with I/O errors is a FUSE mount (``eio_fs``) whose writes fail with EIO past a budget.
"""

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.helpers.cli import GRID, SMALL, SMALL_CELLS, TAU_SIM, one_line_error, report, tau_sim
from tests.helpers.disks import tmpfs
from tests.helpers.require import require

GRID_CELLS = 6 * 2 * 2 * 2


@contextmanager
def failing_disk(folder: Path, budget: int) -> Iterator[tuple[Path, Path]]:
    """A FUSE mount at ``folder`` whose writes fail with EIO past ``budget`` bytes.

    Yields the mount point and the file whose creation heals the disk (``eio_fs``). Skips,
    saying why, where FUSE cannot be mounted (no /dev/fuse, no libfuse, no permission); fails
    instead where ``TAU_SIM_REQUIRE_FUSE`` is set (``tests.helpers.require``).
    """
    if not Path("/dev/fuse").exists():
        require("FUSE", "cannot mount FUSE here: no /dev/fuse")
    try:
        import mfusepy  # noqa: F401  (loads libfuse)
    except (ImportError, OSError) as exc:
        require("FUSE", f"cannot mount FUSE here: {exc}")
    source, mount, healed = folder / "source", folder / "mnt", folder / "healed"
    source.mkdir(parents=True)
    mount.mkdir()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.helpers.eio_fs",
            str(source),
            str(mount),
            str(budget),
            str(healed),
        ],
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 10
    while not os.path.ismount(mount):
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            require("FUSE", f"cannot mount FUSE here: {server.communicate()[1].strip()[-200:]}")
        time.sleep(0.05)
    try:
        yield mount, healed
    finally:
        if subprocess.run(["umount", str(mount)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(mount)], check=True)
        server.communicate(timeout=10)


def remount(folder: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(folder)], check=True)


def fault(*args: str, code: int = 1, env: dict[str, str] | None = None) -> str:
    """Run tau-sim expecting exit ``code`` and one error line; returns the line."""
    return one_line_error(tau_sim(*args, check=False, env=env), code)


def counts(db: Path) -> tuple[int, int, int]:
    """(conversations, distinct cells, completed) of the file's only run.

    Rows exist for admitted conversations only; no stored event lacks its conversation's row
    and the run's row holds the whole grid's size (``GRID_CELLS`` or ``SMALL_CELLS``).
    """
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    row = conn.execute(
        "select count(*), count(distinct cell), coalesce(sum(status = 'completed'), 0) "
        "from conversations"
    ).fetchone()
    orphans = conn.execute(
        "select count(*) from event_rows where conversation not in (select key from conversations)"
    ).fetchone()[0]
    run = conn.execute("select cells from runs").fetchone()  # None: not created yet
    conn.close()
    assert orphans == 0 and (run is None or run[0] in (GRID_CELLS, SMALL_CELLS))
    return tuple(row)


def gap_free(db: Path) -> bool:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    gaps = conn.execute(
        "select count(*) from (select conversation, count(*) n, max(seq) m from events "
        "group by conversation) where n != m + 1"
    ).fetchone()[0]
    conn.close()
    return gaps == 0


def stored_status(db: Path) -> tuple[str, str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    run_id, status = conn.execute("select id, status from runs").fetchone()
    conn.close()
    return run_id, status


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def comparable(data: dict) -> dict:
    data.pop("run_id")
    data.pop("status")
    return data


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The report (less id and status) of the GRID run played once, uninterrupted."""
    db = tmp_path_factory.mktemp("reference") / "reference.db"
    tau_sim("run", *GRID, "--db", str(db), "--quiet")
    return comparable(report(db))


SLOW = ["--concurrency", "2", "--agent-arg", "latency=0.02", "--user-arg", "latency=0.02"]
"""Two at a time, 20 ms a call: a run slow enough for a fault to land mid-run."""


def stopped_mid_run(db: Path, cause: str) -> tuple[str, str]:
    """Run the grid slowly on ``db`` until the disk fails it; (run id, stored status).

    The fault is one line naming ``cause`` with the stored count and how to resume; every
    admitted conversation is registered once, some but not all are stored, and no
    conversation's events have a gap.
    """
    line = fault("run", *GRID, *SLOW, "--db", str(db), "--quiet")
    run_id, status = stored_status(db)
    total, cells, done = counts(db)
    assert line == (
        f"tau-sim: error: --db {db}: {cause}; {done} of {GRID_CELLS} conversations are stored; "
        f"resume with: tau-sim run --resume {run_id} --db {db}"
    )
    assert done <= total == cells <= GRID_CELLS and 0 < done < GRID_CELLS and gap_free(db)
    return run_id, status


def resumed_whole(db: Path, run_id: str, expected: dict) -> None:
    """``--resume`` completes every cell once and the report equals the uninterrupted one."""
    tau_sim("run", "--resume", run_id, "--concurrency", "8", "--db", str(db), "--quiet")
    assert counts(db) == (GRID_CELLS, GRID_CELLS, GRID_CELLS) and gap_free(db)
    resumed = report(db)
    assert resumed["status"] == "completed"
    assert comparable(resumed) == expected


def test_a_disk_that_fills_mid_run_then_resume(tmp_path: Path, reference: dict) -> None:
    """The disk fills mid-run: exit 1, one line, ``failed`` (or ``stale``); freed, ``--resume``
    completes it.

    A ballast file leaves about 1 MB of an 8 MB tmpfs; the run (2 at a time, 20 ms a call)
    fills it after some conversations are stored. Deleting the ballast frees the disk.
    """
    with tmpfs(tmp_path / "disk", "8m") as disk:
        ballast = disk / "ballast"
        ballast.write_bytes(b"\0" * (7 * 2**20))
        db = disk / "results.db"
        run_id, status = stopped_mid_run(db, "disk full (database or disk is full)")
        # ``failed`` when the status write still fits; when the disk filled at a commit
        # boundary it does not, and the row reads ``stale`` (its process is gone): both resume
        assert (status, report(db)["status"]) in {("failed", "failed"), ("running", "stale")}
        ballast.unlink()
        resumed_whole(db, run_id, reference)


def test_a_disk_failing_mid_run_with_io_errors_then_resume(tmp_path: Path, reference: dict) -> None:
    """Writes fail with EIO mid-run: exit 1, one line naming the I/O error, nothing half-stored,
    the run ``stale``; once the disk is healed ``--resume`` completes it with the reference report.
    """
    with failing_disk(tmp_path / "eio", 2_400_000) as (disk, healed):  # 16 KB pages
        db = disk / "results.db"
        run_id, status = stopped_mid_run(db, "I/O error (disk I/O error)")
        healed.touch()
        # the failing disk took the final status write too: the row still reads ``running``,
        # and as its process is gone every reader shows it ``stale`` (resumable)
        assert status == "running" and report(db)["status"] == "stale"
        resumed_whole(db, run_id, reference)


def test_a_read_only_database_is_read_but_never_written(tmp_path: Path) -> None:
    """Reading commands work on a read-only mount; writing ones fail in one line, exit 1.

    ``mount -o remount,ro`` makes the file system refuse every write with EROFS, for root
    too. Two files: one closed cleanly (no ``-wal``: opened ``immutable``) and one left by a
    killed run (its ``-wal``/``-shm`` are read in place).
    """
    with tmpfs(tmp_path / "ro", "16m") as folder:
        clean, crashed = folder / "clean.db", folder / "crashed.db"
        tau_sim("run", "--tasks", "2", "--db", str(clean), "--quiet")
        proc = subprocess.Popen(
            [*TAU_SIM, "run", *SMALL, "--agent-arg", "latency=0.05", "--db", str(crashed)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.time() + 60
        while time.time() < deadline and counts_or_zero(crashed) < 2:
            time.sleep(0.1)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert Path(f"{crashed}-wal").exists()
        remount(folder, "ro")
        try:
            for db in (clean, crashed):
                before = sorted((p.name, digest(p)) for p in folder.iterdir())
                run_id = tau_sim("report", "--json", "--db", str(db)).stdout
                run_id = json.loads(run_id)["run_id"]
                assert run_id in tau_sim("runs", "--db", str(db)).stdout
                assert "rescored" in tau_sim("rescore", run_id, "--db", str(db)).stdout
                read_only = f"tau-sim: error: --db {db}: read-only ("
                assert fault("run", "--tasks", "1", "--db", str(db)).startswith(read_only)
                assert fault("rescore", run_id, "--write", "--db", str(db)).startswith(read_only)
                assert fault("run", "--resume", run_id, "--db", str(db)).startswith(read_only)
                assert sorted((p.name, digest(p)) for p in folder.iterdir()) == before
        finally:
            remount(folder, "rw")
        run_id, _ = stored_status(crashed)
        tau_sim("run", "--resume", run_id, "--concurrency", "12", "--db", str(crashed), "--quiet")
        assert counts(crashed) == (SMALL_CELLS,) * 3


def counts_or_zero(db: Path) -> int:
    try:
        return counts(db)[2]
    except sqlite3.Error:
        return 0


def corrupt(db: Path) -> None:
    """Overwrite eight pages in the middle of the file with garbage."""
    size = db.stat().st_size
    with db.open("r+b") as f:
        f.seek(size // 2 // 4096 * 4096)
        f.write(os.urandom(8 * 4096))


def test_a_corrupted_database_is_named_and_never_appended_to(tmp_path: Path) -> None:
    """``quick_check`` on opening: every command names the file as corrupted; no byte changes."""
    db = tmp_path / "results.db"
    tau_sim("run", *GRID, "--db", str(db), "--quiet")
    run_id, _ = stored_status(db)
    corrupt(db)
    before = digest(db)
    corrupted = f"tau-sim: error: --db {db} is corrupted ("
    for args in (
        ["run", "--tasks", "1"],
        ["run", "--resume", run_id],
        ["runs"],
        ["report"],
        ["rescore", run_id],
        ["rescore", run_id, "--write"],
    ):
        assert fault(*args, "--db", str(db)).startswith(corrupted), args
    assert digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.db"]


READ_AND_WRITE = (["run", "--tasks", "1"], ["runs"], ["report"])


@pytest.mark.parametrize(
    ("make", "message", "commands"),
    [
        (lambda p: p.write_text("tasks\n"), "is not a tau-sim database (not an SQLite file)", None),
        (
            lambda p: sqlite3.connect(p).execute("create table t (x)").connection.commit(),
            "is an SQLite file but not a tau-sim database",
            None,
        ),
        (lambda p: p.mkdir(), "is a directory", None),
        (lambda p: None, "there is no folder", [["run", "--tasks", "1"]]),
        (lambda p: None, "no database at", [["runs"], ["report"], ["run", "--resume", "r"]]),
    ],
    ids=["text-file", "foreign-sqlite", "directory", "no-folder", "no-file"],
)
def test_distinct_faults_have_distinct_messages(tmp_path: Path, make, message, commands) -> None:
    """Bad ``--db`` paths are bad input (exit 2), each with its own words; nothing is created."""
    target = tmp_path / "sub" / "x.db" if message == "there is no folder" else tmp_path / "x.db"
    make(target)
    before = sorted((p.name, digest(p) if p.is_file() else None) for p in tmp_path.iterdir())
    for args in commands or READ_AND_WRITE:
        assert message in fault(*args, "--db", str(target), code=2)
    assert sorted((p.name, digest(p) if p.is_file() else None) for p in tmp_path.iterdir()) == (
        before
    )


def slow_run(db: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    slow = ["--agent-arg", "latency=0.15", "--user-arg", "latency=0.15", "--concurrency", "2"]
    return subprocess.Popen(
        [*TAU_SIM, "run", *SMALL, *slow, "--db", str(db), "--quiet"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )


def runs_status(db: Path, env: dict[str, str]) -> str:
    out = subprocess.run(
        [*TAU_SIM, "report", "--json", "--db", str(db)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    status = json.loads(out.stdout)["status"]
    listing = subprocess.run(
        [*TAU_SIM, "runs", "--db", str(db)], capture_output=True, text=True, env=env, check=True
    )
    assert f" {status} " in listing.stdout
    return str(status)


def test_a_killed_run_reads_stale_and_resumes(tmp_path: Path) -> None:
    """A live run beats its heartbeat and cannot be resumed; killed with -9 it reads ``stale``.

    On this host the dead pid is seen at once; for a run of another host (its ``host``
    rewritten) only the heartbeat tells, after ``TAU_SIM_STALE_AFTER`` seconds.
    """
    env = {**os.environ, "TAU_SIM_STALE_AFTER": "1.5"}  # the writer then beats every 0.5 s
    db = tmp_path / "killed.db"
    proc = slow_run(db, env)
    deadline = time.time() + 60
    while time.time() < deadline and counts_or_zero(db) < 2:
        time.sleep(0.1)
    conn = sqlite3.connect(db)
    first = conn.execute("select heartbeat_at from runs").fetchone()[0]
    time.sleep(1.2)
    second, pid = conn.execute("select heartbeat_at, pid from runs").fetchone()
    assert pid == proc.pid and second > first
    assert runs_status(db, env) == "running"
    run_id, _ = stored_status(db)
    line = fault("run", "--resume", run_id, "--db", str(db), code=2, env=env)
    assert f"run {run_id} is still running (pid {proc.pid} on " in line
    assert proc.poll() is None, "the run finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert stored_status(db)[1] == "running"
    assert runs_status(db, env) == "stale"

    with conn:
        conn.execute("update runs set host = 'another-host'")
    conn.close()
    patient = {**env, "TAU_SIM_STALE_AFTER": "3600"}
    assert runs_status(db, patient) == "running"
    time.sleep(1.6)
    assert runs_status(db, env) == "stale"
    # every remaining conversation at once: they keep the run's 0.15 s a call
    resume = [*TAU_SIM, "run", "--resume", run_id, "--concurrency", str(SMALL_CELLS)]
    resume += ["--db", str(db), "--quiet"]
    subprocess.run(resume, env=env, check=True, capture_output=True, timeout=120)
    assert counts(db) == (SMALL_CELLS,) * 3 and gap_free(db)
    assert report(db)["status"] == "completed"


def test_stale_threshold_must_be_a_number(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    tau_sim("run", "--tasks", "1", "--db", str(db), "--quiet")
    env = {**os.environ, "TAU_SIM_STALE_AFTER": "-3"}
    line = fault("runs", "--db", str(db), code=2, env=env)
    assert "TAU_SIM_STALE_AFTER='-3': expected a positive number of seconds" in line


def test_a_database_locked_by_another_writer_is_one_line_and_nothing_lost(tmp_path: Path) -> None:
    """Another process holds the write lock past ``TAU_SIM_BUSY_TIMEOUT``: exit 1, one line;
    the stored run is untouched and, once the lock is gone, the same command succeeds."""
    db = tmp_path / "a.db"
    tau_sim("run", "--tasks", "2", "--db", str(db), "--quiet")
    before = digest(db)
    env = {**os.environ, "TAU_SIM_BUSY_TIMEOUT": "0.3"}
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("begin exclusive")
    try:
        line = fault("run", "--tasks", "2", "--db", str(db), "--quiet", env=env)
        assert line == f"tau-sim: error: --db {db}: database locked (database is locked)"
        assert report(db)["status"] == "completed"  # readers go on while a writer holds it
    finally:
        other.execute("rollback")
        other.close()
    assert digest(db) == before
    tau_sim("run", "--tasks", "2", "--db", str(db), "--quiet")
    bad = {**os.environ, "TAU_SIM_BUSY_TIMEOUT": "inf"}
    line = fault("run", "--tasks", "2", "--db", str(db), "--quiet", code=2, env=bad)
    assert "TAU_SIM_BUSY_TIMEOUT='inf': expected a positive number of seconds" in line
