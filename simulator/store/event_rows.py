"""How the store keeps events (schema version 3): integer keys in ``event_rows``, a view ``events``.

Every event is one row of ``event_rows (conversation, seq, kind, ts, payload)`` whose
``conversation`` is the integer ``conversations.key`` of its conversation and whose ``kind`` is
the ``key`` of its name in ``event_kinds``; ``(conversation, seq)`` is unique. The view
``events`` joins them back into the columns files of versions 1 and 2 hold in their ``events``
table, ``(conversation, seq, kind, ts, payload)`` with the conversation's id and the kind's
name as text, so a query of ``events`` reads the same rows from every version (with plain
``sqlite3`` or Datasette too); ``instead of`` triggers make inserts, updates and deletes of the
view change ``event_rows``. The text of a conversation's id and of a kind is stored once
instead of in every event and in the primary key's index: that halves the store.

``conversations.key`` is assigned by the writer inside SQL (``NEXT_KEY_SQL``) and never changes
(``on conflict`` keeps it; ``VACUUM`` renumbers implicit rowids, never this column). Opened for
writing, an older file is converted in one transaction (``migrate_events``); opened read-only
it is read as it is.
"""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

import sqlite_utils

from tau_sim.simulator.core.events import EVENT_TYPES

PAGE_SIZE = 16384
"""Page size of new store files: fewer, fuller pages for rows of a few hundred bytes (measured:
about 3% smaller than 4096; 65536 is larger again)."""
NEXT_KEY_SQL = "(select coalesce(max(key), 0) + 1 from conversations)"
"""The key of a conversation row about to be inserted (one more than the largest)."""
KINDS = tuple(str(cls.__struct_config__.tag) for cls in EVENT_TYPES)

_TABLES = (
    "create table if not exists event_kinds (key integer primary key, name text not null unique)",
    "create table if not exists event_rows (conversation integer not null, seq integer not null, "
    "kind integer not null, ts real, payload text)",
    "create unique index if not exists event_rows_conversation_seq "
    "on event_rows (conversation, seq)",
    "create unique index if not exists conversations_key on conversations (key)",
)
_VIEW = (
    "create view if not exists events (conversation, seq, kind, ts, payload) as "
    "select c.id, e.seq, k.name, e.ts, e.payload from event_rows e "
    "join conversations c on c.key = e.conversation join event_kinds k on k.key = e.kind",
    "create trigger if not exists events_insert instead of insert on events begin "
    "insert or ignore into event_kinds (name) values (new.kind); "
    "insert or replace into event_rows (conversation, seq, kind, ts, payload) values ("
    "(select key from conversations where id = new.conversation), new.seq, "
    "(select key from event_kinds where name = new.kind), new.ts, new.payload); end",
    "create trigger if not exists events_update instead of update on events begin "
    "insert or ignore into event_kinds (name) values (new.kind); "
    "update event_rows set conversation = (select key from conversations where id = "
    "new.conversation), seq = new.seq, kind = (select key from event_kinds where name = "
    "new.kind), ts = new.ts, payload = new.payload where conversation = (select key from "
    "conversations where id = old.conversation) and seq = old.seq; end",
    "create trigger if not exists events_delete instead of delete on events begin "
    "delete from event_rows where conversation = (select key from conversations where id = "
    "old.conversation) and seq = old.seq; end",
)


def has_event_rows(sqlite: sqlite_utils.Database) -> bool:
    """Whether the file keeps its events in ``event_rows`` (version 3), not an ``events`` table."""
    row = sqlite.execute("select 1 from sqlite_master where type = 'table' and name = 'event_rows'")
    return row.fetchone() is not None


def create_event_rows(conn: sqlite3.Connection, *, view: bool = True) -> None:
    """Create ``event_kinds`` (every kind of ``EVENT_TYPES``), ``event_rows`` and the view.

    ``conversations`` must exist with its ``key`` column; runs inside the caller's transaction.
    """
    for sql in _TABLES:
        conn.execute(sql)
    conn.executemany(
        "insert or ignore into event_kinds (name) values (?)", [(kind,) for kind in KINDS]
    )
    for sql in _VIEW if view else ():
        conn.execute(sql)


def migrate_events(conn: sqlite3.Connection) -> None:
    """Move an older file's ``events`` table into ``event_rows`` (inside the caller's transaction).

    Every conversation gets its key (the rowid it has now, copied: later renumbering cannot
    change it); events of a conversation without a row (none is written so, but older files
    are not checked) get a bare row of their own, so nothing is lost. The rows keep their
    order, then the table is dropped and the view takes its name.
    """
    columns = [row[1] for row in conn.execute("pragma table_info(conversations)")]
    if "key" not in columns:
        conn.execute("alter table conversations add column key integer")
    conn.execute("update conversations set key = rowid where key is null")
    conn.execute(
        "insert into conversations (id, run_id, key, status) select conversation, "
        "substr(conversation, 1, instr(conversation, '/') - 1), "
        "(select coalesce(max(key), 0) from conversations) + row_number() over (), 'running' "
        "from (select distinct conversation from events "
        "where conversation not in (select id from conversations))"
    )
    create_event_rows(conn, view=False)
    conn.execute("insert or ignore into event_kinds (name) select distinct kind from events")
    conn.execute(
        "insert into event_rows (conversation, seq, kind, ts, payload) "
        "select c.key, e.seq, k.key, e.ts, e.payload from events e "
        "join conversations c on c.id = e.conversation join event_kinds k on k.name = e.kind "
        "order by e.rowid"
    )
    conn.execute("drop table events")
    for sql in _VIEW:
        conn.execute(sql)


def kind_keys(conn: sqlite3.Connection) -> dict[str, int]:
    """The key of every kind in ``event_kinds``, by name (those of ``KINDS`` added first).

    The writer's map: a kind this release knows and the file does not yet is given its key
    here (its own transaction).
    """
    with conn:
        conn.executemany(
            "insert or ignore into event_kinds (name) values (?)", [(kind,) for kind in KINDS]
        )
    return {str(name): int(key) for key, name in conn.execute("select key, name from event_kinds")}


class Rows(NamedTuple):
    """SQL pieces to read events with their stored order, on either layout.

    ``columns`` are the view's (conversation id, seq, kind name, ts, payload); ``source``
    names the events ``e`` (``e.rowid``: the order they were stored in) joined to their
    conversation's row ``c``, the events as the outer loop (``cross join``: a reader of a
    range of ``e.rowid``); ``joined`` is the same join for the planner to order as it likes
    (a reader of some conversations' events); ``kind`` is the kind's name as an expression.
    """

    columns: str
    source: str
    joined: str
    kind: str


_ROWS = Rows(
    "c.id, e.seq, k.name, e.ts, e.payload",
    "event_rows e cross join conversations c on c.key = e.conversation "
    "cross join event_kinds k on k.key = e.kind",
    "event_rows e join conversations c on c.key = e.conversation "
    "join event_kinds k on k.key = e.kind",
    "k.name",
)
_OLD_ROWS = Rows(
    "e.conversation, e.seq, e.kind, e.ts, e.payload",
    "events e cross join conversations c on c.id = e.conversation",
    "events e join conversations c on c.id = e.conversation",
    "e.kind",
)


def ordered_rows(sqlite: sqlite_utils.Database) -> Rows:
    """How to read ``db``'s events in stored order (``event_rows``, or an older ``events``).

    The view has no rowid: readers that take events in the order they were stored, or
    since the last one they read, use these pieces.
    """
    return _ROWS if has_event_rows(sqlite) else _OLD_ROWS
