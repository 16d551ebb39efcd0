"""The write-ahead log stays small: checkpointed every ``WAL_CHECKPOINT_BYTES`` (4 MB), not
SQLite's 1000 pages (16 MB at the store's page size), and truncated after a checkpoint."""

from __future__ import annotations

import contextlib
import os
import subprocess
import threading
from pathlib import Path

from tau_sim.simulator.store import Store
from tau_sim.simulator.store.opening import WAL_CHECKPOINT_BYTES
from tests.helpers.cli import TAU_SIM


def test_the_store_connection_checkpoints_every_four_megabytes(tmp_path: Path) -> None:
    store = Store(tmp_path / "s.db")
    try:
        [[pages]] = store.db.execute("pragma wal_autocheckpoint").fetchall()
        [[size]] = store.db.execute("pragma page_size").fetchall()
        [[limit]] = store.db.execute("pragma journal_size_limit").fetchall()
        assert pages * size == WAL_CHECKPOINT_BYTES == limit
    finally:
        store.close_sync()


def test_a_run_never_grows_its_log_far_past_the_checkpoint(tmp_path: Path) -> None:
    """A run that writes more than the checkpoint size: the log, watched while it plays,
    stays within the checkpoint size and a batch or two (it reached 16.5 MB before)."""
    db = tmp_path / "grow.db"
    wal = Path(f"{db}-wal")
    largest = 0
    done = threading.Event()

    def watch() -> None:
        nonlocal largest
        while not done.is_set():
            with contextlib.suppress(FileNotFoundError):
                largest = max(largest, wal.stat().st_size)
            done.wait(0.005)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        run = subprocess.run(
            [*TAU_SIM, "run", "--domain", "retail,airline", "--agent",
             "scripted/gold,scripted/over-asker", "--emotions", "neutral,anger",
             "--db", str(db), "--quiet"],
            capture_output=True, text=True, timeout=600,
        )  # fmt: skip
    finally:
        done.set()
        watcher.join()
    assert run.returncode == 0, run.stderr
    assert os.path.getsize(db) > WAL_CHECKPOINT_BYTES  # the run wrote more than one log's worth
    assert 0 < largest <= 2 * WAL_CHECKPOINT_BYTES, largest
