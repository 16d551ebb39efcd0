"""A store written by schema version 3 opens under version 4: every row kept, provenance added.

``fixtures/v3_store.db.gz`` is a real file the previous release (schema 3, commit 79b6944)
wrote, gzipped (13 KB):

    tau-sim run --domain retail --tasks 2 --agent scripted/gold,scripted/sloppy --seed 7 \\
        --db v3.db --quiet
    tau-sim run --domain airline --tasks 2 --agent scripted/over-asker --emotions anger \\
        --intensities high --seed 8 --db v3.db --quiet
    tau-sim rescore <the airline run> --db v3.db --write

then checkpointed into one file (``journal_mode = delete``, ``vacuum``). The retail run's four
rewards were computed live; the airline run's two were rescored (its ``rescores`` row).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tau_sim.simulator.core.grading import SCORER_VERSION
from tau_sim.simulator.store import SCHEMA_VERSION, open_database
from tests.helpers.cli import tau_sim

FIXTURE = Path(__file__).parent / "fixtures" / "v3_store.db.gz"
LIVE_RUN = "run-20261205-164613-adf9"
RESCORED_RUN = "run-20261205-164615-d050"
TABLES = ("meta", "runs", "conversations", "event_kinds", "event_rows", "rescores")


@pytest.fixture
def v3_file(tmp_path: Path) -> Path:
    path = tmp_path / "v3.db"
    path.write_bytes(gzip.decompress(FIXTURE.read_bytes()))
    return path


def rows(path: Path) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of ``path`` (and of the ``events`` view), by table."""
    conn = sqlite3.connect(path)
    conn.row_factory = sqlite3.Row
    out = {
        table: [dict(r) for r in conn.execute(f"select * from {table} order by rowid")]
        for table in TABLES
    }
    out["events"] = [
        dict(r) for r in conn.execute("select * from events order by conversation, seq")
    ]
    conn.close()
    return out


def test_every_row_survives_and_gets_the_provenance_true_of_it(v3_file: Path) -> None:
    before = rows(v3_file)
    assert before["meta"] == [{"key": "schema_version", "value": "3"}]
    assert len(before["conversations"]) == 6 and len(before["events"]) == 222

    open_database(v3_file).conn.close()  # opened for writing: migrated in place
    after = rows(v3_file)

    assert after["meta"] == [{"key": "schema_version", "value": str(SCHEMA_VERSION)}]
    for table in ("runs", "event_kinds", "event_rows", "rescores", "events"):
        assert after[table] == before[table], table
    added = {"scored_by", "scorer_version", "scored_at", "warnings"}
    added.add("refusal")  # added in place to older files (NULL: results look the task up)
    assert len(after["conversations"]) == len(before["conversations"])
    rescored_at = before["rescores"][0]["rescored_at"]
    for old, new in zip(before["conversations"], after["conversations"], strict=True):
        assert set(new) == set(old) | added
        assert {k: new[k] for k in old} == old  # every stored value as it was
        assert new["scorer_version"] is None and json.loads(new["warnings"]) == []
        assert new["refusal"] is None
        if old["run_id"] == LIVE_RUN:
            assert (new["scored_by"], new["scored_at"]) == ("live", old["ended_at"])
        else:
            assert (new["scored_by"], new["scored_at"]) == ("rescored", rescored_at)


def test_a_breakdown_with_a_check_not_evaluated_gets_its_warning(v3_file: Path) -> None:
    conn = sqlite3.connect(v3_file)
    victim, breakdown = conn.execute(
        "select id, breakdown from conversations order by cell, id limit 1"
    ).fetchone()
    planted = {**json.loads(breakdown), "not_evaluated": ["NL_ASSERTION"]}
    with conn:
        conn.execute(
            "update conversations set breakdown = ?, reward = 0 where id = ?",
            [json.dumps(planted), victim],
        )
    conn.close()
    open_database(v3_file).conn.close()
    conn = sqlite3.connect(v3_file)
    warnings = dict(conn.execute("select id, warnings from conversations").fetchall())
    conn.close()
    assert json.loads(warnings.pop(victim)) == ["not_evaluated"]
    assert {json.loads(w) == [] for w in warnings.values()} == {True}


def test_read_only_commands_read_an_old_file_as_its_migration_would_and_leave_it(
    v3_file: Path,
) -> None:
    digest = hashlib.sha256(v3_file.read_bytes()).hexdigest()
    shown = tau_sim("show", f"{RESCORED_RUN}/000001", "--db", str(v3_file), "--json")
    provenance = json.loads(shown.stdout)["provenance"]
    assert provenance["scored_by"] == "rescored" and provenance["scorer_version"] is None
    assert provenance["warnings"] == [] and provenance["evaluated"] is True
    text = tau_sim("show", f"{LIVE_RUN}/000000", "--db", str(v3_file)).stdout
    assert "grading: live, scorer version unknown, at " in text
    report = json.loads(tau_sim("report", LIVE_RUN, "--db", str(v3_file), "--json").stdout)
    assert report["grading"] == {
        "scorer_version": SCORER_VERSION,
        "conversations": 4,
        "scored_by": {"live": 4},
        "scorer_versions": {"unknown": 4},
        "warnings": {},
        "not_evaluated": 0,
    }
    assert hashlib.sha256(v3_file.read_bytes()).hexdigest() == digest  # nothing written
