"""Runs whose memory and disk do not grow with the grid, and stores of the previous format.

A conversation's row is written when it is admitted, the pending cells are a lazy stream over
a bitmap of what is done, a worker's order names a part of the grid rather than its cells, and
an event's payload leaves out the columns the ``events`` table already has. Real SQLite files
throughout.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import anyio
import msgspec
import pytest

from tau_sim.simulator.core.events import Event, decode_stored, encode, encode_payload, kind_of
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.engine.bus import LiveFeed
from tau_sim.simulator.grid import (
    Cell,
    CellSet,
    RunConfig,
    cell_index,
    grid_size,
    pending,
)
from tau_sim.simulator.results.export import export_rows
from tau_sim.simulator.results.metrics import run_report
from tau_sim.simulator.results.transcript import load_transcript, transcript_json
from tau_sim.simulator.run import Runner, WorkOrder, encode_order, rescore_run
from tau_sim.simulator.store import Store, get_run, iter_events, open_database

MILLION = 1_000_000


def test_parts_deal_the_pending_cells_once_each() -> None:
    config = RunConfig(tasks=["a", "b", "c", "d", "e"], trials=4)
    done = CellSet(grid_size(config))
    for index in (1, 2, 3, 11, 19):
        done.add(index)
    every = [c.index for c in pending(config, done)]
    assert every == [i for i in range(20) if i not in (1, 2, 3, 11, 19)]
    parts = [[c.index for c in pending(config, done, part, 3)] for part in range(3)]
    assert sorted(i for cells in parts for i in cells) == every
    assert all(i % 3 == part for part, cells in enumerate(parts) for i in cells)
    order = msgspec.json.decode(
        encode_order(WorkOrder(config, "r", 1, 3, 2, bytes(done))), type=WorkOrder
    )
    assert [c.index for c in order.cells()] == parts[1]


class FirstEvent(LiveFeed):
    """Notes how many cells had been made when the first event was published."""

    made: list[int]
    cells_then: int | None = None

    def offer(self, event: Event) -> bool:
        if self.cells_then is None:
            self.cells_then = len(self.made)
        return True


def test_a_million_cell_grid_starts_at_once_and_stores_what_it_admitted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing is built per cell up front: the first conversation starts once the cells of
    the first slots are made, the store holds rows of admitted conversations only, and the
    run's row holds the grid's size."""
    from tau_sim.simulator.grid import cells as grid_module

    made: list[int] = []
    real_cell_at = grid_module.cell_at

    def counting_cell_at(config: RunConfig, index: int) -> Cell:
        made.append(index)
        return real_cell_at(config, index)

    monkeypatch.setattr(grid_module, "cell_at", counting_cell_at)
    load_plugins()
    tasks = [t.id for t in get_domain("retail").tasks[:50]]
    config = RunConfig(tasks=tasks, trials=MILLION // 50, concurrency=4, seed=3)
    store = Store(tmp_path / "million.db")
    feed = FirstEvent()
    feed.made = made
    ended = 0
    runner: Runner | None = None

    def stop_after_five(cell: object, event: object) -> None:
        nonlocal ended
        ended += 1
        if ended == 5 and runner is not None:
            runner.interrupt()

    runner = Runner(store, config, "big", create=True, feed=feed, on_end=stop_after_five)
    anyio.run(runner.run)
    # the cells of the 4 slots, not the grid (the old runner made all 10^6 cells first)
    assert feed.cells_then is not None and feed.cells_then <= config.concurrency
    assert runner.status == "interrupted"
    rows = store.db.execute("select count(*), max(cell) from conversations").fetchone()
    assert 5 <= rows[0] < 100 and rows[1] < 100  # the interrupt lands within a few more
    run = get_run(store.db, "big")
    assert run["cells"] == MILLION
    report = run_report(store.db, run, resamples=10)
    assert report["conversations"] == MILLION and 5 <= report["completed"] <= rows[0]
    done = store.done_cells("big", MILLION)
    assert len(done) == store.completed_count("big") == report["completed"]
    order = encode_order(WorkOrder(config, "big", 0, 2, 2, bytes(done)))
    assert len(order) < 200_000  # the bitmap (125 KB as base64), never a list of cells
    first = next(runner.pending_cells())
    assert first.index not in done and all(i in done for i in range(first.index))


def test_payloads_carry_no_copy_of_their_columns(tmp_path: Path) -> None:
    """What the store reads back equals what was published, from payloads without columns."""

    class Everything(LiveFeed):
        def __init__(self) -> None:
            super().__init__(capacity=100_000)

    load_plugins()
    config = RunConfig(tasks=[t.id for t in get_domain("retail").tasks[:4]], trials=2)
    store = Store(tmp_path / "small.db")
    feed = Everything()
    anyio.run(Runner(store, config, "small", create=True, feed=feed).run)
    published = feed.drain()
    for (payload,) in store.db.execute("select payload from events"):
        keys = set(json.loads(payload))
        assert not keys & {"kind", "conversation", "seq", "ts"}, payload
    by_conversation: dict[str, list[Event]] = {}
    for event in published:
        by_conversation.setdefault(event.conversation, []).append(event)
    assert len(by_conversation) == 8
    for conversation, events in by_conversation.items():
        # compared as JSON: a changed record read back is the JSON object of its Struct
        assert [encode(e) for e in iter_events(store.db, conversation)] == list(map(encode, events))
        assert cell_index(conversation) is not None


def old_payload(event: Event) -> str:
    """The payload as the previous format stored it: the whole event, every field written."""
    fields: dict[str, object] = {"kind": kind_of(event)}
    for name in type(event).__struct_fields__:
        fields[name] = msgspec.to_builtins(getattr(event, name))
    return msgspec.json.encode(fields).decode()


def test_a_store_written_in_the_previous_format_reads_the_same(tmp_path: Path) -> None:
    """report, show, export and rescore give the same answers on a file whose payloads hold
    the whole event (as stores written before this format do) as on the new file."""
    load_plugins()
    config = RunConfig(
        tasks=[t.id for t in get_domain("retail").tasks[:3]], emotions=["anger"], trials=2
    )
    new = tmp_path / "new.db"
    store = Store(new)
    anyio.run(Runner(store, config, "r", create=True).run)
    store.close_sync()
    old = tmp_path / "old.db"
    shutil.copy(new, old)
    conn = sqlite3.connect(old)
    rows = conn.execute("select conversation, seq, kind, ts, payload from events")
    rewritten = [(old_payload(decode_stored(*row)), row[0], row[1]) for row in rows.fetchall()]
    conn.executemany("update events set payload = ? where conversation = ? and seq = ?", rewritten)
    conn.commit()
    payloads = [p for (p,) in conn.execute("select payload from events")]
    conn.close()
    assert payloads and all(p.startswith('{"kind":') and '"conversation":' in p for p in payloads)

    def answers(path: Path) -> list[object]:
        db = open_database(path, readonly=True)
        return [
            run_report(db, get_run(db, "r"), resamples=50),
            transcript_json(load_transcript(db, "r/000004")),
            export_rows(db, "r"),
            msgspec.to_builtins(rescore_run(db, "r")),
        ]

    assert answers(new) == answers(old)
    shown = json.loads(answers(old)[1])  # type: ignore[arg-type]
    assert len(shown["events"]) > 5 and shown["events"][0]["kind"] == "conversation_started"


def test_encode_payload_round_trips_through_nested_lookalike_keys() -> None:
    """A key named ``conversation`` inside a tool call's arguments or a text that spells one
    does not confuse where the columns begin."""
    from tau_sim.simulator.core.chat import ToolCallSpec
    from tau_sim.simulator.core.events import AgentMessage, UserMessage

    tricky = [
        AgentMessage(
            conversation="r/000001",
            seq=3,
            ts=1.5,
            tool_calls=[
                ToolCallSpec(id="c", name="n", arguments={"conversation": 'x","conversation":'})
            ],
        ),
        AgentMessage(conversation="r/000002"),
        UserMessage(conversation='we"ird/7', seq=7, ts=1796132741.6302855, text=',"seq":1'),
    ]
    for event in tricky:
        payload = encode_payload(event)
        assert not set(json.loads(payload)) & {"kind", "conversation", "seq", "ts"}
        back = decode_stored(event.conversation, event.seq, kind_of(event), event.ts, payload)
        assert back == event


def test_the_report_aggregated_in_sql_equals_the_row_by_row_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``outcome_rows`` (one weighted row per task, condition and outcome) gives every figure
    the stored rows give, with endpoint errors, model errors, failures and token counts."""
    from tau_sim.simulator.results import metrics
    from tests.simulator.toy import install, toy_config

    install()
    agents = ["toy/gold", "toy/silent", "toy/unreachable", "toy/broken"]
    config = toy_config(agents=agents, trials=3, politeness=[None, "cold"])
    store = Store(tmp_path / "mixed.db")
    anyio.run(Runner(store, config, "mixed", create=True).run)
    run = get_run(store.db, "mixed")
    rows = metrics.outcome_rows(store.db, "mixed")
    assert sum(r["weight"] for r in rows) == grid_size(config) > 2 * len(rows)
    aggregated = [
        metrics.run_report(store.db, run, resamples=200, **options)
        for options in ({}, {"count_errors": True}, {"by_family": True})
    ]
    monkeypatch.setattr(metrics, "outcome_rows", metrics.conversation_rows)
    row_by_row = [
        metrics.run_report(store.db, run, resamples=200, **options)
        for options in ({}, {"count_errors": True}, {"by_family": True})
    ]
    assert aggregated == row_by_row
    figures = aggregated[0]
    assert figures["infra_errors"] > 0 and figures["failures"]["failed"] > 0
    assert 0 < figures["success_rate"] < 1 and figures["avg_tokens"] is not None


def test_a_run_is_completed_only_with_its_stored_total_completed(tmp_path: Path) -> None:
    """``finish_run`` counts completed conversations against ``runs.cells``: a cell that was
    never admitted has no row at all, and the run is not ``completed`` for it."""
    from tests.simulator.toy import install, toy_config

    install()
    store = Store(tmp_path / "total.db")
    anyio.run(Runner(store, toy_config(), "run-1", create=True).run)
    assert store.finish_run("run-1", "completed") == "completed"
    with store.db.conn:
        store.db.execute("delete from events where conversation = 'run-1/000004'")
        store.db.execute("delete from conversations where cell = 4")
    assert store.finish_run("run-1", "completed") == "failed"
    assert store.finish_run("run-1", "interrupted") == "interrupted"
    store.close_sync()
    resumed = Runner(Store(tmp_path / "total.db"), toy_config(), "run-1")
    assert [c.index for c in resumed.pending_cells()] == [4]
    assert anyio.run(resumed.run) == 1 and resumed.status == "completed"
