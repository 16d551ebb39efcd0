"""benchmarks/tui.py runs both modes end to end and reports its figures (no speed asserted)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tau_sim.simulator.core.registry import get_domain, load_plugins

load_plugins()
SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "tui.py"


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_tui_benchmark_small() -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--concurrency",
            "16",
            "--latency",
            "0.01",
            "--waves",
            "1",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=110,
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    tasks = len(get_domain("retail").tasks)  # one conversation each
    assert data["headless"]["conversations"] == data["tui"]["conversations"] == tasks
    assert data["tui"]["rows"] == tasks and data["tui"]["dropped"] == 0
    assert data["tui"]["screen_updates"] > 0 and data["throughput_ratio"] > 0
