"""The SQLite store: runs, conversations and every event, written by one batching writer.

The database is the run's truth. One writer task drains a bounded queue (backpressure: nothing
is dropped) and commits batches in a worker thread; WAL mode lets readers (report, TUI,
Tracer, Datasette) read while it writes. A conversation's row is written when it is admitted
(from its ``ConversationStarted``, in the batch of its first events), never ahead for the whole
grid; it is marked completed in the same transaction as its last event, so a crash never leaves
a completed conversation half-stored. An event's payload holds its own fields only
(``encode_payload``): its kind, conversation, seq and ts are the row's columns. Events are kept
with integer keys for their conversation and kind in ``event_rows`` and read through the view
``events`` (``tau_sim.simulator.store.event_rows``).

Storage faults are ``StoreError`` (exit code 1) naming the file and the cause (disk full,
I/O error, read-only, locked, corrupted); a failed batch is rolled back whole, so what it held
stays unfinished for ``--resume``. The writer's commits carry the run's heartbeat
(``runs.heartbeat_at``, with the writer's ``pid`` and ``host``), so a run whose process died
reads ``stale``, not ``running``. Reading commands open the file read-only.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
import msgspec
import sqlite_utils

from tau_sim.simulator.core.errors import SchemaVersionError, StoreError, UsageError
from tau_sim.simulator.core.events import (
    ConversationEnded,
    ConversationStarted,
    Event,
    ModelUsage,
    breakdown_json,
    decode_stored,
    encode_payload,
    kind_of,
)
from tau_sim.simulator.grid import CellSet, cell_index
from tau_sim.simulator.store.event_rows import (
    NEXT_KEY_SQL,
    PAGE_SIZE,
    create_event_rows,
    has_event_rows,
    kind_keys,
    migrate_events,
)

SCHEMA_VERSION = 3
"""3: events in ``event_rows`` with integer conversation and kind keys (``conversations.key``,
``event_kinds``), read through the view ``events`` (``simulator.store.event_rows``); new files have
16 KB pages. 2: ``runs.tasks_hash`` (the hash of the run's task set, checked by ``--resume``)
and the ``conversations`` columns ``politeness``, ``urgency``, ``trust`` (NULL: the leaf's own
level). Added in place without a version change: ``runs.heartbeat_at``, ``runs.pid``, ``runs.host``
(NULL in runs stored before them; readers do not need them), and the ``conversations``
columns of ``CONVERSATION_COLUMNS`` (per-role tokens and cost, the failure reason)."""
LEVEL_COLUMNS = ("politeness", "urgency", "trust")
ROLES = ("agent", "user", "judge")
"""The roles whose model calls are accounted apart (the judge's: ``run --judge`` and
``tau-sim review``)."""
ROLE_FIELDS = {
    "tokens_in": "integer",
    "tokens_out": "integer",
    "tokens_cached": "integer",
    "cost_usd": "float",
    "unpriced": "integer",
    "simulated": "integer",
}
"""Per role: prompt, completion and cached prompt tokens, dollars (NULL: no priced call), how
many calls of a real model had no price, and how many turns a scripted actor played (no model:
no tokens, no dollars)."""
CONVERSATION_COLUMNS = {
    **{f"{role}_{name}": kind for role in ROLES for name, kind in ROLE_FIELDS.items()},
    "failure": "text",
    "failure_detail": "text",
}
"""Columns of ``conversations`` that older files may lack, with their SQL types."""
SIMULATED_BACKENDS = frozenset({"scripted"})
"""Backends that are no model (scripted actors): counted as ``simulated``, never unpriced."""
RUN_COLUMNS = {"tasks_hash": "text", "heartbeat_at": "float", "pid": "integer", "host": "text"}
"""Columns of ``runs`` that older files may lack, with their SQL types (added when opened)."""
DEFAULT_DB = "tau-sim.db"
BUSY_TIMEOUT_S = 30.0
"""How long a write waits for another writer's lock before it is a ``database locked`` fault
(``TAU_SIM_BUSY_TIMEOUT``)."""
BUSY_TIMEOUT_ENV = "TAU_SIM_BUSY_TIMEOUT"
HEARTBEAT_S = 5.0
"""How often the writer's commits refresh ``runs.heartbeat_at`` (at most)."""
STALE_AFTER_S = 30.0
"""A ``running`` run without a heartbeat for this long reads ``stale`` (``TAU_SIM_STALE_AFTER``)."""
STALE_AFTER_ENV = "TAU_SIM_STALE_AFTER"
SQLITE_HEADER = b"SQLite format 3\x00"
_json = msgspec.json.Encoder()

_CAUSES = {
    "SQLITE_FULL": "disk full",
    "SQLITE_IOERR": "I/O error",
    "SQLITE_READONLY": "read-only",
    "SQLITE_BUSY": "database locked",
    "SQLITE_LOCKED": "database locked",
    "SQLITE_CANTOPEN": "cannot open",
    "SQLITE_PERM": "permission denied",
    "SQLITE_AUTH": "permission denied",
    "SQLITE_NOLFS": "file too large",
    "SQLITE_TOOBIG": "row too large",
}
_CORRUPT = ("SQLITE_CORRUPT", "SQLITE_NOTADB")


def storage_fault(path: str | Path, exc: sqlite3.Error) -> StoreError:
    """The ``StoreError`` of an SQLite failure on ``path``: ``--db PATH: CAUSE (SQLite's words)``.

    A corrupted file reads ``--db PATH is corrupted (...)``; the cause comes from the primary
    result code (``SQLITE_IOERR_WRITE`` is an I/O error).
    """
    name = getattr(exc, "sqlite_errorname", None) or ""
    primary = "_".join(name.split("_")[:2])
    if primary in _CORRUPT:
        return StoreError(f"--db {path} is corrupted ({exc})")
    cause = _CAUSES.get(primary, f"storage error {name}" if name else "storage error")
    if primary == "SQLITE_CANTOPEN" and not _writable(Path(path)):
        return StoreError(f"--db {path}: read-only (the file or its folder: {exc})")
    return StoreError(f"--db {path}: {cause} ({exc})")


def _writable(path: Path) -> bool:
    """Whether ``path`` (when it exists) and its folder take writes (EROFS counts, for root)."""
    return (not path.exists() or os.access(path, os.W_OK)) and os.access(path.parent, os.W_OK)


@contextmanager
def storage_faults(path: str | Path) -> Iterator[None]:
    """Turn an ``sqlite3.Error`` inside the block into the ``StoreError`` naming ``path``."""
    try:
        yield
    except sqlite3.Error as exc:
        raise storage_fault(path, exc) from None


def stale_after() -> float:
    """Seconds without a heartbeat after which a ``running`` run reads ``stale``."""
    return _seconds(STALE_AFTER_ENV, STALE_AFTER_S)


def default_busy_timeout() -> float:
    """Seconds a write waits for another writer's lock (``TAU_SIM_BUSY_TIMEOUT``, default 30)."""
    return _seconds(BUSY_TIMEOUT_ENV, BUSY_TIMEOUT_S)


def _seconds(variable: str, default: float) -> float:
    """The positive number of seconds in environment ``variable``, or ``default`` if unset."""
    text = os.environ.get(variable)
    if text is None:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise UsageError(f"{variable}={text!r}: expected a positive number of seconds")
    return seconds


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
            "heartbeat_at": float,
            "pid": int,
            "host": str,
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
            "key": int,
            **{
                column: (int if kind == "integer" else float if kind == "float" else str)
                for column, kind in CONVERSATION_COLUMNS.items()
            },
        },
        pk="id",
        if_not_exists=True,
    )
    db.table("conversations").create_index(["run_id", "cell"], unique=True, if_not_exists=True)
    create_event_rows(db.conn)
    create_rescores_table(db)
    db.table("meta").upsert({"key": "schema_version", "value": str(SCHEMA_VERSION)}, pk="key")


