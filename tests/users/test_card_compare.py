"""``scripts/users_card_compare.py``: two runs' user cards over exactly the cells both played.

Two real ``tau-sim run``s of the scripted user in one store: the first plays a plain retail task
and a refusal task, the second only the refusal task, so the cells in common are the refusal
task's, and its insistence counts must come out on both sides.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tau_sim.simulator.store.opening import open_database
from tests.helpers.cli import tau_sim

SCRIPT = Path(__file__).parents[2] / "scripts" / "users_card_compare.py"
REFUSAL = "retail-011"
"""A retail task whose user demands what the policy refuses."""


def _compare(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False
    )


def _run(db: Path, tasks: str) -> str:
    tau_sim(
        "run", "--domain", "retail", "--tasks", tasks, "--emotions", "neutral,anger",
        "--intensities", "low,high", "--seed", "3", "--db", str(db), "--quiet",
    )  # fmt: skip
    sqlite = open_database(db, readonly=True)
    run_id = str(next(iter(sqlite.query("select id from runs order by rowid desc")))["id"])
    sqlite.conn.close()
    return run_id


def test_only_the_cells_both_runs_played_are_compared(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    wide, narrow = _run(db, f"retail-001,{REFUSAL}"), _run(db, REFUSAL)
    out = _compare("--run", str(db), wide, "--run", str(db), narrow, "--json")
    assert out.returncode == 0, out.stderr
    compared = json.loads(out.stdout)
    assert compared["cells"] == 3  # neutral, anger low and high of the refusal task
    assert [side["run"] for side in compared["sides"]] == [wide, narrow]
    rows = compared["sides"][1]["rows"]
    assert [(r["emotion"], r["intensity"]) for r in rows] == [
        ("neutral", 0.0),
        ("frustration", 0.3),
        ("frustration", 0.9),
    ]
    for row in rows:
        assert row["conversations"] == 1 and row["with_demand"] == 1 and row["refused"] == 1
    assert [r["insistences_made"] for r in rows] == [0, 1, 5]
    table = _compare("--run", str(db), wide, "--run", str(db), narrow).stdout
    assert table.startswith("3 cells played by both (scripted: 6 completed of 6 stored")


def test_an_unknown_run_is_one_line_and_exit_2(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    run_id = _run(db, REFUSAL)
    out = _compare("--run", str(db), run_id, "--run", str(db), "run-nope")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip().count("\n") == 0 and "run-nope" in out.stderr
    out = _compare("--run", str(db), run_id)
    assert out.returncode == 2 and out.stderr.strip() == "--run: give exactly two sides"
