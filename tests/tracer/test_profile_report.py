"""The report of a task-profile collection (`--emotions task`): families and levels, not leaves."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path

from tau_sim.simulator.core.registry import emotion_family
from tests.tracer.conftest import Pipeline, tau_sim

LEVELS = (("low", 0.45), ("medium", 0.75), ("high", 1.01))
"""The level bands the report documents: each level is the intensities nearest its value."""


def _level(intensity: float) -> str:
    return next(name for name, upper in LEVELS if intensity < upper)


def _stored(pipeline: Pipeline) -> list[tuple[str, str, float]]:
    with sqlite3.connect(pipeline.db) as conn:
        return conn.execute(
            "select agent, emotion, intensity from conversations where run_id = ? "
            "and status = 'completed'",
            [pipeline.run_id],
        ).fetchall()


def _report(pipeline: Pipeline, *flags: str) -> dict:
    done = tau_sim("report", pipeline.run_id, "--db", str(pipeline.db), "--json", *flags)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_rows_are_families_and_levels_counted_from_the_store(pipeline: Pipeline) -> None:
    stored = _stored(pipeline)
    expected = Counter(
        (agent, "neutral", "-")
        if emotion == "neutral"
        else (agent, emotion_family(emotion), _level(intensity))
        for agent, emotion, intensity in stored
    )
    report = _report(pipeline)
    assert report["grouping"]["emotion"] == "family"
    got = Counter()
    for row in report["conditions"]:
        got[(row["agent"], row["emotion"], row["intensity"])] += row["n"]
    assert got == expected
    # fewer rows than leaves: the point of grouping
    leaves = {(agent, emotion, intensity) for agent, emotion, intensity in stored}
    assert len(report["conditions"]) < len(leaves)
    tags = {(r["agent"], r["emotion"], r["intensity"]) for r in report["user_tags"]}
    assert tags <= set(expected)


def test_by_leaf_keeps_each_leaf_and_exact_intensity(pipeline: Pipeline) -> None:
    stored = _stored(pipeline)
    report = _report(pipeline, "--by-leaf")
    assert report["grouping"] is None
    got = Counter()
    for row in report["conditions"]:
        got[(row["agent"], row["emotion"])] += row["n"]
    assert got == Counter((agent, emotion) for agent, emotion, _ in stored)


def test_the_printed_report_is_compact_and_says_why(pipeline: Pipeline) -> None:
    grouped = tau_sim("report", pipeline.run_id, "--db", str(pipeline.db))
    by_leaf = tau_sim("report", pipeline.run_id, "--db", str(pipeline.db), "--by-leaf")
    assert grouped.returncode == by_leaf.returncode == 0, grouped.stderr + by_leaf.stderr
    text = grouped.stdout
    assert "grouped: a task-profile run" in text and "--by-leaf" in text
    assert "pass^k by emotion family" in text
    # the spec has no neutral: one line, no table of dashes
    assert "emotion effect: this run has no neutral condition" in text
    assert "success minus neutral" not in text
    # scripted agents and users made no model call: one line, no table of zeros
    assert "tokens and cost: no model calls" in text
    assert "0 / 0 / 0" not in text
    assert len(text.splitlines()) * 3 < len(by_leaf.stdout.splitlines()) * 2


def test_neutral_and_emotions_on_different_tasks_pair_nothing(tmp_path: Path) -> None:
    tasks, db = tmp_path / "tasks.jsonl", tmp_path / "p.db"
    made = tau_sim(
        *("tracer", "construct", "--domain", "airline", "--count", "8", "--seed", "2"),
        *("--emotions", "anger,neutral;intensity=high", "--out", str(tasks)),
    )
    assert made.returncode == 0, made.stderr
    ran = tau_sim(
        *("run", "--domain", "airline", "--tasks-file", str(tasks), "--emotions", "task"),
        *("--agent", "scripted/gold", "--db", str(db), "--quiet"),
    )
    assert ran.returncode == 0, ran.stderr
    with sqlite3.connect(db) as conn:
        emotions = {e for (e,) in conn.execute("select emotion from conversations")}
    assert "neutral" in emotions and len(emotions) > 1
    effect = json.loads(tau_sim("report", "--db", str(db), "--json").stdout)["emotion_effect"]
    assert effect["rows"] == [] and "no paired effect" in effect["note"]
    text = tau_sim("report", "--db", str(db)).stdout
    assert "emotion effect: no task was played under both neutral and an emotion" in text
    assert "success minus neutral" not in text