def _missing_columns(db: sqlite_utils.Database) -> list[tuple[str, str, str]]:
    """(table, column, type) of every column a version-1 or early version-2 file lacks."""
    missing = [
        ("conversations", column, "text")
        for column in LEVEL_COLUMNS
        if column not in db.table("conversations").columns_dict
    ]
    runs = db.table("runs").columns_dict
    missing += [("runs", c, kind) for c, kind in RUN_COLUMNS.items() if c not in runs]
    have = db.table("conversations").columns_dict
    missing += [
        ("conversations", c, kind) for c, kind in CONVERSATION_COLUMNS.items() if c not in have
    ]
    return missing


def _add_columns(db: sqlite_utils.Database) -> None:
    """Add the missing columns (NULL in stored rows) and mark the file as this version.

    Version 1 -> 2 adds the level columns and ``runs.tasks_hash``: a run stored by version 1
    has no task-set hash, so it can be reported and rescored but not resumed (``--resume``
    says so). Any version-2 file gains the heartbeat, per-role cost and failure columns the
    same way. Runs inside the caller's transaction.
    """
    for table, column, kind in _missing_columns(db):
        db.execute(f"alter table {table} add column {column} {kind}")
    db.execute("update meta set value = ? where key = 'schema_version'", [str(SCHEMA_VERSION)])


