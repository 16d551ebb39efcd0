"""A run exported as a τ²-bench leaderboard submission, and what is refused (one line, exit 2)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

from tests.domains.tau2.needs import require_tau2

require_tau2()

from tau2.data_model.simulation import Results  # noqa: E402

from tau_sim.domains.tau2.submission import their_submission_model  # noqa: E402
from tests.helpers.cli import TAU_SIM  # noqa: E402
from tests.helpers.servers import FaultServer  # noqa: E402

Submission = their_submission_model()


def _db(db: Path) -> list[str]:
    return ["--db", str(db)]


def _run(db: Path, *args: str) -> str:
    """A run with an LLM user on a local endpoint (the scripted user cannot read their tasks)."""
    env = {**os.environ, "OPENAI_API_KEY": "sk-test"}
    with FaultServer() as server:
        user = ["--user", "openai/fake", "--user-arg", f"base_url={server.url}"]
        done = subprocess.run(
            [
                *TAU_SIM,
                "run",
                *args,
                *user,
                "--user-arg",
                "max_retries=0",
                "--db",
                str(db),
                "--quiet",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
    assert done.returncode == 0, done.stderr
    return str(sqlite3.connect(db).execute("select id from runs").fetchone()[0])


def _export(db: Path, run_id: str, out: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            *TAU_SIM,
            "export",
            run_id,
            "--db",
            str(db),
            "--format",
            "tau2-submission",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_four_trial_gold_run_validates_in_their_submission_model(tmp_path: Path) -> None:
    """pass^1..4 are 100 for the gold agent; the trajectories read back in their model."""
    db, out = tmp_path / "runs.db", tmp_path / "sub"
    run_id = _run(
        db, "--domain", "tau2/retail", "--task-split", "test", "--tasks", "2", "--trials", "4"
    )
    done = _export(db, run_id, out)
    assert done.returncode == 0, done.stderr
    submission = Submission.model_validate_json((out / "submission.json").read_text())
    retail = submission.results.retail
    assert retail is not None
    assert (retail.pass_1, retail.pass_4) == (100.0, 100.0)
    assert submission.methodology is not None
    assert submission.methodology.user_simulator == "openai/fake"
    assert "prompts unchanged" in (submission.methodology.notes or "")
    assert len(Results.load(out / "trajectories" / "retail.json").simulations) == 8
    assert json.loads((out / "submission.json").read_text())["model_name"] == "scripted/gold"


def test_too_few_trials_and_own_domains_are_refused_with_nothing_written(tmp_path: Path) -> None:
    """Three trials cannot give pass^4; an own domain is not on their leaderboard."""
    db, own, out = tmp_path / "runs.db", tmp_path / "own.db", tmp_path / "sub"
    run_id = _run(db, "--domain", "tau2/retail", "--tasks", "1", "--trials", "3")
    done = _export(db, run_id, out)
    assert done.returncode == 2 and "needs 4 trials per task" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    own_run = [*TAU_SIM, "run", "--domain", "retail", "--tasks", "1", "--trials", "4"]
    assert subprocess.run([*own_run, "--db", str(own), "--quiet"], timeout=120).returncode == 0
    own_id = str(sqlite3.connect(own).execute("select id from runs").fetchone()[0])
    done = _export(own, own_id, out)
    assert done.returncode == 2 and "needs one tau2/* domain" in done.stderr
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".submission-")]
