"""The benchmark scripts run end to end and print their figures (no speed is asserted)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(script: str, *args: str) -> str:
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_engine_benchmark_quick() -> None:
    data = json.loads(run("engine.py", "--quick", "--json"))
    assert [r["concurrency"] for r in data["levels"]] == [8, 32]
    for row in data["levels"]:
        # exactly one full wave (--quick: 1 wave), whatever the domain's task count
        assert row["conversations"] == row["concurrency"] and row["mean_reward"] == 1.0
        assert 0 < row["efficiency"] <= 1.05 and row["cpu_ms_per_call"] > 0
    assert data["store"]["events"] == 20_000 and data["store"]["events_per_s"] > 0


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_backends_benchmark_quick() -> None:
    rows = json.loads(run("backends.py", "--quick", "--json"))
    assert [(r["concurrency"], r["latency"]) for r in rows] == [(64, 0.5), (8, 0.2)]
    for row in rows:  # --quick: two full waves each
        assert row["conversations"] == 2 * row["concurrency"]
        assert row["model_calls"] > row["conversations"]
        assert row["reasons"] == "user_stop"


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_grid_scale_benchmark_quick() -> None:
    rows = json.loads(run("grid_scale.py", "--quick", "--json"))
    assert [r["cells"] for r in rows] == [100, 1000, 5000]
    for row in rows:
        assert 100 <= row["conversations"] == row["reported"] < 200  # stopped after 100
        assert row["first_s"] > 0 and row["rss_run_mb"] > 0 and row["rss_report_mb"] > 0
        assert row["bytes_per_conv"] > 1000 and row["dry_run_s"] > 0
    assert rows[0]["ratio"] == dict.fromkeys(rows[0]["ratio"], 1.0)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_report_memory_benchmark_at_tiny_sizes() -> None:
    rows = json.loads(run("report_memory.py", "--tasks", "5,20", "--json"))
    assert [r["tasks"] for r in rows] == [5, 20]
    assert all(r["rss_report_mb"] > 0 and r["report_s"] > 0 for r in rows)
    assert rows[0]["ratio"] == {"rss_report_mb": 1.0, "report_s": 1.0}