def _migrate(db: sqlite_utils.Database, *, version: str) -> None:
    """Bring a file of an older version (or layout) to this one, in one transaction.

    ``_add_columns``, then (versions 1 and 2) ``migrate_events``: the ``events`` table becomes
    ``event_rows`` and the view. A failure (or a crash) anywhere rolls it all back: the file
    stays as it was.
    """
    moved = has_event_rows(db)
    if moved and not _missing_columns(db) and version == str(SCHEMA_VERSION):
        return
    conn = db.conn
    conn.execute("begin immediate")
    try:
        _add_columns(db)
        if not moved:
            migrate_events(conn)
    except BaseException:
        conn.rollback()
        raise
    conn.commit()


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


def open_database(
    path: str | Path,
    *,
    create: bool = True,
    readonly: bool = False,
    busy_timeout: float | None = None,
) -> sqlite_utils.Database:
    """Open (and create) the store at ``path``, checked before anything is written.

    Distinct faults, distinct errors: a missing file, a directory, a file that is not SQLite,
    an SQLite file without tau-sim's tables and another schema version are ``UsageError``s
    (bad input); a file that fails ``PRAGMA quick_check`` (``--db PATH is corrupted``), or
    that cannot be opened, read or (unless ``readonly``) written is a ``StoreError``. A file
    that is written to is first quick-checked, then a write lock is taken and released, so a
    corrupted or read-only file is refused before a byte changes.

    Older files are migrated in place, in one transaction (``_migrate``); with ``readonly``
    nothing is written: a version-2 file is read as it is (its ``events`` table has the
    view's columns), a version-1 file gains its missing columns in a copy in memory. New files
    get ``PAGE_SIZE`` pages. A write waits
    ``busy_timeout`` seconds for another writer's lock (default ``default_busy_timeout()``).
    """
    path = Path(path)
    wait = busy_timeout if busy_timeout is not None else default_busy_timeout()
    if not path.exists() and (readonly or not create):
        raise UsageError(f"--db: no database at {path}")
    if path.exists() and path.is_dir():
        raise UsageError(f"--db: {path} is a directory")
    if not path.parent.is_dir():
        raise UsageError(f"--db: {path}: there is no folder {path.parent}")
    _check_header(path)
    with storage_faults(path):
        conn = _connect(path, readonly=readonly, busy_timeout=wait)
    try:
        with storage_faults(path):
            _quick_check(path, conn)
            db = _open_schema(path, sqlite_utils.Database(conn), create=create, readonly=readonly)
    except BaseException:
        conn.close()
        raise
    return db


def _check_header(path: Path) -> None:
    """``UsageError`` for a non-empty file that does not start like an SQLite database."""
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"--db {path}: cannot open ({exc.strerror or exc})") from None
    if head and head != SQLITE_HEADER:
        raise UsageError(f"--db: {path} is not a tau-sim database (not an SQLite file)")


