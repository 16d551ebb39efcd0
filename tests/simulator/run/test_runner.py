"""The runner and the store together: grid, seeds, concurrency, resume, schema versions."""

import hashlib
import sqlite3

import anyio
import msgspec
import pytest

from tau_sim.simulator.core.condition import Condition
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.errors import SchemaVersionError, UsageError
from tau_sim.simulator.grid import RunConfig, conversation_seed, grid
from tau_sim.simulator.results import pass_hat_k
from tau_sim.simulator.results.metrics import run_report
from tau_sim.simulator.run import ADMISSION_INTERVAL_S, Runner, validate
from tau_sim.simulator.store import SCHEMA_VERSION, Store, get_run, iter_events, open_database
from tests.simulator.old_layout import as_version_2
from tests.simulator.toy import install
from tests.simulator.toy import toy_config as config


def play(db_path, cfg: RunConfig, run_id: str = "run-1") -> Store:
    install()
    store = Store(db_path)
    anyio.run(Runner(store, cfg, run_id, create=True).run)
    return store


def test_grid_neutral_once_and_seeds_ignore_agent() -> None:
    cells = list(grid(config(agents=["toy/gold", "toy/silent"])))
    assert len(cells) == 2 * 3 * (1 + 2) * 2
    assert [c.index for c in cells] == list(range(len(cells)))
    neutral = {c.condition.intensity for c in cells if c.condition.emotion == "neutral"}
    assert neutral == {0.0}
    by_agent: dict[str, list[int]] = {}
    for cell in cells:
        by_agent.setdefault(cell.agent, []).append(cell.seed)
    assert by_agent["toy/gold"] == by_agent["toy/silent"]  # agents meet identical users
    assert len(set(by_agent["toy/gold"])) == len(by_agent["toy/gold"])
    key = ("patient", "toy-0", Condition(emotion="frustration", intensity=0.9), 1)
    assert conversation_seed(5, *key) != conversation_seed(6, *key)
    assert conversation_seed(5, *key) == conversation_seed(5, *key)
    assert [c.seed for c in grid(config(seed=7))] != [c.seed for c in cells[: len(cells) // 2]]


def test_run_stores_everything(tmp_path) -> None:
    store = play(tmp_path / "t.db", config())
    db = store.db
    assert get_run(db, "run-1")["status"] == "completed"
    rows = list(db.query("select * from conversations order by cell"))
    assert len(rows) == 18
    assert all(r["status"] == "completed" and r["reason"] == "user_stop" for r in rows)
    assert all(
        r["reward"] == 1.0 and r["model_calls"] == 5 and r["tokens_in"] == 3 * 10 + 2 * 3
        for r in rows
    )
    events = list(iter_events(db, rows[0]["id"]))
    assert [e.seq for e in events] == list(range(len(events)))
    n_events = db.execute("select count(*) from events").fetchone()[0]
    assert n_events == store.events_written == 18 * len(events)
    report = run_report(db, get_run(db, None))
    assert report["pass_hat_k"] == {"1": 1.0, "2": 1.0}
    assert set(report["groups"]["emotion"]) == {"neutral", "frustration"}


def test_concurrency_512_with_latency(tmp_path) -> None:
    cfg = config(
        tasks=["toy-0", "toy-1", "toy-2", "toy-3"],
        emotions=["frustration"],
        intensities=[x / 100 for x in range(64)],
        trials=2,
        concurrency=512,
        agent_options={"toy/gold": {"latency": "0.1"}},
        user_options={"patient": {"latency": "0.1"}},
    )
    assert sum(1 for _ in grid(cfg)) == 512
    store = play(tmp_path / "c.db", cfg)
    spans = store.db.execute(
        "select started_at, ended_at from conversations where status='completed' order by cell"
    ).fetchall()
    assert len(spans) == 512
    # every conversation was admitted in the first wave: the last started before the first ended
    assert max(start for start, _ in spans) < min(end for _, end in spans)
    # ... one admission interval after another, in the grid's order (the ramp); a start is
    # stamped after a few awaits of its own, which two busy cores reorder by a millisecond or so
    # (1.3 ms seen), never by the 50 ms allowed here
    starts = [start for start, _ in spans]
    assert all(later >= max(starts[: k + 1]) - 0.05 for k, later in enumerate(starts[1:]))
    # the ramp only delays: slot k waits k intervals after the play began, but slot 0's own
    # start is stamped after the 512 slots were spawned, which a loaded machine stretches (up
    # to 11 ms seen on 2 busy cores); without the ramp all 512 start within 36-47 ms
    assert starts[-1] - starts[0] >= 511 * ADMISSION_INTERVAL_S - 0.05


def test_resume_finishes_without_duplicates(tmp_path) -> None:
    path = tmp_path / "r.db"
    cfg = config()
    ref = play(tmp_path / "ref.db", cfg, "run-1").db
    reference = run_report(ref, get_run(ref, "run-1"))
    store = play(path, cfg, "run-1")
    # simulate a crash: three conversations lost their ending, one has a half-written event log
    with store.db.conn:
        store.db.execute(
            "update conversations set status='running', reason=null where cell in (1, 7, 12)"
        )
        store.db.execute("delete from events where conversation = 'run-1/000007' and seq > 3")
        store.db.execute("update runs set status='running'")
    store.close_sync()
    resumed = Store(path)
    runner = Runner(resumed, cfg, "run-1")
    assert [c.index for c in runner.pending_cells()] == [1, 7, 12]
    assert anyio.run(runner.run) == 3
    db = resumed.db
    assert db.execute("select count(*) from conversations").fetchone()[0] == 18
    per_conv = db.execute(
        "select conversation, count(*), max(seq) from events group by conversation"
    ).fetchall()
    assert all(count == top + 1 for _, count, top in per_conv)
    again = run_report(db, get_run(db, "run-1"))
    assert again == reference


def test_other_schema_version_is_refused_and_kept(tmp_path) -> None:
    path = tmp_path / "old.db"
    play(path, config(tasks=["toy-0"], emotions=["neutral"])).close_sync()
    conn = sqlite3.connect(path)
    conn.execute("update meta set value='99' where key='schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(
        SchemaVersionError, match=f"schema version 99; this tau-sim reads version {SCHEMA_VERSION}"
    ):
        open_database(path)
    conn = sqlite3.connect(path)
    assert conn.execute("select count(*) from conversations").fetchone()[0] == 2
    not_db = tmp_path / "x.db"
    not_db.write_text("hello")
    with pytest.raises(UsageError, match="not a tau-sim database"):
        open_database(not_db)


def test_pass_hat_k_formula() -> None:
    # one task 2/4 successes, one 4/4: pass^1 = (0.5 + 1) / 2, pass^2 = (1/6 + 1) / 2
    assert pass_hat_k([(4, 2), (4, 4)], 1) == pytest.approx(0.75)
    assert pass_hat_k([(4, 2), (4, 4)], 2) == pytest.approx((1 / 6 + 1) / 2)
    assert pass_hat_k([(4, 0)], 4) == 0.0
    assert pass_hat_k([(1, 1)], 2) is None


def test_bad_config_is_refused_before_anything_is_stored(tmp_path) -> None:
    install()
    store = Store(tmp_path / "b.db")
    with pytest.raises(UsageError, match="concurrency"):
        Runner(store, config(concurrency=0), "x")
    with pytest.raises(UsageError, match="unknown domain 'nope'"):
        Runner(store, config(domains=["nope"]), "x")
    with pytest.raises(UsageError, match="unknown model provider 'zz'"):
        Runner(store, config(agents=["zz/top"]), "x")
    with pytest.raises(UsageError, match=r"has no task .toy-77."):
        Runner(store, config(tasks=["toy-77"]), "x")
    assert store.db.execute("select count(*) from runs").fetchone()[0] == 0


def test_limits_round_trip_in_config() -> None:
    cfg = config(limits=Limits(max_steps=9))
    assert msgspec.json.decode(msgspec.json.encode(cfg), type=RunConfig).limits.max_steps == 9


def test_dimension_levels_are_grid_dimensions_and_unset_levels_keep_the_seeds() -> None:
    plain = list(grid(config()))
    explicit_default = list(grid(config(politeness=[None], urgency=[None], trust=[None])))
    assert plain == explicit_default
    # a condition without levels keeps the seed key of the earlier grid
    old_key = "5|patient|toy-0|frustration|0.9000|1"
    old = int.from_bytes(hashlib.blake2b(old_key.encode(), digest_size=8).digest(), "big") >> 1
    frustration = Condition(emotion="frustration", intensity=0.9)
    assert conversation_seed(5, "patient", "toy-0", frustration, 1) == old
    cells = list(grid(config(politeness=[None, "cold"], trust=["skeptical"])))
    assert len(cells) == 2 * len(plain)
    assert {tuple(c.condition.levels.values()) for c in cells} == {
        (None, None, "skeptical"),
        ("cold", None, "skeptical"),
    }
    seeds = [c.seed for c in cells]
    assert len(set(seeds)) == len(seeds)  # every level combination meets its own user
    assert not set(seeds) & {c.seed for c in plain}


def test_levels_reach_the_event_and_the_store_and_split_report_rows(tmp_path) -> None:
    cfg = config(tasks=["toy-0"], emotions=["frustration"], intensities=[0.9], trials=1)
    store = play(tmp_path / "l.db", msgspec.structs.replace(cfg, urgency=[None, "high"]))
    db = store.db
    rows = list(db.query("select urgency, id from conversations order by cell"))
    assert [r["urgency"] for r in rows] == [None, "high"]
    started = [next(iter(iter_events(db, r["id"]))) for r in rows]
    assert [getattr(e, "urgency", "?") for e in started] == [None, "high"]
    report = run_report(db, get_run(db, None))
    assert [c["urgency"] for c in report["conditions"]] == ["default", "high"]
    assert set(report["groups"]["urgency"]) == {"default", "high"}


def test_unknown_level_in_a_config_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="--trust: unknown trust level 'gullible'"):
        validate(config(trust=["gullible"]))


def test_schema_1_database_is_migrated_and_keeps_its_rows(tmp_path) -> None:
    path = tmp_path / "v1.db"
    play(path, config(tasks=["toy-0"], emotions=["neutral"])).close_sync()
    as_version_2(path)
    conn = sqlite3.connect(path)
    for column in ("politeness", "urgency", "trust"):
        conn.execute(f"alter table conversations drop column {column}")
    conn.execute("update meta set value='1' where key='schema_version'")
    conn.commit()
    before = conn.execute("select count(*) from events").fetchone()[0]
    conn.close()
    db = open_database(path, create=False)
    version = db.execute("select value from meta where key='schema_version'").fetchone()[0]
    assert version == str(SCHEMA_VERSION)
    assert db.execute("select count(*) from events").fetchone()[0] == before
    report = run_report(db, get_run(db, None))
    assert report["completed"] == 2 and report["groups"]["politeness"].keys() == {"default"}
