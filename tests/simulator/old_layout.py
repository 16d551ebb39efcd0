"""Files as tau-sim stored them before schema version 3, made from a file this release wrote.

``as_version_2`` turns a store into the layout of version 2: one ``events`` table with the
conversation's id and the kind's name as text in every row and the primary key
``(conversation, seq)`` (created by sqlite-utils exactly as version 2 created it), no
``conversations.key``, 4 KB pages. The rows keep their stored order. Version-1 files are that
file less the columns version 2 added (the tests drop them). ``events_as_before`` stores a
file's events as version 2 did before payloads lost their columns (the whole event in each).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import msgspec
import sqlite_utils

from tau_sim.simulator.core.events import Event, decode_stored, kind_of

V2_EVENTS = {"conversation": str, "seq": int, "kind": str, "ts": float, "payload": str}


def as_version_2(path: Path) -> None:
    """Rewrite the store at ``path`` (written by this release) in the version-2 layout."""
    conn = sqlite3.connect(path)
    db = sqlite_utils.Database(conn)
    with conn:
        db.table("events_v2").create(V2_EVENTS, pk=("conversation", "seq"))
        conn.execute(
            "insert into events_v2 select c.id, e.seq, k.name, e.ts, e.payload from event_rows e "
            "join conversations c on c.key = e.conversation "
            "join event_kinds k on k.key = e.kind order by e.rowid"
        )
        conn.execute("drop view events")
        conn.execute("drop table event_rows")
        conn.execute("drop table event_kinds")
        conn.execute("drop index conversations_key")
        conn.execute("alter table conversations drop column key")
        conn.execute("alter table events_v2 rename to events")
        conn.execute("update meta set value = '2' where key = 'schema_version'")
    conn.execute("pragma journal_mode = delete")
    conn.execute("pragma page_size = 4096")
    conn.execute("vacuum")
    conn.execute("pragma journal_mode = wal")
    conn.close()


def whole_event_payload(event: Event) -> str:
    """An event's payload as stores kept it before payloads lost their columns (schema 2).

    The whole event with its ``kind``: every field written, nested ones too, defaults and
    ``null`` included (nothing was omitted then).
    """
    return msgspec.json.encode({"kind": kind_of(event), **_every_field(event)}).decode()


def _every_field(value: Any) -> Any:
    if isinstance(value, msgspec.Struct):
        return {name: _every_field(getattr(value, name)) for name in type(value).__struct_fields__}
    if isinstance(value, list | tuple):
        return [_every_field(v) for v in value]
    if isinstance(value, dict):
        return {k: _every_field(v) for k, v in value.items()}
    return value


def events_as_before(path: Path, into: Path) -> None:
    """Store the events of ``path`` into a new file ``into`` as schema 2 stored them then.

    The ``events`` table of version 2 (4 KB pages, sqlite-utils' primary key), the rows in the
    order ``path`` stored them, each payload the whole event (``whole_event_payload``).
    """
    source = sqlite3.connect(path)
    target = sqlite3.connect(into)
    target.execute("pragma page_size = 4096")
    sqlite_utils.Database(target).table("events").create(V2_EVENTS, pk=("conversation", "seq"))
    rows = source.execute(
        "select c.id, e.seq, k.name, e.ts, e.payload from event_rows e "
        "join conversations c on c.key = e.conversation "
        "join event_kinds k on k.key = e.kind order by e.rowid"
    )
    with target:
        target.executemany(
            "insert into events values (?, ?, ?, ?, ?)",
            ((*row[:4], whole_event_payload(decode_stored(*row))) for row in rows),
        )
    source.close()
    target.close()
