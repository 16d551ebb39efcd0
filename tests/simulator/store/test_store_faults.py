"""Storage faults in the process: a size-capped file and a locked file stop a run honestly.

Real SQLite files throughout. ``PRAGMA max_page_count`` caps the file of one connection (the
store's), so its writes fail with SQLITE_FULL exactly as on a full disk; a second connection
holding the write lock makes the store's commit time out with SQLITE_BUSY. The command-line
tests (a real full tmpfs, read-only mounts, corrupted files, kill -9) are in
``test_storage_cli.py``.
"""

import sqlite3
from pathlib import Path

import anyio
import pytest

from tau_sim.simulator.core.errors import StoreError, UsageError
from tau_sim.simulator.results.metrics import run_report
from tau_sim.simulator.run import Runner
from tau_sim.simulator.store import SCHEMA_VERSION, Store, get_run, open_database, run_state
from tests.simulator.toy import install
from tests.simulator.toy import toy_config as config

CELLS = 3 * (1 + 2) * 2


def reference(tmp_path: Path) -> dict:
    install()
    store = Store(tmp_path / "reference.db")
    anyio.run(Runner(store, config(), "run-1", create=True).run)
    return run_report(store.db, get_run(store.db, "run-1"))


def consistent(path: Path) -> tuple[int, int]:
    """(completed, unfinished) conversations; every completed one has its whole event log.

    A conversation's row is written when it is admitted, in the batch of its first event, so no
    stored event lacks its conversation's row, and the run's row holds the grid's size.
    """
    conn = sqlite3.connect(path)
    completed = conn.execute("select count(*) from conversations where status = 'completed'")
    unfinished = conn.execute("select count(*) from conversations where status != 'completed'")
    done, left = completed.fetchone()[0], unfinished.fetchone()[0]
    broken = conn.execute(
        "select count(*) from conversations c where c.status = 'completed' and not exists "
        "(select 1 from events e where e.conversation = c.id and e.kind = 'conversation_ended')"
    ).fetchone()[0]
    gaps = conn.execute(
        "select count(*) from (select conversation, count(*) n, max(seq) m from events "
        "group by conversation) where n != m + 1"
    ).fetchone()[0]
    orphans = conn.execute(
        "select count(*) from event_rows where conversation not in (select key from conversations)"
    ).fetchone()[0]
    total = conn.execute("select cells from runs").fetchone()[0]
    conn.close()
    assert broken == 0 and gaps == 0 and orphans == 0 and total == CELLS
    return done, left


@pytest.mark.parametrize("room", [1, 3, 6, 9])  # the whole run takes 10 pages of 4 KB
def test_a_full_file_fails_the_run_and_resume_finishes_it(tmp_path: Path, room: int) -> None:
    """The writer's SQLITE_FULL reaches the runner: the run is ``failed``, never ``completed``.

    Small batches make the writer commit every few events, so the cap is reached mid-run at
    ``room`` pages past the empty schema; lifting the cap (a new store) and resuming gives the
    report of an uninterrupted run.
    """
    expected = reference(tmp_path)
    path = tmp_path / "capped.db"
    made = sqlite3.connect(path)  # 4 KB pages (a WAL file keeps them): the cap falls mid-run
    made.execute("pragma page_size = 4096")
    made.execute("pragma journal_mode = wal")
    made.close()
    store = Store(path, batch_size=16)
    assert store.db.execute("pragma page_size").fetchone()[0] == 4096
    pages = store.db.execute("pragma page_count").fetchone()[0]
    store.db.execute(f"pragma max_page_count = {pages + room}")
    runner = Runner(store, config(), "run-1", create=True)
    with pytest.raises(BaseExceptionGroup) as failure:
        anyio.run(runner.run)
    assert failure.group_contains(StoreError, match=f"--db {path}: disk full \\(database or disk")
    assert store.failure is not None and "disk full" in str(store.failure)
    done, left = consistent(path)
    assert done < CELLS and done + left <= CELLS  # rows exist for admitted conversations only
    status = sqlite3.connect(path).execute("select status from runs").fetchone()[0]
    assert status == runner.status == "failed"
    store.close_sync()

    resumed = Store(path)
    again = Runner(resumed, config(), "run-1")
    assert len(list(again.pending_cells())) == CELLS - done
    assert anyio.run(again.run) == CELLS - done
    assert consistent(path) == (CELLS, 0)
    cells = resumed.db.execute("select count(distinct cell), count(*) from conversations")
    assert cells.fetchone() == (CELLS, CELLS)
    assert run_report(resumed.db, get_run(resumed.db, "run-1")) == expected


