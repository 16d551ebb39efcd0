"""``tau-sim domains`` where τ²-bench's package cannot import: one line for its four domains,
not four (a stand-in ``loguru`` that fails to import plays the missing package)."""

from __future__ import annotations

import os
import sqlite3
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


def test_a_tau2_export_of_another_domains_run_is_refused_for_what_it_is(tmp_path: Path) -> None:
    """Without τ²-bench's package, `export --format tau2` of a retail run names the run's
    domain (the real reason), not the missing package."""
    db = tmp_path / "retail.db"
    played = subprocess.run(
        [*TAU_SIM, "run", "--tasks", "1", "--db", str(db), "--quiet"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert played.returncode == 0, played.stderr
    [[run_id]] = sqlite3.connect(db).execute("select id from runs").fetchall()
    broken = tmp_path / "loguru"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise ImportError('no loguru here', name='loguru')\n")
    path = os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
    out = subprocess.run(
        [
            *TAU_SIM,
            "export",
            run_id,
            "--format",
            "tau2",
            "--out",
            str(tmp_path / "t.json"),
            "--db",
            str(db),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert out.returncode == 2, out.stderr
    assert out.stderr.startswith(f"tau-sim: error: --format tau2: run {run_id} plays retail;")
    assert not (tmp_path / "t.json").exists()
