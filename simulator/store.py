"""The SQLite store: runs, conversations and every event, written by one batching writer.

The database is the run's truth. One writer task drains a bounded queue (backpressure: nothing
is dropped) and commits batches in a worker thread; WAL mode lets readers (report, TUI,
Tracer, Datasette) read while it writes. A conversation is marked completed in the same
transaction as its last event, so a crash never leaves a completed conversation half-stored.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import msgspec
import sqlite_utils

from simulator.errors import SchemaVersionError, UsageError
from simulator.events import (
    ConversationEnded,
    ConversationStarted,
    Event,
    ModelUsage,
    decode,
    encode,
    kind_of,
)

SCHEMA_VERSION = 2
"""2: ``runs.tasks_hash`` (the hash of the run's task set, checked by ``--resume``) and the
``conversations`` columns ``politeness``, ``urgency``, ``trust`` (NULL: the leaf's own level)."""
LEVEL_COLUMNS = ("politeness", "urgency", "trust")
DEFAULT_DB = "tau-sim.db"
_json = msgspec.json.Encoder()


def _create_schema(db: sqlite_utils.Database) -> None:
    db.table("meta").create({"key": str, "value": str}, pk="key", if_not_exists=True)
    db.table("runs").create(
        {
            "id": str,
            "created_at": float,
            "ended_at": float,
            "status": str,
            "seed": int,
            "config": str,
            "cells": int,
            "tasks_hash": str,
        },
        pk="id",
        if_not_exists=True,
    )
    db.table("conversations").create(
        {
            "id": str,
            "run_id": str,
            "cell": int,
            "task_id": str,
            "domain": str,
            "agent": str,
            "user": str,
            "emotion": str,
            "intensity": float,
            "trial": int,
            "seed": int,
            "politeness": str,
            "urgency": str,
            "trust": str,
            "status": str,
            "reason": str,
            "reward": float,
            "abandoned": int,
            "breakdown": str,
            "detail": str,
            "turns": int,
            "tool_calls": int,
            "questions": int,
            "model_calls": int,
            "tokens_in": int,
            "tokens_out": int,
            "cost_usd": float,
            "started_at": float,
            "ended_at": float,
        },
        pk="id",
        if_not_exists=True,
    )
    db.table("conversations").create_index(["run_id", "cell"], unique=True, if_not_exists=True)
    db.table("events").create(
        {"conversation": str, "seq": int, "kind": str, "ts": float, "payload": str},
        pk=("conversation", "seq"),
        if_not_exists=True,
    )
    create_rescores_table(db)
    db.table("meta").upsert({"key": "schema_version", "value": str(SCHEMA_VERSION)}, pk="key")


def _migrate_from_1(db: sqlite_utils.Database) -> None:
    """Version 1 -> 2: add the level columns and ``runs.tasks_hash`` (NULL in stored rows).

    A run stored by version 1 has no task-set hash, so it can be reported and rescored but not
    resumed (``--resume`` says so).
    """
    with db.conn:
        columns = set(db.table("conversations").columns_dict)
        for column in LEVEL_COLUMNS:
            if column not in columns:
                db.execute(f"alter table conversations add column {column} text")
        if "tasks_hash" not in set(db.table("runs").columns_dict):
            db.execute("alter table runs add column tasks_hash text")
        db.execute("update meta set value = ? where key = 'schema_version'", [str(SCHEMA_VERSION)])


def create_rescores_table(db: sqlite_utils.Database) -> None:
    """The record of ``tau-sim rescore --write`` runs (created on demand in older files)."""
    db.table("rescores").create(
        {
            "id": int,
            "run_id": str,
            "rescored_at": float,
            "rescored": int,
            "changed": int,
            "tasks_file": str,
        },
        pk="id",
        if_not_exists=True,
    )


def open_database(path: str | Path, *, create: bool = True) -> sqlite_utils.Database:
    """Open (and create) the store at ``path``; version 1 is migrated, others are refused."""
    path = Path(path)
    if not path.exists() and not create:
        raise UsageError(f"--db: no database at {path}")
    if path.exists() and path.is_dir():
        raise UsageError(f"--db: {path} is a directory")
    try:
        conn = sqlite3.connect(path, check_same_thread=False, timeout=30)
        db = sqlite_utils.Database(conn)
        tables = set(db.table_names())
    except sqlite3.DatabaseError as exc:
        raise UsageError(f"--db: {path} is not a tau-sim database ({exc})") from None
    if tables and "meta" not in tables:
        raise UsageError(f"--db: {path} is an SQLite file but not a tau-sim database")
    if "meta" in tables:
        row = db.execute("select value from meta where key = 'schema_version'").fetchone()
        version = row[0] if row else "unknown"
        if version == "1":
            _migrate_from_1(db)
            version = str(SCHEMA_VERSION)
        if version != str(SCHEMA_VERSION):
            raise SchemaVersionError(
                f"--db: {path} has schema version {version}; this tau-sim reads version "
                f"{SCHEMA_VERSION} (use another --db or the tau-sim release that wrote it)"
            )
    db.execute("pragma journal_mode = wal")
    db.execute("pragma synchronous = normal")
    if not tables:
        if not create:
            raise UsageError(f"--db: {path} holds no tau-sim data")
        with db.conn:
            _create_schema(db)
    return db


@dataclass
class _Counters:
    model_calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0


@dataclass
class _Batch:
    events: list[tuple[str, int, str, float, str]] = field(default_factory=list)
    started: list[tuple[float, str]] = field(default_factory=list)
    ended: list[tuple[Any, ...]] = field(default_factory=list)


_ENDED_SQL = (
    "update conversations set status = 'completed', reason = ?, reward = ?, abandoned = ?, "
    "breakdown = ?, detail = ?, turns = ?, tool_calls = ?, questions = ?, model_calls = ?, "
    "tokens_in = ?, tokens_out = ?, cost_usd = ?, ended_at = ? where id = ?"
)


class Store:
    """The writer side of the database, plus the run bookkeeping the runner needs.

    With ``create=False`` a missing file is a ``UsageError`` and nothing is created.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        queue_size: int = 8192,
        batch_size: int = 2048,
        flush_interval: float = 0.05,
        create: bool = True,
    ) -> None:
        self.path = Path(path)
        self.db = open_database(self.path, create=create)
        self._pending: list[Event] = []
        self._capacity = queue_size
        self._batch_size = batch_size
        self.flush_interval = flush_interval
        self._wake = asyncio.Event()
        self._room = asyncio.Event()
        self._closing = False
        self._counters: dict[str, _Counters] = {}
        self._limiter = anyio.CapacityLimiter(1)
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
        thread hop per batch keeps the writer cheap at any event rate.
        """
        while True:
            with anyio.move_on_after(self.flush_interval):
                await self._wake.wait()
            self._wake.clear()
            closing = self._closing
            while self._pending:
                items = self._pending[: self._batch_size]
                del self._pending[: self._batch_size]
                self._room.set()
                batch = self._prepare(items)
                with anyio.CancelScope(shield=True):
                    await anyio.to_thread.run_sync(self._write, batch, limiter=self._limiter)
            if closing:
                return

    async def close(self) -> None:
        """Ask the writer to finish after everything buffered so far."""
        self._closing = True
        self._wake.set()

    def _prepare(self, events: Sequence[Event]) -> _Batch:
        batch = _Batch()
        append = batch.events.append
        for ev in events:
            append((ev.conversation, ev.seq, kind_of(ev), ev.ts, encode(ev).decode()))
            if isinstance(ev, ModelUsage):
                c = self._counters.setdefault(ev.conversation, _Counters())
                c.model_calls += 1
                c.tokens_in += ev.tokens_in
                c.tokens_out += ev.tokens_out
                c.cost_usd += ev.cost_usd or 0.0
            elif isinstance(ev, ConversationStarted):
                batch.started.append((ev.ts, ev.conversation))
            elif isinstance(ev, ConversationEnded):
                c = self._counters.pop(ev.conversation, _Counters())
                breakdown = _json.encode(ev.breakdown).decode() if ev.breakdown else None
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
                        c.model_calls,
                        c.tokens_in,
                        c.tokens_out,
                        c.cost_usd,
                        ev.ts,
                        ev.conversation,
                    )
                )
        return batch

    def _write(self, batch: _Batch) -> None:
        conn = self.db.conn
        with conn:
            conn.executemany(
                "insert or replace into events (conversation, seq, kind, ts, payload) "
                "values (?, ?, ?, ?, ?)",
                batch.events,
            )
            conn.executemany(
                "update conversations set status = 'running', started_at = ? where id = ?",
                batch.started,
            )
            conn.executemany(_ENDED_SQL, batch.ended)
        self.events_written += len(batch.events)

    # -- run bookkeeping (called outside the hot path) ---------------------------------------
    def create_run(
        self, run_id: str, seed: int, config: str, cells: int, *, tasks_hash: str
    ) -> None:
        """Record a new run with the hash of its task set (``grid.task_set_hash``)."""
        with self.db.conn:
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
                }
            )

    def tasks_hash(self, run_id: str) -> str | None:
        """The task-set hash a run was created with (None: no such run, or a version-1 run)."""
        row = self.db.execute("select tasks_hash from runs where id = ?", [run_id]).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def set_run_status(self, run_id: str, status: str) -> None:
        """Mark a run running, completed, interrupted or failed."""
        ended = None if status == "running" else time.time()
        with self.db.conn:
            self.db.table("runs").update(run_id, {"status": status, "ended_at": ended})

    def register_conversations(self, rows: Sequence[dict[str, Any]]) -> None:
        """Insert the rows of conversations about to start (status ``pending``)."""
        with self.db.conn:
            self.db.table("conversations").insert_all(rows, replace=True)

    def completed_cells(self, run_id: str) -> set[int]:
        """Grid cells of a run whose conversation completed."""
        rows = self.db.execute(
            "select cell from conversations where run_id = ? and status = 'completed'", [run_id]
        )
        return {r[0] for r in rows}

    def discard_unfinished(self, run_id: str) -> int:
        """Delete conversations of a run that did not complete, with their events."""
        with self.db.conn:
            ids = [
                r[0]
                for r in self.db.execute(
                    "select id from conversations where run_id = ? and status != 'completed'",
                    [run_id],
                )
            ]
            for cid in ids:
                self.db.execute("delete from events where conversation = ?", [cid])
                self.db.execute("delete from conversations where id = ?", [cid])
        return len(ids)

    def discard_reason(self, run_id: str, reason: str) -> int:
        """Delete a run's completed conversations that ended with ``reason``, with their events.

        ``--resume`` plays such cells again (conversations an endpoint ended).
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
                self.db.execute("delete from events where conversation = ?", [cid])
                self.db.execute("delete from conversations where id = ?", [cid])
        return len(ids)

    def close_sync(self) -> None:
        """Checkpoint and close the connection."""
        self.db.conn.close()


def get_run(db: sqlite_utils.Database, run_id: str | None) -> dict[str, Any]:
    """A run row by id, or the latest run; ``UsageError`` when there is none."""
    if run_id is None:
        rows = list(db.query("select * from runs order by created_at desc limit 1"))
        if not rows:
            raise UsageError("no runs in this database (start one with `tau-sim run`)")
        return rows[0]
    rows = list(db.query("select * from runs where id = ?", [run_id]))
    if not rows:
        raise UsageError(f"no run {run_id!r} in this database (see `tau-sim runs`)")
    return rows[0]


def iter_events(db: sqlite_utils.Database, conversation: str) -> Iterator[Event]:
    """The events of one conversation in order."""
    for row in db.execute(
        "select payload from events where conversation = ? order by seq", [conversation]
    ):
        yield decode(row[0])
