"""Task tiers: ``tau-sim run --tier`` on a task file that mixes them, and what reads a tier.

The file is retail's first six tasks with two marked ``hard`` and one written before tiers
(no ``tier`` field: it reads as ``base``).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tests.helpers.cli import report, run_error, tau_sim

RETAIL = Path(__file__).parents[3] / "domains" / "retail" / "tasks.jsonl"
HARD = {1, 4}
"""The lines (0-based) of the mixed file marked hard."""


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    lines = RETAIL.read_text().splitlines()[:6]
    tasks = [json.loads(line) for line in lines]
    for i, task in enumerate(tasks):
        task["tier"] = "hard" if i in HARD else "base"
    del tasks[5]["tier"]
    path = tmp_path / "mixed.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks))
    return path


def _ids(path: Path) -> list[str]:
    return [json.loads(line)["id"] for line in path.read_text().splitlines()]


def _stored(db: Path) -> tuple[list[str], str]:
    conn = sqlite3.connect(db)
    tasks = [r[0] for r in conn.execute("select task_id from conversations order by cell")]
    (config,) = conn.execute("select config from runs").fetchone()
    conn.close()
    return tasks, json.loads(config)["tier"]


@pytest.mark.parametrize(
    ("tier", "lines"), [("hard", sorted(HARD)), ("base", [0, 2, 3, 5]), ("all", range(6))]
)
def test_run_plays_the_tier_it_is_given(
    mixed: Path, tmp_path: Path, tier: str, lines: list[int]
) -> None:
    ids = _ids(mixed)
    db = tmp_path / "t.db"
    tau_sim("run", "--tasks-file", str(mixed), "--tier", tier, "--quiet", "--db", str(db))
    assert _stored(db) == ([ids[i] for i in lines], tier)
    assert report(db)["tier"] == tier


def test_tier_goes_with_tasks_and_defaults_to_all(mixed: Path, tmp_path: Path) -> None:
    ids = _ids(mixed)
    db = tmp_path / "t.db"
    tau_sim("run", "--tasks-file", str(mixed), "--tier", "HARD", "--tasks", "1", "--db", str(db))
    assert _stored(db) == ([ids[min(HARD)]], "hard")
    tau_sim("run", "--tasks-file", str(mixed), "--tasks", "2", "--db", str(tmp_path / "a.db"))
    assert _stored(tmp_path / "a.db") == (ids[:2], "all")
    # --tasks names a task of another tier: refused, naming the tier
    line = run_error(
        "run",
        *("--tasks-file", str(mixed), "--tier", "hard", "--tasks", ids[0]),
        "--db",
        str(tmp_path / "b.db"),
    ).stderr
    assert f"--tasks: {ids[0]!r} is a base task; --tier hard plays only the hard tasks" in line
    assert not (tmp_path / "b.db").exists()


def test_a_tier_without_tasks_stores_nothing(mixed: Path, tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    base = tmp_path / "base.jsonl"
    lines = mixed.read_text().splitlines()
    base.write_text("".join(f"{line}\n" for n, line in enumerate(lines) if n not in HARD))
    line = run_error("run", "--tasks-file", str(base), "--tier", "hard", "--db", str(db)).stderr
    assert line.strip() == f"tau-sim: error: --tier hard: {base} has no hard tasks (4 in all)"
    assert not db.exists()
    line = run_error("run", "--tasks-file", str(mixed), "--tier", "expert", "--db", str(db)).stderr
    assert "--tier must be one of base, hard, all (got 'expert')" in line
    assert not db.exists()


def test_a_task_file_with_another_tier_is_refused_at_its_line(mixed: Path, tmp_path: Path) -> None:
    lines = mixed.read_text().splitlines()
    task = json.loads(lines[2])
    task["tier"] = "expert"
    lines[2] = json.dumps(task)
    mixed.write_text("\n".join(lines) + "\n")
    line = run_error("run", "--tasks-file", str(mixed), "--db", str(tmp_path / "t.db")).stderr
    assert (
        line.strip()
        == f'tau-sim: error: {mixed}:3: tier: "expert" is not a tier (one of base, hard)'
    )


def test_domains_show_counts_tiers() -> None:
    shown = json.loads(tau_sim("domains", "show", "retail", "--json").stdout)
    tiers = [json.loads(line)["tier"] for line in RETAIL.read_text().splitlines()]
    counts = {"base": tiers.count("base"), "hard": tiers.count("hard")}
    assert shown["tiers"] == counts and counts["hard"] > 0
    assert (
        f"{counts['base']} base, {counts['hard']} hard"
        in tau_sim("domains", "show", "retail").stdout
    )


def test_resume_finishes_the_tier_it_was_started_with(mixed: Path, tmp_path: Path) -> None:
    ids = _ids(mixed)
    db = tmp_path / "t.db"
    grid = ("--tasks-file", str(mixed), "--tier", "hard", "--trials", "2", "--quiet")
    tau_sim("run", *grid, "--db", str(db))
    conn = sqlite3.connect(db)
    (run_id,) = conn.execute("select id from runs").fetchone()
    with conn:  # made to look crashed: one conversation lost its ending
        conn.execute("update runs set status = 'interrupted'")
        conn.execute("update conversations set status = 'running' where cell = 1")
    conn.close()
    tau_sim("run", "--resume", run_id, "--db", str(db), "--quiet")
    tasks, tier = _stored(db)
    assert tier == "hard" and sorted(tasks) == sorted(ids[i] for i in HARD for _ in range(2))
    assert report(db)["tier"] == "hard" and report(db)["status"] == "completed"
