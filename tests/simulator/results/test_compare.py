"""``tau-sim compare`` on real stores: flips and deltas checked against the stored conversations."""

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import report, tau_sim

GRID = ["--tasks", "6", "--emotions", "neutral,anger", "--intensities", "high", "--seed", "3"]
CELL = "task_id, emotion, intensity, trial"


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """gold.db: a gold run; sloppy.db: two sloppy runs of one seed; both.db: one run of both."""
    folder = tmp_path_factory.mktemp("compare")
    out: dict[str, Any] = {}
    for name, agents, times in (
        ("gold", "scripted/gold", 1),
        ("sloppy", "scripted/sloppy", 2),
        ("both", "scripted/gold,scripted/sloppy", 1),
    ):
        db = folder / f"{name}.db"
        for _ in range(times):
            tau_sim("run", *GRID, "--trials", "2", "--agent", agents, "--db", str(db), "--quiet")
        conn = sqlite3.connect(db)
        out[name] = (db, [r for (r,) in conn.execute("select id from runs order by created_at")])
        conn.close()
    return out


def compare(*args: str) -> dict[str, Any]:
    out = tau_sim("compare", *args, "--json")
    return json.loads(out.stdout)  # one object


def outcomes(db: Path, where: str = "") -> dict[tuple[Any, ...], bool]:
    """Pass or fail of every stored conversation, keyed by its cell (and agent)."""
    conn = sqlite3.connect(db)
    rows = conn.execute(f"select agent, {CELL}, reward from conversations {where}").fetchall()
    conn.close()
    return {tuple(r[:-1]): r[-1] >= 1.0 for r in rows}


def without_agent(stored: dict[tuple[Any, ...], bool]) -> dict[tuple[Any, ...], bool]:
    return {key[1:]: passed for key, passed in stored.items()}


def flips(a: dict[tuple[Any, ...], bool], b: dict[tuple[Any, ...], bool]) -> tuple[set, set]:
    """Task ids where only A passed, and where only B passed (same cell)."""
    assert a.keys() == b.keys()
    only_a = {key[0] for key in a if a[key] and not b[key]}
    only_b = {key[0] for key in a if b[key] and not a[key]}
    return only_a, only_b


def test_two_runs_of_the_same_seed_do_not_flip(stores: dict[str, Any]) -> None:
    db, (first, second) = stores["sloppy"]
    result = compare(first, second, "--db", str(db))
    assert result["overall"]["cells"] == 6 * 2 * 2 and result["overall"]["tasks"] == 6
    assert result["flips"] == {"a": {"cells": 0, "tasks": []}, "b": {"cells": 0, "tasks": []}}
    assert result["flipped_cells"] == []
    for row in (result["overall"], *result["conditions"]):
        assert row["success_a"] == row["success_b"] < 1.0
        assert row["success_delta"] == row["pass_1_delta"] == 0.0
        assert row["success_ci"] == row["pass_1_ci"] == [0.0, 0.0]
    assert result["same_task_set"] is True
    text = tau_sim("compare", first, second, "--db", str(db)).stdout
    assert "A passes, B fails: 0 cells" in text and "B passes, A fails: 0 cells" in text
    assert "scripted/sloppy read each task's answer key" in " ".join(text.split())