def test_a_file_locked_too_long_fails_the_run(tmp_path: Path) -> None:
    """Another writer holds the lock past the busy timeout: ``database locked``, nothing lost.

    The final status cannot be written either (the lock is still held), so the row stays
    ``running`` with this process's pid; once the lock is gone a resume finishes the run.
    """
    install()
    path = tmp_path / "locked.db"
    store = Store(path, busy_timeout=0.2)
    other = sqlite3.connect(path, isolation_level=None)
    ended = 0

    def lock_after_three(cell: object, event: object) -> None:
        nonlocal ended
        ended += 1
        if ended == 3:
            other.execute("begin immediate")

    runner = Runner(store, config(), "run-1", create=True, on_end=lock_after_three)
    with pytest.raises(BaseExceptionGroup) as failure:
        anyio.run(runner.run)
    assert failure.group_contains(StoreError, match="database locked \\(database is locked\\)")
    other.execute("rollback")
    other.close()
    done, left = consistent(path)
    assert done < CELLS and done + left <= CELLS
    row = open_database(path, readonly=True).execute("select status from runs").fetchone()
    assert row[0] == "running" and runner.status == "running"
    store.close_sync()
    resumed = Store(path)
    anyio.run(Runner(resumed, config(), "run-1").run)
    assert consistent(path) == (CELLS, 0)
    assert get_run(resumed.db, "run-1")["status"] == "completed"


def test_a_run_never_reads_completed_with_unfinished_cells(tmp_path: Path) -> None:
    """``finish_run`` checks the file: ``completed`` only when every cell completed."""
    install()
    path = tmp_path / "f.db"
    store = Store(path)
    anyio.run(Runner(store, config(), "run-1", create=True).run)
    with store.db.conn:
        store.db.execute("update conversations set status = 'running' where cell = 4")
    assert store.finish_run("run-1", "completed") == "failed"
    assert store.finish_run("run-1", "interrupted") == "interrupted"
    with store.db.conn:
        store.db.execute("update conversations set status = 'completed' where cell = 4")
    assert store.finish_run("run-1", "interrupted") == "completed"


def test_heartbeat_and_stale_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``running`` with a fresh heartbeat from a live process; ``stale`` otherwise."""
    install()
    store = Store(tmp_path / "h.db")
    anyio.run(Runner(store, config(), "run-1", create=True).run)
    row = get_run(store.db, "run-1")
    assert row["pid"] and row["host"] and row["heartbeat_at"] >= row["created_at"]
    live = {**row, "status": "running"}
    now = row["heartbeat_at"] + 10
    assert run_state(live, now) == "running"
    assert run_state({**live, "heartbeat_at": now - 31}, now) == "stale"
    monkeypatch.setenv("TAU_SIM_STALE_AFTER", "5")
    assert run_state(live, now) == "stale"
    assert run_state({**live, "host": "elsewhere"}, now) == "stale"
    monkeypatch.setenv("TAU_SIM_STALE_AFTER", "60")
    assert run_state({**live, "pid": 2**22 + 1}, now) == "stale"  # above Linux's pid_max
    assert run_state({**live, "pid": 2**22 + 1, "host": "elsewhere"}, now) == "running"
    # no process known to write it (a row of a tau-sim before the heartbeat): stale at once
    assert run_state({**live, "pid": None, "host": None, "heartbeat_at": None}, now) == "stale"
    assert run_state({**live, "heartbeat_at": None, "created_at": now}, now) == "running"
    monkeypatch.setenv("TAU_SIM_STALE_AFTER", "soon")
    with pytest.raises(UsageError, match="TAU_SIM_STALE_AFTER='soon': expected a positive"):
        run_state(live, now)


def test_rows_stored_before_the_heartbeat_are_migrated_in_place(tmp_path: Path) -> None:
    """A file without the heartbeat columns gains them, keeps its schema version and every row."""
    install()
    path = tmp_path / "old.db"
    store = Store(path)
    anyio.run(Runner(store, config(), "run-1", create=True).run)
    before = run_report(store.db, get_run(store.db, "run-1"))
    store.close_sync()
    conn = sqlite3.connect(path)
    with conn:
        for column in ("heartbeat_at", "pid", "host"):
            conn.execute(f"alter table runs drop column {column}")
    conn.close()
    reader = open_database(path, readonly=True)  # readers do not need the columns
    assert run_report(reader, get_run(reader, "run-1")) == before
    assert "pid" not in reader.table("runs").columns_dict
    writer = open_database(path)
    assert {"heartbeat_at", "pid", "host"} <= set(writer.table("runs").columns_dict)
    assert writer.execute("select value from meta").fetchone()[0] == str(SCHEMA_VERSION)
    assert run_report(writer, get_run(writer, "run-1")) == before
