"""The run lifecycle in the store: ``Store``, the batching writer with a run's bookkeeping.

``Store`` is what the runner holds: the batching writer (``tau_sim.simulator.store.writer``)
plus the bookkeeping of a run (create, claim for ``--resume``, the cells already done, the
unfinished ones discarded, its status, finish). The writer's commits carry the run's heartbeat
(``runs.heartbeat_at``, with the writer's ``pid`` and ``host``), so a run whose process died
reads ``stale``, not ``running`` (``tau_sim.simulator.store.reads.run_state``).
"""

from __future__ import annotations

import os
import socket
import time

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.grid.cells import CellSet
from tau_sim.simulator.store.opening import storage_faults
from tau_sim.simulator.store.reads import played_seconds, run_state
from tau_sim.simulator.store.timeouts import STALE_AFTER_ENV, stale_after
from tau_sim.simulator.store.writer import Writer, owned_by_me


class Store(Writer):
    """The writer side of the database, plus the run bookkeeping the runner needs.

    With ``create=False`` a missing file is a ``UsageError`` and nothing is created. Every
    write that fails raises a ``StoreError`` naming the file and the cause; the writer's
    first failure is also kept in ``failure``.
    """

    def create_run(
        self, run_id: str, seed: int, config: str, cells: int, *, tasks_hash: str
    ) -> None:
        """Record a new run with the hash of its task set (``grid.task_set_hash``).

        The row names this process (``pid``, ``host``) from the start, so a process killed
        before its first heartbeat leaves a run that reads ``stale`` at once.
        """
        with storage_faults(self.path), self.db.conn:
            self.db.table("runs").insert(
                {
                    "id": run_id,
                    "created_at": time.time(),
                    "ended_at": None,
                    "status": "running",
                    "seed": seed,
                    "config": config,
                    "cells": cells,
                    "tasks_hash": tasks_hash,
                    "pid": os.getpid(),
                    "host": socket.gethostname(),
                }
            )

    def tasks_hash(self, run_id: str) -> str | None:
        """The task-set hash a run was created with (None: no such run, or a version-1 run)."""
        row = self.db.execute("select tasks_hash from runs where id = ?", [run_id]).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def set_run_status(self, run_id: str, status: str) -> None:
        """Mark a run running, completed, interrupted or failed (as told: see ``finish_run``)."""
        ended = None if status == "running" else time.time()
        with storage_faults(self.path), self.db.conn:
            self.db.table("runs").update(run_id, {"status": status, "ended_at": ended})

    def claim_run(self, run_id: str) -> None:
        """Mark a run ``running`` by this process (pid, host) and beat its heartbeat from now on.

        A run another live process is playing (``running``, its heartbeat fresh) is refused
        (``UsageError``): the row is read and written in one ``BEGIN IMMEDIATE`` transaction, so
        of two ``--resume`` started at once only one plays.

        The writer's commits refresh ``runs.heartbeat_at`` every ``heartbeat_interval``. The
        time the earlier invocations played (``played_seconds``) is kept in ``earlier_s`` and
        this one's starts at ``claimed_at``.
        """
        now = time.time()
        conn = self.db.conn
        with storage_faults(self.path):
            conn.execute("begin immediate")  # read and claim under the write lock: one claimer
            try:
                run = self.db.table("runs").get(run_id)
                _check_unclaimed(run, now)
                self.db.table("runs").update(
                    run_id,
                    {
                        "status": "running",
                        "ended_at": None,
                        "heartbeat_at": now,
                        "pid": os.getpid(),
                        "host": socket.gethostname(),
                        "claimed_at": now,
                        "earlier_s": played_seconds(run),
                    },
                )
            except BaseException:
                conn.rollback()
                raise
            conn.commit()
        self.beat_for(run_id, now)

    def finish_run(self, run_id: str, status: str) -> str:
        """Store a run's final status and return it: ``completed`` only if every cell is.

        ``status`` is what the runner saw (``completed``, ``interrupted`` or ``failed``). The
        stored status is ``completed`` when the file holds as many completed conversations of
        the run as its stored total of cells (``runs.cells``: rows exist only for admitted
        conversations, so the count is against the total, never against the rows), whatever
        ``status`` says; otherwise ``status``, except that ``completed``
        becomes ``failed``. One statement: the count and the status are read and written in
        one transaction, and only while the run is this process's (else ``ClaimLost``: another
        process resumed it and owns its row).
        """
        self.stop_beating()
        fallback = "failed" if status == "completed" else status
        with storage_faults(self.path), self.db.conn:
            self._check_claim(self.db.conn, run_id)
            self.db.execute(
                "update runs set ended_at = ?, status = case when (select count(*) from "
                "conversations where run_id = runs.id and status = 'completed') >= cells "
                "then 'completed' else ? end where id = ?",
                [time.time(), fallback, run_id],
            )
        row = self.db.execute("select status from runs where id = ?", [run_id]).fetchone()
        return str(row[0])

    def done_cells(self, run_id: str, size: int) -> CellSet:
        """The cells of a run of ``size`` cells whose conversation completed, as a bitmap.

        One pass over the run's completed rows; what it holds is one bit per cell of the grid.
        """
        done = CellSet(size)
        rows = self.db.execute(
            "select cell from conversations where run_id = ? and status = 'completed'", [run_id]
        )
        for (cell,) in rows:
            if cell is not None and 0 <= cell < size:
                done.add(cell)
        return done

    def completed_count(self, run_id: str) -> int:
        """How many conversations of a run completed."""
        row = self.db.execute(
            "select count(*) from conversations where run_id = ? and status = 'completed'",
            [run_id],
        ).fetchone()
        return int(row[0])

    def discard_unfinished(self, run_id: str) -> int:
        """Delete conversations of a run that did not complete, with their events."""
        with storage_faults(self.path), self.db.conn:
            ids = [
                r[0]
                for r in self.db.execute(
                    "select id from conversations where run_id = ? and status != 'completed'",
                    [run_id],
                )
            ]
            for cid in ids:
                self._discard(cid)
        return len(ids)

    def discard_reason(self, run_id: str, reason: str) -> int:
        """Delete a run's completed conversations that ended with ``reason``, with their events.

        ``--resume`` plays such cells again (conversations an endpoint or the user simulator
        ended).
        """
        with self.db.conn:
            ids = [
                r[0]
                for r in self.db.execute(
                    "select id from conversations where run_id = ? and status = 'completed' "
                    "and reason = ?",
                    [run_id, reason],
                )
            ]
            for cid in ids:
                self._discard(cid)
        return len(ids)

    def _discard(self, conversation: str) -> None:
        """Delete one conversation's events and row (inside the caller's transaction)."""
        self.db.execute(
            "delete from event_rows where conversation = "
            "(select key from conversations where id = ?)",
            [conversation],
        )
        self.db.execute("delete from conversations where id = ?", [conversation])
        self.forget(conversation)


def _check_unclaimed(run: dict[str, object], now: float) -> None:
    """Refuse a run that another live process is playing (its own row: this process's)."""
    if owned_by_me(run.get("pid"), run.get("host")) or run_state(run, now) != "running":
        return
    beat = run.get("heartbeat_at") or run["created_at"]
    assert isinstance(beat, int | float)
    raise UsageError(
        f"--resume: run {run['id']} is being played by another process (pid {run.get('pid')} "
        f"on {run.get('host')}), its last heartbeat {now - beat:.0f} s ago; stop it, or wait "
        f"until it reads stale (no heartbeat for {stale_after():g} s, {STALE_AFTER_ENV})"
    )
