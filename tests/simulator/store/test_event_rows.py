"""Schema 3: events in ``event_rows`` with integer keys, read through the view ``events``.

Real files throughout, read with plain ``sqlite3`` where a person would: the view shows each
event as it was written, older files are read as they are and migrated whole (or not at all),
and the events of a scripted run take at most half the bytes schema 2 needed for them.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import anyio
import msgspec
import pytest

from tau_sim.simulator.core.chat import ToolCallSpec
from tau_sim.simulator.core.errors import StoreError
from tau_sim.simulator.core.events import (
    AgentMessage,
    ConversationEnded,
    ConversationStarted,
    Event,
    ModelUsage,
    ToolCall,
    ToolResult,
    UserMessage,
    encode_payload,
    kind_of,
)
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.grid import RunConfig, new_run_id
from tau_sim.simulator.results.metrics import run_report
from tau_sim.simulator.run import Runner
from tau_sim.simulator.store import SCHEMA_VERSION, Store, get_run, iter_events, open_database
from tests.simulator.old_layout import as_version_2, events_as_before
from tests.simulator.toy import install
from tests.simulator.toy import toy_config as config

VIEW_ROWS = "select conversation, seq, kind, ts, payload from events"


def conversation(cid: str, run_id: str) -> list[Event]:
    call = ToolCallSpec(id="c1", name="find", arguments={"conversation": "x", "q": 1})
    return [
        ConversationStarted(
            conversation=cid,
            run_id=run_id,
            task_id="t1",
            domain="retail",
            agent="scripted/gold",
            user="scripted",
            emotion="anger",
            intensity=0.6,
            trial=0,
            seed=7,
        ),
        ModelUsage(conversation=cid, role="agent", backend="scripted", model="scripted/gold"),
        AgentMessage(conversation=cid, tool_calls=[call]),
        ToolCall(conversation=cid, call=call),
        ToolResult(conversation=cid, call_id="c1", name="find", content='{"a": "b"}'),
        UserMessage(conversation=cid, text="thanks", ends="###STOP###"),
        ConversationEnded(conversation=cid, reason="user_stop", reward=1.0, turns=2),
    ]


async def write(store: Store, events: list[Event]) -> None:
    async with anyio.create_task_group() as tg:
        tg.start_soon(store.run_writer)
        for event in events:
            await store.deliver(event)
        await store.close()


def interleaved(run_id: str) -> list[Event]:
    """Two conversations' events, alternating (as concurrent conversations publish them)."""
    a, b = conversation(f"{run_id}/000000", run_id), conversation(f"{run_id}/000001", run_id)
    mixed = [e for pair in zip(a, b, strict=True) for e in pair]
    return [msgspec.structs.replace(e, seq=i // 2, ts=1000.0 + i / 7) for i, e in enumerate(mixed)]


def test_the_view_shows_every_event_as_written_and_uses_the_indexes(tmp_path: Path) -> None:
    path = tmp_path / "view.db"
    run_id = new_run_id()
    events = interleaved(run_id)
    store = Store(path)
    store.create_run(run_id, 1, "{}", 2, tasks_hash="")
    anyio.run(write, store, events)
    anyio.run(write, store, events[:5])  # written again (a replay): replaced, not doubled
    store.close_sync()

    conn = sqlite3.connect(path)
    for cid in (f"{run_id}/000000", f"{run_id}/000001"):
        shown = conn.execute(f"{VIEW_ROWS} where conversation = ? order by seq", [cid]).fetchall()
        written = [
            (e.conversation, e.seq, kind_of(e), e.ts, encode_payload(e))
            for e in events
            if e.conversation == cid
        ]
        assert shown == written
    plan = conn.execute(f"explain query plan {VIEW_ROWS} where conversation = ?", ["x"])
    steps = [row[3] for row in plan]
    assert steps and all(step.startswith("SEARCH") for step in steps), steps
    # the id and the kind are stored once, as text; every event row holds integers for them
    types = conn.execute("select distinct typeof(conversation), typeof(kind) from event_rows")
    assert types.fetchall() == [("integer", "integer")]
    keys = conn.execute("select id, key from conversations order by key").fetchall()
    assert [k for _, k in keys] == [1, 2]
    conn.execute("vacuum")  # renumbers implicit rowids, never the keys
    assert conn.execute("select id, key from conversations order by key").fetchall() == keys
    with conn:  # the view takes deletes and inserts like the table it replaces
        conn.execute("delete from events where conversation = ?", [keys[0][0]])
        conn.execute(
            "insert into events values (?, 99, 'note', 2.0, '{}')", [keys[1][0]]
        )  # a kind the file did not know gets its key
    left = conn.execute("select conversation, count(*), max(seq) from events group by 1")
    assert left.fetchall() == [(keys[1][0], len(events) // 2 + 1, 99)]
    assert conn.execute("select count(*) from event_rows").fetchone()[0] == len(events) // 2 + 1
    conn.close()
    version = open_database(path, readonly=True).execute("select value from meta").fetchone()
    assert version[0] == str(SCHEMA_VERSION) == "4"


def test_events_without_their_start_get_a_bare_row_and_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "bare.db"
    store = Store(path)
    lone = [
        UserMessage(conversation="elsewhere/000003", seq=0, ts=1.0, text="hello"),
        UserMessage(conversation="elsewhere/000003", seq=1, ts=2.0, text="again"),
    ]
    anyio.run(write, store, lone)
    store.close_sync()
    conn = sqlite3.connect(path)
    row = conn.execute("select run_id, cell, status from conversations").fetchall()
    assert row == [("elsewhere", 3, "running")]  # unfinished: --resume discards it
    shown = conn.execute(f"{VIEW_ROWS} order by seq").fetchall()
    assert shown == [(e.conversation, e.seq, kind_of(e), e.ts, encode_payload(e)) for e in lone]
    conn.close()


def version_2_file(tmp_path: Path) -> tuple[Path, list[tuple[object, ...]], dict[str, object]]:
    """A toy run stored in the layout of version 2, plus one event whose conversation has no
    row (older files were not checked); its rows as plain sqlite3 reads them, and its report."""
    install()
    path = tmp_path / "v2.db"
    store = Store(path)
    anyio.run(Runner(store, config(), "run-1", create=True).run)
    report = run_report(store.db, get_run(store.db, "run-1"))
    store.close_sync()
    as_version_2(path)
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("insert into events values ('gone/000000', 0, 'user_message', 1.5, ?)", ["{}"])
    rows = conn.execute(f"{VIEW_ROWS} order by conversation, seq").fetchall()
    conn.close()
    return path, rows, report


def test_a_version_2_file_is_read_as_it_is_and_migrated_whole_for_writing(
    tmp_path: Path,
) -> None:
    path, rows, report = version_2_file(tmp_path)
    assert sqlite3.connect(path).execute("pragma page_size").fetchone()[0] == 4096
    reader = open_database(path, readonly=True)  # read as it is: nothing written
    assert reader.execute("select type from sqlite_master where name = 'events'").fetchone() == (
        "table",
    )
    assert run_report(reader, get_run(reader, "run-1")) == report
    first = reader.execute("select id from conversations order by id").fetchone()[0]
    stored = list(iter_events(reader, first))
    reader.conn.close()
    assert stored and sqlite3.connect(path).execute("select value from meta").fetchone() == ("2",)

    writer = open_database(path)  # migrated in place
    kind = writer.execute("select type from sqlite_master where name = 'events'").fetchone()
    assert kind == ("view",)
    assert writer.execute("select value from meta").fetchone()[0] == str(SCHEMA_VERSION)
    assert writer.execute(f"{VIEW_ROWS} order by conversation, seq").fetchall() == rows
    assert list(iter_events(writer, first)) == stored
    assert run_report(writer, get_run(writer, "run-1")) == report
    keys = writer.execute("select count(*), count(distinct key), count(key) from conversations")
    total = keys.fetchone()
    assert total[0] == total[1] == total[2] > 1
    writer.conn.close()

    install()  # the migrated file takes a new run: new keys, the old rows unchanged
    store = Store(path)
    anyio.run(Runner(store, config(), "run-2", create=True).run)
    again = store.db.execute(f"{VIEW_ROWS} where conversation not like 'run-2/%'")
    assert sorted(again.fetchall()) == sorted(rows)
    assert store.completed_count("run-2") == store.completed_count("run-1") > 0
    store.close_sync()


def test_a_migration_that_fails_midway_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    path, rows, _ = version_2_file(tmp_path)
    conn = sqlite3.connect(path)
    with conn:  # a table of that name the migration cannot fill: it fails after its first steps
        conn.execute("create table event_kinds (other text)")
    conn.close()
    with pytest.raises(StoreError, match=f"--db {path}: "):
        open_database(path)
    conn = sqlite3.connect(path)
    assert conn.execute("select value from meta").fetchone() == ("2",)
    assert conn.execute("select type from sqlite_master where name = 'events'").fetchone() == (
        "table",
    )
    assert conn.execute(f"{VIEW_ROWS} order by conversation, seq").fetchall() == rows
    columns = [row[1] for row in conn.execute("pragma table_info(conversations)")]
    assert "key" not in columns and "event_rows" not in {
        name for (name,) in conn.execute("select name from sqlite_master")
    }
    conn.close()


def test_the_events_of_a_scripted_run_take_at_most_half_the_bytes_of_schema_2(
    tmp_path: Path,
) -> None:
    """The 50 first retail tasks x 20 trials, scripted/gold agent and scripted user (which
    calibrate the harness, not benchmark subjects). The same events stored as schema 2 stored
    them before payloads lost their columns (``events_as_before``: the whole event in each
    row's payload, text keys, 4 KB pages, the rows in the same order) are the reference: the
    pages of every object that holds events now (rows, index, kinds, the conversations' key
    index) take at most half of the pages of the old table and its index."""
    load_plugins()
    tasks = [t.id for t in get_domain("retail").tasks[:50]]
    path, before = tmp_path / "now.db", tmp_path / "before.db"
    store = Store(path)
    run_id = new_run_id()
    anyio.run(Runner(store, RunConfig(tasks=tasks, trials=20, seed=1), run_id, create=True).run)
    assert store.completed_count(run_id) == 1000
    store.close_sync()
    events_as_before(path, before)

    def pages(file: Path, names: tuple[str, ...]) -> int:
        conn = sqlite3.connect(file)
        marks = ",".join("?" * len(names))
        found = conn.execute(
            f"select count(distinct name), sum(pgsize) from dbstat where name in ({marks})", names
        ).fetchone()
        conn.close()
        assert found[0] == len(names)
        return int(found[1])

    holders = ("event_rows", "event_rows_conversation_seq", "event_kinds", "conversations_key")
    now = pages(path, holders)
    then = pages(before, ("events", "sqlite_autoindex_events_1"))
    assert now <= then / 2, (now, then)
