"""``benchmarks/gym_throughput.py`` runs end to end and prints its figures (no speed asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.simulator.gym.needs import require_gym

require_gym()

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_gym_throughput_quick() -> None:
    command = [sys.executable, str(ROOT / "benchmarks" / "gym_throughput.py"), "--quick", "--json"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=280)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [row["concurrency"] for row in data["levels"]] == [1, 8]
    for row in data["levels"]:
        assert row["episodes"] == 8
        # the same cells: the same agent turns (the vector slots draw theirs from the pool)
        assert row["engine"]["steps"] == row["rollouts"]["steps"] > 8
        for way in ("engine", "rollouts", "vector"):
            assert row[way]["mean_reward"] == 1.0 and row[way]["steps_per_s"] > 0
        assert row["rollouts"]["ratio"] > 0 and row["vector"]["ratio"] > 0