def _connect(path: Path, *, readonly: bool, busy_timeout: float) -> sqlite3.Connection:
    """A connection to ``path``: read-write (created if absent), or read-only.

    Read-only is ``mode=ro``; when that cannot open a WAL file because its ``-shm`` cannot be
    created (a read-only directory or mount) and no ``-wal`` file is there to be missed, the
    file is opened ``immutable`` (nothing can change it there).
    """
    if not readonly:
        return sqlite3.connect(path, check_same_thread=False, timeout=busy_timeout)
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=busy_timeout)
    try:
        conn.execute("select count(*) from sqlite_master").fetchone()
    except sqlite3.OperationalError:
        if Path(f"{path}-wal").exists():
            conn.close()
            raise
        conn.close()
        conn = sqlite3.connect(f"{uri}&immutable=1", uri=True, check_same_thread=False)
    return conn


def _quick_check(path: Path, conn: sqlite3.Connection) -> None:
    """``StoreError`` when ``PRAGMA quick_check`` finds damage (about 1 ms per MB, cached).

    A damaged page may also make the check itself fail with SQLite's "malformed" error.
    """
    try:
        rows = conn.execute("pragma quick_check").fetchall()
    except sqlite3.DatabaseError as exc:
        if getattr(exc, "sqlite_errorname", "").startswith(_CORRUPT):
            raise StoreError(f"--db {path} is corrupted (quick_check: {exc})") from None
        raise
    if rows != [("ok",)]:
        first = str(rows[0][0]).replace("*** in database main ***", "") if rows else "no result"
        first = "; ".join(line.strip() for line in first.splitlines() if line.strip())
        more = f"; {len(rows) - 1} more problems" if len(rows) > 1 else ""
        raise StoreError(f"--db {path} is corrupted (quick_check: {first}{more})")


def _open_schema(
    path: Path, db: sqlite_utils.Database, *, create: bool, readonly: bool
) -> sqlite_utils.Database:
    """Check tau-sim's tables and version; migrate, create the schema and take a write lock."""
    tables = set(db.table_names())
    if tables and "meta" not in tables:
        raise UsageError(f"--db: {path} is an SQLite file but not a tau-sim database")
    version = str(SCHEMA_VERSION)
    if "meta" in tables:
        row = db.execute("select value from meta where key = 'schema_version'").fetchone()
        version = row[0] if row else "unknown"
        if version not in ("1", "2", str(SCHEMA_VERSION)):
            raise SchemaVersionError(
                f"--db: {path} has schema version {version}; this tau-sim reads version "
                f"{SCHEMA_VERSION} (use another --db or the tau-sim release that wrote it)"
            )
    if readonly:
        if not tables:
            raise UsageError(f"--db: {path} holds no tau-sim data")
        if version == "1":  # readers need the level columns: migrate a copy, not the file
            memory = sqlite3.connect(":memory:", check_same_thread=False)
            db.conn.backup(memory)
            db.conn.close()
            db = sqlite_utils.Database(memory)
            with db.conn:
                _add_columns(db)
        return db
    if not tables:  # before the first page is written: WAL fixes the page size
        db.execute(f"pragma page_size = {PAGE_SIZE}")
    db.execute("pragma journal_mode = wal")
    db.execute("pragma synchronous = normal")
    db.execute("begin immediate")  # a read-only file or a held lock fails here, not mid-run
    db.execute("rollback")
    if "meta" in tables:
        _migrate(db, version=version)
    elif not tables:
        if not create:
            raise UsageError(f"--db: {path} holds no tau-sim data")
        with db.conn:
            _create_schema(db)
    return db


@dataclass
class _RoleCounters:
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0
    cost_usd: float | None = None
    unpriced: int = 0
    simulated: int = 0

    def add(self, ev: ModelUsage) -> None:
        self.tokens_in += ev.tokens_in
        self.tokens_out += ev.tokens_out
        self.tokens_cached += ev.tokens_cached
        if ev.backend in SIMULATED_BACKENDS:  # no model: nothing to price, never unpriced
            self.simulated += 1
        elif ev.cost_usd is None:
            self.unpriced += 1
        else:
            self.cost_usd = (self.cost_usd or 0.0) + ev.cost_usd

    def values(self) -> tuple[Any, ...]:
        return (
            self.tokens_in,
            self.tokens_out,
            self.tokens_cached,
            self.cost_usd,
            self.unpriced,
            self.simulated,
        )