def test_gold_against_sloppy_in_two_files_names_the_tasks_that_differ(
    stores: dict[str, Any],
) -> None:
    gold_db, (gold,) = stores["gold"]
    sloppy_db, (sloppy, _) = stores["sloppy"]
    result = compare(gold, sloppy, "--db", str(gold_db), "--db-b", str(sloppy_db))
    a = without_agent(outcomes(gold_db))
    b = without_agent(outcomes(sloppy_db, f"where run_id = '{sloppy}'"))
    only_a, only_b = flips(a, b)
    assert only_a and not only_b  # gold passes everything
    assert result["flips"]["a"]["tasks"] == sorted(only_a)
    assert result["flips"]["b"] == {"cells": 0, "tasks": []}
    assert result["flips"]["a"]["cells"] == sum(a[k] and not b[k] for k in a)
    assert result["a"]["db"] == str(gold_db) and result["b"]["db"] == str(sloppy_db)
    overall = result["overall"]
    assert overall["success_a"] == 1.0
    assert overall["success_b"] == round(sum(b.values()) / len(b), 4)
    assert overall["success_ci"][0] <= overall["success_delta"] <= overall["success_ci"][1]
    assert overall["success_ci"][1] < 0  # sloppy is worse, and the interval says so
    per_condition = {c["emotion"]: c for c in result["conditions"]}
    assert set(per_condition) == {"neutral", "frustration"}
    for emotion, row in per_condition.items():
        cells = [k for k in b if k[1] == emotion]
        assert row["cells"] == len(cells) == 12
        assert row["success_b"] == round(sum(b[k] for k in cells) / 12, 4)
    text = tau_sim("compare", gold, sloppy, "--db", str(gold_db), "--db-b", str(sloppy_db)).stdout
    assert f"on {len(only_a)} tasks: {', '.join(sorted(only_a))}" in text


def test_two_agents_of_one_run(stores: dict[str, Any]) -> None:
    db, (run_id,) = stores["both"]
    result = compare(run_id, "--agents", "scripted/gold", "scripted/sloppy", "--db", str(db))
    stored = outcomes(db)
    a = without_agent({k: v for k, v in stored.items() if k[0] == "scripted/gold"})
    b = without_agent({k: v for k, v in stored.items() if k[0] == "scripted/sloppy"})
    only_a, only_b = flips(a, b)
    assert result["flips"]["a"]["tasks"] == sorted(only_a) and not only_b
    assert result["a"]["label"] == "agent scripted/gold"
    assert result["paired_by"][0] == "user" and "agent" not in result["paired_by"]
    swapped = compare(run_id, "--agents", "scripted/sloppy", "scripted/gold", "--db", str(db))
    assert swapped["flips"]["b"] == result["flips"]["a"]
    assert swapped["overall"]["success_delta"] == -result["overall"]["success_delta"]
    # the report's paired emotion effect is the same data, another pairing
    assert report(db, run_id)["emotion_effect"]["note"] is None


def one_line_error(*args: str) -> str:
    out = tau_sim("compare", *args, check=False)
    assert out.returncode == 2 and out.stdout == "", out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    return out.stderr


def test_bad_input_is_one_line_exit_2(stores: dict[str, Any], tmp_path: Path) -> None:
    db, (run_id,) = stores["both"]
    gold_db, (gold,) = stores["gold"]
    other = tmp_path / "other.db"
    tau_sim("run", "--tasks", "retail-010,retail-011", "--db", str(other), "--quiet")
    elsewhere = report(other)["run_id"]
    assert "have no completed grid cell in common" in one_line_error(
        gold, elsewhere, "--db", str(gold_db), "--db-b", str(other)
    )
    assert "RUN_B: no run 'run-nope' in" in one_line_error(gold, "run-nope", "--db", str(gold_db))
    assert "--agents: no agent 'scripted/nobody' in run" in one_line_error(
        run_id, "--agents", "scripted/gold", "scripted/nobody", "--db", str(db)
    )
    assert "--users: no user 'llm-x' in run" in one_line_error(
        run_id, "--users", "scripted", "llm-x", "--db", str(db)
    )
    assert "give two different agents" in one_line_error(
        run_id, "--agents", "scripted/gold", "scripted/gold", "--db", str(db)
    )
    assert "give two run ids" in one_line_error(run_id, "--db", str(db))
    assert "compares within one run" in one_line_error(
        run_id, gold, "--agents", "scripted/gold", "scripted/sloppy", "--db", str(db)
    )
    assert "--db-b: no database at" in one_line_error(
        gold, gold, "--db", str(gold_db), "--db-b", str(tmp_path / "absent.db")
    )
    assert not (tmp_path / "absent.db").exists()
