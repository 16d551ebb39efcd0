from __future__ import annotations

import random
import sqlite3
from collections import Counter

import msgspec
import pytest

from tau_sim.simulator.core.condition import Condition
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.world.domain import PERSONAS, Action, load_tasks
from tau_sim.tracer.construct import compliant, construct, grounded, signature
from tau_sim.tracer.emotions import assign, parse_distribution
from tau_sim.users.emotions import family_of
from tests.tracer.conftest import Pipeline, tau_sim


@pytest.fixture(scope="module")
def banking():
    load_plugins()
    return get_domain("banking")


def test_constructed_tasks_are_grounded_compliant_new_and_distinct(banking) -> None:
    result = construct(banking, 120, seed=7)
    assert len(result.tasks) == 120
    benchmark = {signature(t) for t in banking.tasks}
    signatures = [signature(t) for t in result.tasks]
    assert len(set(signatures)) == 120
    assert not benchmark & set(signatures)
    assert len({t.id for t in result.tasks}) == 120
    forbidden = {i.name for i in banking.intents if i.forbidden}
    assert any(t.intent in forbidden for t in result.tasks)
    for task in result.tasks:
        assert grounded(banking, task) and compliant(banking, task)
        if task.intent in forbidden:  # a refusal or a transfer: the forbidden change never made
            assert banking.write_actions(task) == []
    assert sum(result.dropped.values()) + 120 == result.attempts
    # each task a persona, as the benchmark's tasks have: all five among 120
    assert Counter(t.scenario.persona for t in result.tasks).keys() == set(PERSONAS)
    again = construct(banking, 120, seed=7)
    assert [signature(t) for t in again.tasks] == signatures


def test_the_compliance_predicate_rejects_a_forbidden_write_and_an_early_transfer(banking) -> None:
    result = construct(banking, 60, seed=3)
    forbidden = {i.name for i in banking.intents if i.forbidden}
    refusal = next(t for t in result.tasks if t.intent in forbidden)
    write = next(a for t in result.tasks for a in banking.write_actions(t))
    bad = msgspec.structs.replace(refusal, actions=[*refusal.actions, write])
    assert not compliant(banking, bad)
    allowed = next(t for t in result.tasks if t.intent not in forbidden)
    (ending,) = banking.toolkit.endings
    early = msgspec.structs.replace(
        allowed, actions=[Action(ending, {"summary": "x"}), *allowed.actions]
    )
    assert not compliant(banking, early)
    assert compliant(banking, allowed)


def test_a_distribution_fills_every_cell_evenly_and_leaves_match_families() -> None:
    spec = parse_distribution("anger:2,sorrow,neutral;intensity=low,high;politeness=warm,cold")
    profiles = assign(spec, 200, random.Random(1))
    assert len(profiles) == 200
    by_family = Counter(p.family for p in profiles)
    assert by_family == {"anger": 100, "sadness": 50, "neutral": 50}
    anger = Counter((p.intensity, p.politeness) for p in profiles if p.family == "anger")
    assert sorted(anger.values()) == [25, 25, 25, 25]
    leaves = Counter(p.leaf for p in profiles if p.family == "anger")
    assert set(leaves) == {
        "annoyance",
        "frustration",
        "argumentativeness",
        "bitterness",
        "exasperation",
    }
    assert max(leaves.values()) - min(leaves.values()) <= 1
    for p in profiles:
        assert family_of(p.leaf) == p.family
    assert all(p.leaf == "sorrow" for p in profiles if p.family == "sadness")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("anger:x", "weight 'x' of 'anger' is not a number"),
        ("anger:-1", "weight of 'anger' must be a positive number"),
        ("rage", "'rage' is not an emotion family or leaf"),
        ("anger;intensity=huge", "'huge' is not low, medium, high"),
        ("anger;politeness=rude", "unknown politeness level 'rude'"),
        ("anger;mood=x", "unknown section 'mood'"),
        ("anger,anger", "'anger' is given twice; give each entry once"),
        ("anger,frustration", "'anger' and 'frustration' are the same entry ('frustration')"),
        ("anger,annoyance", "'anger' deals all its leaves, 'annoyance' among them"),
        ("anger;intensity=low,0.3", "'low' and '0.3' are the same entry (0.3)"),
        ("anger;intensity=high,HIGH", "'high' is given twice"),
        ("anger;politeness=warm,warm", "'warm' is given twice"),
        ("task", "'task' is not an emotion family or leaf"),
        (";intensity=low", "starts with no emotion"),
    ],
)
def test_a_malformed_distribution_is_one_line_exit_2(tmp_path, spec: str, message: str) -> None:
    out = tmp_path / "t.jsonl"
    done = tau_sim(
        *("tracer", "construct", "--domain", "retail", "--count", "3"),
        *("--emotions", spec, "--out", str(out)),
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--emotions" in lines[0] and message in lines[0], done.stderr
    assert not out.exists()
    with pytest.raises(UsageError):
        parse_distribution(spec)


def test_the_runner_plays_each_tasks_own_profile_and_gold_solves_every_task(
    pipeline: Pipeline,
) -> None:
    load_plugins()
    tasks = {t.id: t for t in load_tasks(pipeline.tasks, get_domain("retail"))}
    assert len(tasks) == pipeline.construct["kept"] == 30
    with sqlite3.connect(pipeline.db) as conn:
        rows = conn.execute(
            "select task_id, agent, emotion, intensity, reward from conversations"
        ).fetchall()
    assert len(rows) == 60
    for task_id, agent, emotion, intensity, reward in rows:
        spec = tasks[task_id].emotion
        assert spec is not None
        assert (emotion, intensity) == (spec.leaf, spec.intensity)
        if agent == "scripted/gold":
            assert reward == 1.0, task_id
    assert {i for *_, i, _ in rows} == {0.3, 0.9}


def test_a_task_without_a_profile_plays_neutral_under_emotions_task(tmp_path) -> None:
    from tau_sim.simulator.grid import RunConfig, grid, grid_size
    from tau_sim.simulator.run import task_condition

    load_plugins()
    plain = construct(get_domain("retail"), 2, seed=9).tasks
    config = RunConfig(tasks=[t.id for t in plain], emotions=["task"], intensities=[0.3, 0.9])
    cells = list(grid(config))
    assert len(cells) == grid_size(config) == 2  # one condition per task, whatever --intensities
    played = task_condition(cells[0], plain[0])
    assert played.condition == Condition(emotion="neutral", intensity=0.0)
    assert played.seed == cells[0].seed
    spec = parse_distribution("sorrow;trust=skeptical")
    (profile,) = assign(spec, 1, random.Random(0))
    played = task_condition(cells[1], msgspec.structs.replace(plain[1], emotion=profile))
    assert played.condition == Condition(emotion="sorrow", intensity=0.6, trust="skeptical")
