"""Processes that open a new ``--db`` at once: every one waits for the schema, none is refused.

Real files, real processes. Who creates the file is a matter of timing, so each test plays a
few rounds, and the processes are let go together: ``open_database`` in processes that meet at
a ``multiprocessing.Barrier`` first, and real ``tau-sim run`` processes that import the command,
say so on stderr and wait on stdin until all are ready (``main`` is what the console script
runs). Before the schema was created in one locked transaction a second opener could find
``meta`` without its version ("schema version unknown") or the journal mode being changed
("database is locked").
"""

import multiprocessing
import sqlite3
import subprocess
import sys
from multiprocessing.synchronize import Barrier
from pathlib import Path

from tests.helpers.cli import TIMEOUT

OPENERS = 8
OPEN_ROUNDS = 20
RUNS = 6
RUN_ROUNDS = 3
ARGS = ["run", "--tasks", "1", "--trials", "1", "--emotions", "neutral", "--quiet"]
CHILD = """
import sys
import tau_sim.simulator.cli.main as cli
import tau_sim.simulator.cli.play, tau_sim.simulator.run, tau_sim.simulator.store
print("ready", file=sys.stderr, flush=True)
sys.stdin.readline()
sys.exit(cli.main(sys.argv[1:]))
"""


def open_after(barrier: Barrier, db: Path) -> None:
    """Wait for the others, open ``db`` (exit status 3 with the error on stderr if refused)."""
    from tau_sim.simulator.store import open_database

    barrier.wait()
    try:
        open_database(db).conn.close()
    except Exception as exc:
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(3)


def schema_version(db: Path) -> tuple[str, ...] | None:
    """The ``schema_version`` row of ``db``'s ``meta``."""
    conn = sqlite3.connect(db)
    try:
        row: tuple[str, ...] | None = conn.execute(
            "select value from meta where key = 'schema_version'"
        ).fetchone()
        return row
    finally:
        conn.close()


def test_openers_at_once_on_a_new_db_all_open_it(tmp_path: Path) -> None:
    """``OPENERS`` processes open one new file together, ``OPEN_ROUNDS`` times: none fails."""
    spawn = multiprocessing.get_context("spawn")
    for round_ in range(OPEN_ROUNDS):
        db = tmp_path / f"new-{round_}.db"
        barrier = spawn.Barrier(OPENERS)
        procs = [spawn.Process(target=open_after, args=(barrier, db)) for _ in range(OPENERS)]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join(TIMEOUT)
        assert [proc.exitcode for proc in procs] == [0] * OPENERS, f"round {round_}"
        assert schema_version(db) == ("4",)


def run_at_once(db: Path) -> list[tuple[int, str]]:
    """Start ``RUNS`` runs on ``db``, let them go together; (exit status, stderr) of each."""
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CHILD, *ARGS, "--seed", str(seed), "--db", str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed in range(RUNS)
    ]
    for proc in procs:
        assert proc.stderr is not None
        assert proc.stderr.readline() == "ready\n"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("\n")
        proc.stdin.flush()
    return [
        (proc.returncode, err) for proc in procs for _, err in [proc.communicate(timeout=TIMEOUT)]
    ]


def test_runs_started_at_once_on_a_new_db_all_finish(tmp_path: Path) -> None:
    """``RUNS`` runs at once on a new file, ``RUN_ROUNDS`` times: all exit 0, all are stored."""
    for round_ in range(RUN_ROUNDS):
        db = tmp_path / f"new-{round_}.db"
        results = run_at_once(db)
        failed = [(code, err.strip()) for code, err in results if code != 0]
        assert not failed, f"round {round_}: {failed}"
        assert all("Traceback" not in err for _, err in results), results
        conn = sqlite3.connect(db)
        try:
            runs = conn.execute("select count(*) from runs where status = 'completed'").fetchone()
        finally:
            conn.close()
        assert runs == (RUNS,)
        assert schema_version(db) == ("4",)