@dataclass
class _Counters:
    model_calls: int = 0
    roles: dict[str, _RoleCounters] = field(default_factory=dict)

    def add(self, ev: ModelUsage) -> None:
        self.model_calls += 1
        role = ev.role if ev.role in ROLES else "agent"
        self.roles.setdefault(role, _RoleCounters()).add(ev)

    def totals(self) -> tuple[int, int, float | None]:
        """(tokens in, tokens out, dollars: NULL when no role has a priced call)."""
        roles = self.roles.values()
        costs = [r.cost_usd for r in roles if r.cost_usd is not None]
        return (
            sum(r.tokens_in for r in roles),
            sum(r.tokens_out for r in roles),
            sum(costs) if costs else None,
        )

    def by_role(self) -> tuple[Any, ...]:
        """The per-role columns, in ``ROLE_COLUMN_NAMES`` order (NULL cost: no priced call)."""
        empty = _RoleCounters()
        return tuple(v for role in ROLES for v in self.roles.get(role, empty).values())


@dataclass
class _Batch:
    events: list[tuple[str, int, int, float, str]] = field(default_factory=list)
    started: list[tuple[Any, ...]] = field(default_factory=list)
    ended: list[tuple[Any, ...]] = field(default_factory=list)


_STARTED_SQL = (
    "insert into conversations (id, run_id, cell, task_id, domain, agent, user, emotion, "
    "intensity, trial, seed, politeness, urgency, trust, status, started_at, key) "
    f"values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, {NEXT_KEY_SQL}) "
    "on conflict (id) do update set status = 'running', started_at = excluded.started_at"
)
"""A conversation's row, written when it is admitted (its ``ConversationStarted``), with a new
key; a row that exists already is only marked running (it keeps its key)."""
_BARE_SQL = (
    f"insert into conversations (id, run_id, cell, status, key) values (?, ?, ?, 'running', "
    f"{NEXT_KEY_SQL}) on conflict (id) do nothing"
)
"""The row of a conversation whose events come without its ``ConversationStarted``."""
_EVENT_SQL = (
    "insert or replace into event_rows (conversation, seq, kind, ts, payload) "
    "values (?, ?, ?, ?, ?)"
)


ROLE_COLUMN_NAMES = tuple(f"{role}_{name}" for role in ROLES for name in ROLE_FIELDS)
_ENDED_SQL = (
    "update conversations set status = 'completed', reason = ?, reward = ?, abandoned = ?, "
    "breakdown = ?, detail = ?, turns = ?, tool_calls = ?, questions = ?, model_calls = ?, "
    "tokens_in = ?, tokens_out = ?, cost_usd = ?, "
    + "".join(f"{column} = ?, " for column in ROLE_COLUMN_NAMES)
    + "failure = ?, failure_detail = ?, ended_at = ? where id = ?"
)


