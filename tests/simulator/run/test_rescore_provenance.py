"""Grading provenance through the real CLI on real SQLite files: a live run, then rescored.

``show --json`` and ``report --json`` print how each reward was computed; ``rescore`` says, for
each conversation whose reward or evaluated-ness changed, old -> new and why, and nothing when
nothing changed; ``rescore --write`` records ``rescored`` with today's scorer version.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tau_sim.simulator.core.grading import SCORER_VERSION
from tests.helpers.cli import run_error, tau_sim


@pytest.fixture(scope="module")
def live_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """Two retail tasks played by the gold and the sloppy agent: rewards 1 and 0."""
    db = tmp_path_factory.mktemp("provenance") / "runs.db"
    grid = ["--domain", "retail", "--tasks", "2", "--agent", "scripted/gold,scripted/sloppy"]
    tau_sim("run", *grid, "--seed", "7", "--db", str(db), "--quiet")
    run_id = sqlite3.connect(db).execute("select id from runs").fetchone()[0]
    return db, run_id


def copy_of(live_run: tuple[Path, str], tmp_path: Path) -> tuple[Path, str]:
    db, run_id = live_run
    copy = tmp_path / "copy.db"
    source, target = sqlite3.connect(db), sqlite3.connect(copy)
    source.backup(target)
    source.close()
    target.close()
    return copy, run_id


def provenance(db: Path, conversation: str) -> dict[str, Any]:
    shown = tau_sim("show", conversation, "--db", str(db), "--json")
    found: dict[str, Any] = json.loads(shown.stdout)["provenance"]
    return found


def conversations(db: Path) -> dict[str, dict[str, Any]]:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    found = {r["id"]: dict(r) for r in conn.execute("select * from conversations")}
    conn.close()
    return found


def test_a_live_run_then_a_rescore_records_how_each_reward_was_computed(
    live_run: tuple[Path, str], tmp_path: Path
) -> None:
    db, run_id = copy_of(live_run, tmp_path)
    stored = conversations(db)
    assert {row["reward"] for row in stored.values()} == {0.0, 1.0}
    for row in stored.values():
        assert (row["scored_by"], row["scorer_version"]) == ("live", SCORER_VERSION)
        assert (row["scored_at"], row["warnings"]) == (row["ended_at"], "[]")
    first = min(stored)
    assert provenance(db, first) == {
        "scored_by": "live",
        "scorer_version": SCORER_VERSION,
        "scored_at": stored[first]["ended_at"],
        "warnings": [],
        "evaluated": True,
    }
    shown = tau_sim("show", first, "--db", str(db)).stdout
    assert f"grading: live, scorer version {SCORER_VERSION}, at " in shown
    grading = json.loads(tau_sim("report", run_id, "--db", str(db), "--json").stdout)["grading"]
    assert grading == {
        "scorer_version": SCORER_VERSION,
        "conversations": 4,
        "scored_by": {"live": 4},
        "scorer_versions": {str(SCORER_VERSION): 4},
        "warnings": {},
        "not_evaluated": 0,
    }
    text = tau_sim("report", run_id, "--db", str(db)).stdout
    assert f"grading: 4 live; scorer version {SCORER_VERSION}: 4 (today's: " in text

    # nothing changed: the summary says 0 and no conversation is listed; nothing is written
    dry = tau_sim("rescore", run_id, "--db", str(db)).stdout
    assert dry.splitlines() == [
        f"run {run_id}: 4 conversations rescored, 0 verdicts changed "
        f"(scorer version {SCORER_VERSION})"
    ]
    assert conversations(db) == stored

    written = tau_sim("rescore", run_id, "--db", str(db), "--write").stdout
    assert " 0 verdicts changed" in written and run_id + "/" not in written
    after = conversations(db)
    for cid, row in after.items():
        assert (row["reward"], row["breakdown"]) == (
            stored[cid]["reward"],
            stored[cid]["breakdown"],
        )
        assert (row["scored_by"], row["scorer_version"]) == ("rescored", SCORER_VERSION)
        assert row["scored_at"] > stored[cid]["ended_at"] and row["warnings"] == "[]"
    assert provenance(db, first)["scored_by"] == "rescored"
    grading = json.loads(tau_sim("report", run_id, "--db", str(db), "--json").stdout)["grading"]
    assert grading["scored_by"] == {"rescored": 4}


def test_rescore_says_which_verdicts_changed_and_why(
    live_run: tuple[Path, str], tmp_path: Path
) -> None:
    """Two rows stored as an older scorer would have: rescore lists exactly them, with why."""
    db, run_id = copy_of(live_run, tmp_path)
    stored = conversations(db)
    won = next(cid for cid, row in sorted(stored.items()) if row["reward"] == 1.0)
    lost = next(cid for cid, row in sorted(stored.items()) if row["reward"] == 0.0)
    conn = sqlite3.connect(db)
    with conn:
        wrong = {**json.loads(stored[won]["breakdown"]), "db_match": False}
        conn.execute(
            "update conversations set reward = 0, breakdown = ?, scorer_version = null "
            "where id = ?",
            [json.dumps(wrong), won],
        )
        unjudged = {**json.loads(stored[lost]["breakdown"]), "not_evaluated": ["NL_ASSERTION"]}
        conn.execute(
            "update conversations set breakdown = ?, warnings = '[\"not_evaluated\"]' where id = ?",
            [json.dumps(unjudged), lost],
        )
    conn.close()
    assert provenance(db, lost)["evaluated"] is False

    text = tau_sim("rescore", run_id, "--db", str(db)).stdout.splitlines()
    assert text[0] == (
        f"run {run_id}: 4 conversations rescored, 2 verdicts changed "
        f"(scorer version {SCORER_VERSION})"
    )
    task = {cid: row["task_id"] for cid, row in stored.items()}
    assert f"  {won} {task[won]}: 0 -> 1 (state match no -> yes)" in text
    assert (
        f"  {lost} {task[lost]}: not evaluated (0) -> 0 (not evaluated NL_ASSERTION -> none)"
        in text
    )
    assert text[-1] == "nothing stored (add --write to store the new rewards)"

    result = json.loads(tau_sim("rescore", run_id, "--db", str(db), "--json", "--write").stdout)
    changed = {v["conversation"]: v for v in result["changed"]}
    assert set(changed) == {won, lost} and result["rescored"] == 4
    assert changed[won]["old"] == 0.0 and changed[won]["new"] == 1.0
    assert (changed[lost]["old_evaluated"], changed[lost]["new_evaluated"]) == (False, True)
    assert provenance(db, lost)["evaluated"] is True
    assert conversations(db)[lost]["warnings"] == "[]"
    assert conversations(db)[won]["reward"] == 1.0
    again = tau_sim("rescore", run_id, "--db", str(db)).stdout
    assert " 0 verdicts changed" in again


def test_unknown_runs_and_conversations_are_one_line_exit_2(live_run: tuple[Path, str]) -> None:
    db, run_id = live_run
    for args in (
        ("rescore", "run-nope"),
        ("rescore", "run-nope", "--write"),
        ("report", "run-nope", "--json"),
        ("show", f"{run_id}/999999", "--json"),
    ):
        out = run_error(*args, "--db", str(db))
        assert out.stdout == "" and ("run-nope" in out.stderr or "999999" in out.stderr)
