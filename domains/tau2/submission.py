"""``tau-sim export RUN --format tau2-submission --out DIR``: a τ²-bench leaderboard submission.

DIR holds ``submission.json`` (their ``Submission`` model: pass^1..pass^4 in percent and the
mean agent cost per conversation for the run's domain, the methodology filled from the run)
and ``trajectories/<domain>.json`` (the run in their ``Results`` format). The run must play
one of their leaderboard domains (retail, airline, telecom) with one agent and at least four
trials; anything else is refused with one line before DIR is made.
"""

from __future__ import annotations

import datetime
import shutil
import tempfile
import warnings
from importlib.metadata import PackageNotFoundError, version
from math import comb
from pathlib import Path
from typing import Any

import sqlite_utils

from tau_sim.simulator.core import NEUTRAL, UsageError
from tau_sim.simulator.grid import decode_config
from tau_sim.simulator.store import get_run

LEADERBOARD_DOMAINS = ("retail", "airline", "telecom")
"""The domains their ``Results`` model has a field for."""
PASS_KS = (1, 2, 3, 4)
FLAG = "--format tau2-submission"


def pass_hat(successes_per_task: list[tuple[int, int]], k: int) -> float:
    """pass^k in percent: the mean over tasks of C(c, k) / C(n, k) (n trials, c passed)."""
    return (
        100 * sum(comb(c, k) / comb(n, k) for n, c in successes_per_task) / len(successes_per_task)
    )


def their_submission_model() -> Any:
    """Their ``Submission`` model (its class-based pydantic config warns on import)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from tau2.scripts.leaderboard.submission import Submission
    return Submission


def _tau_sim_version() -> str:
    try:
        return version("tau-sim")
    except PackageNotFoundError:
        return "unknown"


def submission_of(db: sqlite_utils.Database, run_id: str) -> tuple[str, dict[str, Any]]:
    """The run's domain short name and its submission (a dict in their schema); refusals."""
    run = get_run(db, run_id)
    config = decode_config(run["config"])
    domains = ", ".join(config.domains)
    if len(config.domains) != 1 or not config.domains[0].startswith("tau2/"):
        raise UsageError(f"{FLAG}: run {run['id']} plays {domains}; it needs one tau2/* domain")
    short = config.domains[0].removeprefix("tau2/")
    if short not in LEADERBOARD_DOMAINS:
        raise UsageError(
            f"{FLAG}: τ²-bench's leaderboard has {', '.join(LEADERBOARD_DOMAINS)}, not {short}"
        )
    if len(config.agents) != 1:
        raise UsageError(f"{FLAG}: run {run['id']} plays {len(config.agents)} agents; one needed")
    rows = list(
        db.query(
            "select task_id, status, reward, agent_cost_usd from conversations "
            "where run_id = ? order by cell",
            [run["id"]],
        )
    )
    per_task: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        per_task.setdefault(row["task_id"], []).append(row)
    fewest = min((len(v) for v in per_task.values()), default=0)
    if fewest < max(PASS_KS):
        raise UsageError(
            f"{FLAG}: pass^{max(PASS_KS)} needs {max(PASS_KS)} trials per task; "
            f"run {run['id']} has {fewest}"
        )
    counts = [(len(v), sum(1 for r in v if r["reward"] == 1.0)) for v in per_task.values()]
    costs = [r["agent_cost_usd"] for r in rows]
    cost = None if any(c is None for c in costs) else sum(costs) / len(costs)
    user = ",".join(config.users)
    result: dict[str, Any] = {f"pass_{k}": pass_hat(counts, k) for k in PASS_KS}
    result["cost"] = cost
    prompts = (
        "prompts unchanged"
        if config.emotions == [NEUTRAL]
        else "user prompts modified (emotional user conditions)"
    )
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    submission = {
        "model_name": config.agents[0],
        "organization": "unknown",
        "submission_date": today,
        "contact_info": {"email": "unknown@example.com"},
        "results": {short: result},
        "is_new": False,
        "methodology": {
            "evaluation_date": today,
            "user_simulator": user,
            "notes": (
                f"Run {run['id']} by tau-sim {_tau_sim_version()}: user {user}, "
                f"{config.trials} trials, emotions {','.join(config.emotions)}; {prompts}"
            ),
        },
    }
    return short, submission


def export_submission(db: sqlite_utils.Database, run_id: str, out: str, force: bool = False) -> int:
    """Write DIR (``out``) whole: ``submission.json`` and ``trajectories/``; returns the count.

    The submission is validated against their ``Submission`` model before anything is
    written; an existing DIR is replaced only with ``force``.
    """
    Submission = their_submission_model()
    from tau_sim.domains.tau2.results import export_tau2

    short, data = submission_of(db, run_id)
    target = Path(out)
    if out == "-":
        raise UsageError(f"{FLAG}: --out must be a directory")
    if target.exists() and not force:
        raise UsageError(f"--out {out} already exists (--force replaces it)")
    text = Submission.model_validate(data).model_dump_json(indent=2)
    staging = Path(tempfile.mkdtemp(prefix=".submission-", dir=target.parent or Path(".")))
    try:
        (staging / "trajectories").mkdir()
        count = export_tau2(db, run_id, str(staging / "trajectories" / f"{short}.json"))
        (staging / "submission.json").write_text(text + "\n")
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        if staging.exists():
            shutil.rmtree(staging)
    return count
