"""Opening a store file: checked before anything is written, WAL for concurrent readers.

``open_database`` tells apart a missing file, a directory, a file that is not SQLite, an SQLite
file that is not tau-sim's and another schema version (``UsageError``s) from a corrupted file or
one that cannot be opened, read or written (``StoreError``); it migrates an older file
(``tau_sim.simulator.store.schema``) and opens a file for writing in WAL mode with a busy
timeout. ``storage_fault`` and ``storage_faults`` turn any SQLite failure into the one-line
``StoreError`` naming the file and the cause.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import sqlite_utils

from tau_sim.simulator.core.errors import SchemaVersionError, StoreError, UsageError
from tau_sim.simulator.store.event_rows import PAGE_SIZE
from tau_sim.simulator.store.schema import SCHEMA_VERSION, add_columns, create_schema, migrate
from tau_sim.simulator.store.timeouts import default_busy_timeout

DEFAULT_DB = "tau-sim.db"
WAL_CHECKPOINT_BYTES = 4 * 1024 * 1024
"""How large the write-ahead log grows before it is checkpointed, and the size a checkpointed
log is truncated to (SQLite's default of 1000 pages is 16 MB at ``PAGE_SIZE``)."""
SQLITE_HEADER = b"SQLite format 3\x00"

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

    Older files are migrated in place, in one transaction (``schema.migrate``); with ``readonly``
    nothing is written: a version-2 or 3 file is read as it is (its ``events`` table has the
    view's columns; readers take a missing provenance column as NULL: ``live``, scorer unknown),
    a version-1 file gains its missing columns in a copy in memory. New files
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
            db = _open_schema(
                path, sqlite_utils.Database(conn), create=create, readonly=readonly, wait=wait
            )
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
    path: Path, sqlite: sqlite_utils.Database, *, create: bool, readonly: bool, wait: float
) -> sqlite_utils.Database:
    """Check tau-sim's tables and version; migrate, create the schema and take a write lock.

    A new file's schema is created inside one ``BEGIN IMMEDIATE`` transaction, and the tables
    are looked at again once that lock is held: of several processes opening the same new file
    at once, one creates it and the others wait on its lock (``busy_timeout``), then find the
    finished schema; none sees a half-made one.
    """
    tables, version = _tau_sim_tables(path, sqlite)
    if readonly:
        if not tables:
            raise UsageError(f"--db: {path} holds no tau-sim data")
        if version == "1":  # readers need the level columns: migrate a copy, not the file
            memory = sqlite3.connect(":memory:", check_same_thread=False)
            sqlite.conn.backup(memory)
            sqlite.conn.close()
            sqlite = sqlite_utils.Database(memory)
            with sqlite.conn:
                add_columns(sqlite)
        return sqlite
    if not tables:  # before the first page is written: WAL fixes the page size
        sqlite.execute(f"pragma page_size = {PAGE_SIZE}")
    _journal_in_wal(sqlite.conn, wait=wait)
    sqlite.execute("pragma synchronous = normal")
    # SQLite checkpoints the WAL every 1000 pages: 16 MB at our page size, for runs of a few MB
    sqlite.execute(f"pragma wal_autocheckpoint = {WAL_CHECKPOINT_BYTES // PAGE_SIZE}")
    sqlite.execute(f"pragma journal_size_limit = {WAL_CHECKPOINT_BYTES}")
    sqlite.execute("begin immediate")  # a read-only file or a held lock fails here, not mid-run
    try:
        if not tables:  # another process may have created it meanwhile: look again, locked
            tables, version = _tau_sim_tables(path, sqlite)
        if not tables:
            if not create:
                raise UsageError(f"--db: {path} holds no tau-sim data")
            create_schema(sqlite)
            sqlite.execute("commit")
            return sqlite
    finally:
        sqlite.rollback()  # nothing to keep (after a commit there is no transaction left)
    migrate(sqlite, version=version)
    return sqlite


def _journal_in_wal(conn: sqlite3.Connection, *, wait: float) -> None:
    """Put the file in WAL mode, waiting up to ``wait`` seconds while another opener holds it.

    Turning a new file's rollback journal into WAL needs every other connection gone and, unlike
    a write, SQLite does not wait on the busy timeout for that: it answers "database is locked"
    at once. Several processes opening the same new file collide there, so the pragma is tried
    again (every 10 ms) until it succeeds, usually because another opener has just done it.
    """
    deadline = time.monotonic() + wait
    while True:
        try:
            conn.execute("pragma journal_mode = wal").fetchall()
            return
        except sqlite3.OperationalError as exc:
            busy = getattr(exc, "sqlite_errorname", "").startswith("SQLITE_BUSY")
            if not busy or time.monotonic() >= deadline:
                raise
        time.sleep(0.01)


def _tau_sim_tables(path: Path, sqlite: sqlite_utils.Database) -> tuple[set[str], str]:
    """The file's tables and schema version (this one for an empty file), or a ``UsageError``.

    Tables without ``meta`` are another program's; a ``meta`` without a version this tau-sim
    reads (1, 2, 3 or ``SCHEMA_VERSION``) is a ``SchemaVersionError``.
    """
    tables = set(sqlite.table_names())
    if tables and "meta" not in tables:
        raise UsageError(f"--db: {path} is an SQLite file but not a tau-sim database")
    if "meta" not in tables:
        return tables, str(SCHEMA_VERSION)
    row = sqlite.execute("select value from meta where key = 'schema_version'").fetchone()
    version = row[0] if row else "unknown"
    if version not in ("1", "2", "3", str(SCHEMA_VERSION)):
        raise SchemaVersionError(
            f"--db: {path} has schema version {version}; this tau-sim reads version "
            f"{SCHEMA_VERSION} (use another --db or the tau-sim release that wrote it)"
        )
    return tables, version
