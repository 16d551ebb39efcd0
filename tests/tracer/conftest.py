"""One small real pipeline shared by the Tracer tests: construct, collect, filter."""

from __future__ import annotations

import json
import sqlite3
from functools import partial
from pathlib import Path

import msgspec
import pytest

from tests.helpers import cli

SPEC = "anger:2,fear,helplessness;intensity=low,high"


tau_sim = partial(cli.tau_sim, check=False, clean=True)


class Pipeline(msgspec.Struct):
    tasks: Path
    db: Path
    run_id: str
    selection: Path
    construct: dict
    filtered: dict


@pytest.fixture(scope="session")
def pipeline(tmp_path_factory: pytest.TempPathFactory) -> Pipeline:
    """30 retail tasks with emotion profiles, played by the gold agent and the over-asker."""
    root = tmp_path_factory.mktemp("tracer")
    tasks, db, selection = root / "tasks.jsonl", root / "t.db", root / "selection.json"
    made = tau_sim(
        *("tracer", "construct", "--domain", "retail", "--count", "30", "--seed", "5"),
        *("--emotions", SPEC, "--out", str(tasks)),
    )
    assert made.returncode == 0, made.stderr
    ran = tau_sim(
        *("run", "--domain", "retail", "--tasks-file", str(tasks), "--emotions", "task"),
        *("--agent", "scripted/gold,scripted/over-asker", "--db", str(db), "--quiet"),
    )
    assert ran.returncode == 0, ran.stderr
    with sqlite3.connect(db) as conn:
        (run_id,) = conn.execute("select id from runs").fetchone()
    kept = tau_sim("tracer", "filter", run_id, "--db", str(db), "--out", str(selection))
    assert kept.returncode == 0, kept.stderr
    return Pipeline(tasks, db, run_id, selection, json.loads(made.stdout), json.loads(kept.stdout))