class Store:
    """The writer side of the database, plus the run bookkeeping the runner needs.

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
        self._counters: dict[str, _Counters] = {}
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
        batch = _Batch()
        kinds = self._kinds
        append = batch.events.append
        for ev in events:
            append((ev.conversation, ev.seq, kinds[kind_of(ev)], ev.ts, encode_payload(ev)))
            if isinstance(ev, ModelUsage):
                self._counters.setdefault(ev.conversation, _Counters()).add(ev)
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
                        ev.ts,
                    )
                )
            elif isinstance(ev, ConversationEnded):
                c = self._counters.pop(ev.conversation, _Counters())
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
                        c.model_calls,
                        *c.totals(),
                        *c.by_role(),
                        ev.failure,
                        ev.failure_detail if ev.failure else None,
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

    # -- run bookkeeping (called outside the hot path) ---------------------------------------
    def create_run(
        self, run_id: str, seed: int, config: str, cells: int, *, tasks_hash: str
    ) -> None:
        """Record a new run with the hash of its task set (``grid.task_set_hash``)."""
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

        The writer's commits refresh ``runs.heartbeat_at`` every ``heartbeat_interval``.
        """
        now = time.time()
        with storage_faults(self.path), self.db.conn:
            self.db.table("runs").update(
                run_id,
                {
                    "status": "running",
                    "ended_at": None,
                    "heartbeat_at": now,
                    "pid": os.getpid(),
                    "host": socket.gethostname(),
                },
            )
        self._run_id = run_id
        self._beat_at = now

    def finish_run(self, run_id: str, status: str) -> str:
        """Store a run's final status and return it: ``completed`` only if every cell is.

        ``status`` is what the runner saw (``completed``, ``interrupted`` or ``failed``). The
        stored status is ``completed`` when the file holds as many completed conversations of
        the run as its stored total of cells (``runs.cells``: rows exist only for admitted
        conversations, so the count is against the total, never against the rows), whatever
        ``status`` says; otherwise ``status``, except that ``completed``
        becomes ``failed``. One statement: the count and the status are read and written in
        one transaction.
        """
        self._run_id = None
        fallback = "failed" if status == "completed" else status
        with storage_faults(self.path), self.db.conn:
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
        self._keys.pop(conversation, None)

    def close_sync(self) -> None:
        """Checkpoint and close the connection."""
        self.db.conn.close()


def get_run(db: sqlite_utils.Database, run_id: str | None) -> dict[str, Any]:
    """A run row by id, or the latest run; ``UsageError`` when there is none.

    Its ``status`` is what ``run_state`` reads: ``stale`` for a ``running`` run whose
    process is gone (the stored value stays ``running``).
    """
    if run_id is None:
        rows = list(db.query("select * from runs order by created_at desc limit 1"))
        if not rows:
            raise UsageError("no runs in this database (start one with `tau-sim run`)")
    else:
        rows = list(db.query("select * from runs where id = ?", [run_id]))
        if not rows:
            raise UsageError(f"no run {run_id!r} in this database (see `tau-sim runs`)")
    return {**rows[0], "status": run_state(rows[0])}


def run_state(run: Mapping[str, Any], now: float | None = None) -> str:
    """A run's status as it stands: the stored one, or ``stale`` for a dead ``running`` run.

    A ``running`` run is ``stale`` when its process is gone (same host, no such pid) or its
    heartbeat (``runs.heartbeat_at``, else its creation) is older than ``stale_after()``
    seconds. Rows stored before the heartbeat existed have no pid and no heartbeat.
    """
    status = str(run["status"])
    if status != "running":
        return status
    if _process_gone(run.get("pid"), run.get("host")):
        return "stale"
    beat = run.get("heartbeat_at") or run["created_at"]
    return "stale" if (now or time.time()) - beat > stale_after() else "running"


def run_states(db: sqlite_utils.Database) -> dict[str, str]:
    """``run_state`` of every run in the file, by run id (a bad threshold fails even if unused)."""
    stale_after()
    return {str(row["id"]): run_state(row) for row in db.query("select * from runs")}


def _process_gone(pid: int | None, host: str | None) -> bool:
    """True when ``pid`` ran on this host and no such process exists now."""
    if pid is None or pid <= 0 or host != socket.gethostname():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # it exists, owned by someone else
        return False
    return False


def role_usage(db: sqlite_utils.Database, conversation: str, role: str) -> tuple[Any, ...]:
    """One role's model calls of a stored conversation, as its ``ROLE_FIELDS`` columns hold them.

    Summed from the conversation's ``model_usage`` events (tokens in, out and cached, dollars
    or None when no call was priced, unpriced calls, scripted turns).
    """
    counters = _RoleCounters()
    for event in iter_events(db, conversation):
        if isinstance(event, ModelUsage) and event.role == role:
            counters.add(event)
    return counters.values()


def iter_events(db: sqlite_utils.Database, conversation: str) -> Iterator[Event]:
    """The events of one conversation in order."""
    for row in db.execute(
        "select conversation, seq, kind, ts, payload from events where conversation = ? "
        "order by seq",
        [conversation],
    ):
        yield decode_stored(*row)
