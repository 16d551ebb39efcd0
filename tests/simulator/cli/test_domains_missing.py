"""``tau-sim domains`` where τ²-bench's package cannot import: one line for its four domains,
not four (a stand-in ``loguru`` that fails to import plays the missing package)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.helpers.cli import TAU_SIM


def test_domains_says_once_that_the_tau2_domains_need_their_package(tmp_path: Path) -> None:
    broken = tmp_path / "loguru"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise ImportError('no loguru here', name='loguru')\n")
    path = os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
    out = subprocess.run(
        [*TAU_SIM, "domains"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert out.returncode == 0, out.stderr
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("tau-sim: tau2/airline, tau2/mock, tau2/retail, tau2/telecom: ")
    assert "pip install" in lines[0]
    assert "retail" in out.stdout  # our own domains are listed as ever
