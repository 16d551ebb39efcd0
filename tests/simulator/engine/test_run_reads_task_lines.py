"""A run reads everything from the task lines and never imports a task factory.

The real ``tau-sim run`` in a subprocess where importing any ``factory`` module (a domain's
generators, ``domains/NAME/factory``) fails. The pushover still gives in to an angry user on
airline's two refusal tasks, and each such conversation still ends as ``policy_violation``: the
answer key, the failure diagnosis and the grader read ``Task.violations``. A second run, under
``python -X importtime``, lists every module it imports: none is a factory's.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

from tests.helpers.cli import TIMEOUT

WITHOUT_FACTORIES = """
import importlib.abc, sys

class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if ".factory" in name:
            raise ImportError(f"a run imported the factory module {name}")
        return None

sys.meta_path.insert(0, Blocked())
from tau_sim.simulator.cli.main import main
sys.exit(main(sys.argv[1:]))
"""

TEN = (
    *("airline", "banking", "car_rental", "food_delivery", "hotel", "insurance"),
    *("retail", "telecom", "telehealth", "utilities"),
)
GRID = [
    *("--domain", "airline", "--tasks", "airline-006,airline-007"),
    *("--agent", "scripted/pushover", "--emotions", "neutral,anger"),
    *("--intensities", "high", "--workers", "1", "--seed", "4"),
]


def test_the_run_finds_the_violations_without_the_factories(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    out = subprocess.run(
        [sys.executable, "-c", WITHOUT_FACTORIES, "run", *GRID, "--db", str(db), "--quiet"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert out.returncode == 0, out.stderr
    conn = sqlite3.connect(db)
    stored = conn.execute("select emotion, status, failure, refusal from conversations").fetchall()
    conn.close()
    assert Counter(stored) == {
        ("neutral", "completed", None, 1): 2,
        ("frustration", "completed", "policy_violation", 1): 2,
    }


def test_a_run_of_every_domain_imports_no_factory_module(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            *(sys.executable, "-X", "importtime", "-m", "tau_sim.simulator.cli.main", "run"),
            *("--domain", ",".join(TEN), "--tasks", "1", "--agent", "scripted/gold"),
            *("--workers", "1", "--db", str(tmp_path / "runs.db"), "--quiet"),
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    imported = [line.rsplit("|", 1)[-1].strip() for line in out.stderr.splitlines()]
    assert any(name.startswith("tau_sim.domains.airline") for name in imported)
    assert [name for name in imported if ".factory" in name] == []
