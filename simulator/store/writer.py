"""The store's one batching writer: the bus subscriber that commits every event to the file.

One writer task drains a bounded buffer (backpressure: nothing is dropped) and commits batches
in a worker thread; WAL mode lets readers (report, TUI, Tracer, Datasette) read while it
writes. A conversation's row is written when it is admitted (from its ``ConversationStarted``,
in the batch of its first events), never ahead for the whole grid; it is marked completed in the
same transaction as its last event, with its per-role usage (``tau_sim.simulator.store.usage``)
and its grading provenance (``tau_sim.simulator.core.grading``), so a crash never leaves a
completed conversation half-stored. An event's payload holds its own fields only
(``encode_payload``): its kind, conversation, seq and ts are the row's columns, with integer
keys for the conversation and the kind (``tau_sim.simulator.store.event_rows``).

A failed batch is rolled back whole and raised as ``StoreError``, so what it held stays
unfinished for ``--resume``. The writer's commits carry the run's heartbeat
(``runs.heartbeat_at``) once ``beat_for`` names the run.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio

from tau_sim.simulator.core.errors import ClaimLost, StoreError
from tau_sim.simulator.core.events import (
    ConversationEnded,
    ConversationStarted,
    Event,
    ModelUsage,
    breakdown_json,
    encode_payload,
    kind_of,
)
from tau_sim.simulator.core.grading import LIVE, SCORER_VERSION, grading_warnings
from tau_sim.simulator.grid.cells import cell_index
from tau_sim.simulator.store.event_rows import NEXT_KEY_SQL, kind_keys
from tau_sim.simulator.store.opening import open_database, storage_faults
from tau_sim.simulator.store.timeouts import HEARTBEAT_S, stale_after
from tau_sim.simulator.store.usage import ROLE_COLUMN_NAMES, UsageTally


@dataclass
class _Batch:
    """The rows of one commit: events, conversations started, conversations ended."""

    events: list[tuple[str, int, int, float, str]] = field(default_factory=list)
    started: list[tuple[Any, ...]] = field(default_factory=list)
    ended: list[tuple[Any, ...]] = field(default_factory=list)


_STARTED_SQL = (
    "insert into conversations (id, run_id, cell, task_id, domain, agent, user, emotion, "
    "intensity, trial, seed, politeness, urgency, trust, refusal, status, started_at, key) "
    f"values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, {NEXT_KEY_SQL}) "
    "on conflict (id) do update set status = 'running', started_at = excluded.started_at, "
    "refusal = excluded.refusal"
)
"""A conversation's row, written when it is admitted (its ``ConversationStarted``), with a new
key; a row that exists already is only marked running (it keeps its key) and gains
``refusal`` (a row stored before the column has NULL there)."""
_BARE_SQL = (
    f"insert into conversations (id, run_id, cell, status, key) values (?, ?, ?, 'running', "
    f"{NEXT_KEY_SQL}) on conflict (id) do nothing"
)
"""The row of a conversation whose events come without its ``ConversationStarted``."""
_EVENT_SQL = (
    "insert or replace into event_rows (conversation, seq, kind, ts, payload) "
    "values (?, ?, ?, ?, ?)"
)


_ENDED_SQL = (
    "update conversations set status = 'completed', reason = ?, reward = ?, abandoned = ?, "
    "breakdown = ?, detail = ?, turns = ?, tool_calls = ?, questions = ?, model_calls = ?, "
    "tokens_in = ?, tokens_out = ?, cost_usd = ?, "
    + "".join(f"{column} = ?, " for column in ROLE_COLUMN_NAMES)
    + "failure = ?, failure_detail = ?, scored_by = ?, scorer_version = ?, scored_at = ?, "
    "warnings = ?, ended_at = ? where id = ?"
)
"""A conversation marked completed, with its ending, its usage (``UsageTally.pop``) and its
grading provenance (``live``, this ``SCORER_VERSION``, its end, its warnings)."""


class Writer:
    """The writer side of the database: buffers the bus's events and commits them in batches.

    With ``create=False`` a missing file is a ``UsageError`` and nothing is created. Every
    write that fails raises a ``StoreError`` naming the file and the cause; the writer's
    first failure is also kept in ``failure``.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        queue_size: int = 8192,
        batch_size: int = 2048,
        flush_interval: float = 0.05,
        create: bool = True,
        busy_timeout: float | None = None,
    ) -> None:
        self.path = Path(path)
        self.db = open_database(self.path, create=create, busy_timeout=busy_timeout)
        self.failure: StoreError | None = None
        self.heartbeat_interval = min(HEARTBEAT_S, stale_after() / 3)
        self._run_id: str | None = None
        self._beat_at = 0.0
        self._pending: list[Event] = []
        self._capacity = queue_size
        self._batch_size = batch_size
        self.flush_interval = flush_interval
        self._wake = asyncio.Event()
        self._room = asyncio.Event()
        self._closing = False
        self._usage = UsageTally()
        self._limiter = anyio.CapacityLimiter(1)
        self._keys: dict[str, int] = {}
        with storage_faults(self.path):
            self._kinds = kind_keys(self.db.conn)
        self.events_written = 0

    # -- subscriber side -------------------------------------------------------------------
    def offer(self, event: Event) -> bool:
        """Buffer an event if there is room now; False when ``deliver`` must wait for room."""
        if len(self._pending) >= self._capacity:
            return False
        self._pending.append(event)
        return True

    async def deliver(self, event: Event) -> None:
        """Buffer an event for writing; waits while the buffer is full (never drops)."""
        while len(self._pending) >= self._capacity:
            self._wake.set()
            self._room.clear()
            await self._room.wait()
        self._pending.append(event)

    async def run_writer(self) -> None:
        """Commit what is buffered every ``flush_interval`` (sooner when full) until closed.

        Polling a plain list costs the producers nothing per event; one transaction and one
        thread hop per batch keeps the writer cheap at any event rate. The heartbeat rides on
        these commits (an empty one only when no event came for ``heartbeat_interval``). A
        failed commit is rolled back whole and raised as ``StoreError`` (also kept in
        ``failure``); the writer then stops, and what it had not committed stays unfinished.
        """
        while True:
            with anyio.move_on_after(self.flush_interval):
                await self._wake.wait()
            self._wake.clear()
            closing = self._closing
            idle = not self._pending
            while self._pending:
                items = self._pending[: self._batch_size]
                del self._pending[: self._batch_size]
                self._room.set()
                await self._commit(self._prepare(items))
            if idle and self._run_id and time.time() - self._beat_at >= self.heartbeat_interval:
                await self._commit(_Batch())
            if closing:
                return

    async def _commit(self, batch: _Batch) -> None:
        try:
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(self._write, batch, limiter=self._limiter)
        except StoreError as exc:
            self.failure = self.failure or exc
            raise

    async def close(self) -> None:
        """Ask the writer to finish after everything buffered so far."""
        self._closing = True
        self._wake.set()

    def _prepare(self, events: Sequence[Event]) -> _Batch:
        """The rows of ``events``; model usage is summed per conversation until its end."""
        batch = _Batch()
        kinds = self._kinds
        append = batch.events.append
        for ev in events:
            append((ev.conversation, ev.seq, kinds[kind_of(ev)], ev.ts, encode_payload(ev)))
            if isinstance(ev, ModelUsage):
                self._usage.add(ev)
            elif isinstance(ev, ConversationStarted):
                batch.started.append(
                    (
                        ev.conversation,
                        ev.run_id,
                        cell_index(ev.conversation),
                        ev.task_id,
                        ev.domain,
                        ev.agent,
                        ev.user,
                        ev.emotion,
                        ev.intensity,
                        ev.trial,
                        ev.seed,
                        ev.politeness,
                        ev.urgency,
                        ev.trust,
                        int(ev.refusal),
                        ev.ts,
                    )
                )
            elif isinstance(ev, ConversationEnded):
                breakdown = breakdown_json(ev.breakdown) if ev.breakdown else None
                batch.ended.append(
                    (
                        ev.reason,
                        ev.reward,
                        int(ev.reason == "user_abandoned"),
                        breakdown,
                        ev.detail,
                        ev.turns,
                        ev.tool_calls,
                        ev.questions,
                        *self._usage.pop(ev.conversation),
                        ev.failure,
                        ev.failure_detail if ev.failure else None,
                        LIVE,
                        SCORER_VERSION,
                        ev.ts,
                        json.dumps(grading_warnings(ev.breakdown, ev.warnings)),
                        ev.ts,
                        ev.conversation,
                    )
                )
        return batch

    def _write(self, batch: _Batch) -> None:
        conn = self.db.conn
        now = time.time()
        beat = self._run_id is not None and now - self._beat_at >= self.heartbeat_interval
        with storage_faults(self.path), conn:
            if self._run_id is not None:
                self._check_claim(conn, self._run_id)
            conn.executemany(_STARTED_SQL, batch.started)
            keys = self._keys  # a conversation's key is read once, at its first events
            conn.executemany(
                _EVENT_SQL,
                [
                    (keys.get(cid) or self._key_of(cid), seq, kind, ts, payload)
                    for cid, seq, kind, ts, payload in batch.events
                ],
            )
            conn.executemany(_ENDED_SQL, batch.ended)
            if beat:
                conn.execute("update runs set heartbeat_at = ? where id = ?", (now, self._run_id))
        if beat:
            self._beat_at = now
        for row in batch.ended:
            self._keys.pop(row[-1], None)
        self.events_written += len(batch.events)

    def _check_claim(self, conn: sqlite3.Connection, run_id: str) -> None:
        """Inside a write: refuse it (``ClaimLost``, rolled back) where the run is not ours.

        The run's row names the process that claimed it last (``Store.claim_run``).
        """
        row = conn.execute("select pid, host from runs where id = ?", [run_id]).fetchone()
        if row is not None and not owned_by_me(row[0], row[1]):
            raise ClaimLost(
                f"--db {self.path}: run {run_id} was resumed by another process (pid {row[0]} "
                f"on {row[1]}) while this one was stopped; this one stops without writing more"
            )

    def _key_of(self, conversation: str) -> int:
        """The key of a conversation's row (read, cached); a bare row is written if it has none."""
        conn = self.db.conn
        found = conn.execute("select key from conversations where id = ?", [conversation])
        row = found.fetchone()
        if row is None:
            run_id = conversation.rpartition("/")[0] or None
            conn.execute(_BARE_SQL, [conversation, run_id, cell_index(conversation)])
            row = conn.execute("select key from conversations where id = ?", [conversation])
            row = row.fetchone()
        self._keys[conversation] = int(row[0])
        return int(row[0])

    def beat_for(self, run_id: str, now: float) -> None:
        """Beat ``run_id``'s heartbeat on the commits from now on (last beaten at ``now``).

        Each commit then first checks that the run is still this process's (``ClaimLost``).
        """
        self._run_id = run_id
        self._beat_at = now

    def stop_beating(self) -> None:
        """No more heartbeats (the run is over)."""
        self._run_id = None

    def forget(self, conversation: str) -> None:
        """Forget a conversation's key (its row was deleted)."""
        self._keys.pop(conversation, None)

    def close_sync(self) -> None:
        """Checkpoint and close the connection."""
        self.db.conn.close()


def owned_by_me(pid: object, host: object) -> bool:
    """Whether a run row's ``pid`` and ``host`` name this process (no host stored: the pid)."""
    return pid == os.getpid() and host in (None, socket.gethostname())
