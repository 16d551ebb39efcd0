"""Files as tau-sim stored them before schema version 3, made from a file this release wrote.

``as_version_2`` turns a store into the layout of version 2: one ``events`` table with the
conversation's id and the kind's name as text in every row and the primary key
``(conversation, seq)`` (created by sqlite-utils exactly as version 2 created it), no
``conversations.key``, 4 KB pages. The rows keep their stored order. Version-1 files are that
file less the columns version 2 added (the tests drop them).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import sqlite_utils

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
