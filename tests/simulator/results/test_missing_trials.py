"""pass^k over missing trials: a figure is given only where every task has k counted trials.

The real ``tau-sim run`` against a real endpoint on 127.0.0.1 whose first answers are HTTP 429
(one attempt each, so each ends its conversation as an endpoint error), then ``tau-sim report``
as JSON and as text. Before this rule, pass^2 was the mean over the tasks that still had two
trials, and the task an endpoint hit dropped out of it: the figure rose with k.
"""

from __future__ import annotations

import json
import sqlite3
from functools import partial
from pathlib import Path

from tau_sim.simulator.results.metrics import summarize
from tests.helpers import cli
from tests.helpers.servers import FaultServer
from tests.simulator.results.test_faults import row

tau_sim = partial(cli.tau_sim, check=False, clean=True)
GRID = [
    *("--tasks", "3", "--emotions", "neutral", "--trials", "2", "--max-steps", "6"),
    *("--seed", "1", "--concurrency", "1"),
]


def _run(db: Path, url: str) -> None:
    options = [f"base_url={url}", "max_retries=0", "timeout=5"]
    agent = ["--agent", "openai/fake", *(x for o in options for x in ("--agent-arg", o))]
    out = tau_sim("run", *agent, *GRID, "--max-error-share", "1", "--quiet", "--db", str(db))
    assert out.returncode == 0, out.stderr


def test_pass_k_is_withheld_where_a_task_lacks_k_counted_trials(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    with FaultServer("ok") as server:
        server.fail_first = 1  # the first conversation (retail-000, trial 0) ends infra_error
        _run(db, server.url)
    conn = sqlite3.connect(db)
    infra = conn.execute(
        "select task_id, trial from conversations where reason = 'infra_error'"
    ).fetchall()
    conn.close()
    assert infra == [("retail-000", 0)]
    report = json.loads(tau_sim("report", "--json", "--db", str(db)).stdout)
    assert (report["cells"], report["cells_with_k"]) == (3, {"1": 3, "2": 2})
    assert report["pass_hat_k"]["1"] is not None
    assert report["pass_hat_k"]["2"] is None and report["pass_at_k"]["2"] is None
    assert report["ci"]["pass_hat_k"]["2"] is None
    (row,) = report["conditions"]
    assert row["pass_hat_k"]["2"] is None and row["cells_with_k"]["2"] == 2
    text = tau_sim("report", "--db", str(db)).stdout
    assert "6/6 conversations (5 counted, 1 excluded)" in text
    assert "pass^2 - (2/3 tasks with 2 trials)" in text
    assert "need k counted trials in every task" in text and "--resume" in text

    # counted as failures (--count-errors), every task has both trials: the figure is back
    counted = json.loads(tau_sim("report", "--json", "--count-errors", "--db", str(db)).stdout)
    assert counted["cells_with_k"] == {"1": 3, "2": 3}
    hat = counted["pass_hat_k"]
    assert hat["2"] is not None and hat["2"] <= hat["1"]


def test_a_whole_run_gives_every_k_and_no_missing_trials_line(tmp_path: Path) -> None:
    db = tmp_path / "w.db"
    with FaultServer("ok") as server:
        _run(db, server.url)
    report = json.loads(tau_sim("report", "--json", "--db", str(db)).stdout)
    assert report["cells_with_k"] == {"1": 3, "2": 3}
    assert None not in report["pass_hat_k"].values()
    assert report["pass_hat_k"]["2"] <= report["pass_hat_k"]["1"]
    text = tau_sim("report", "--db", str(db)).stdout
    assert "need k counted trials" not in text and "excluded" not in text


def test_the_readmes_worked_example() -> None:
    lost = row("A", 1, "infra_error", 0.0, "agent: [HTTP 500 server error] x")
    rows = [row("A", 0, "user_stop", 0.0), lost]
    rows += [row(task, trial, "user_stop", 1.0) for task in "BC" for trial in (0, 1)]
    figures = summarize(rows, 2)
    assert figures["pass_hat_k"] == {"1": 0.6667, "2": None}  # not (1 + 1) / 2 = 1.0
    assert figures["cells_with_k"] == {"1": 3, "2": 2}
    replayed = [r if r is not lost else row("A", 1, "user_stop", 0.0) for r in rows]
    assert summarize(replayed, 2)["pass_hat_k"] == {"1": 0.6667, "2": 0.6667}
