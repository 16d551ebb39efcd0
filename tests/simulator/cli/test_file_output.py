"""Tables written to a file or a pipe take their content's width: no column cut at 80, no
agent name shrunk to ``scripte…`` (``results.terminal.stdout_console``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tests.helpers.cli import tau_sim

AGENTS = "scripted/gold,scripted/over-asker"


def test_run_report_and_tracer_stats_to_a_file_keep_every_column_whole(tmp_path: Path) -> None:
    db = tmp_path / "wide.db"
    run = tau_sim(
        "run", "--domain", "retail", "--tasks", "2", "--agent", AGENTS,
        "--emotions", "neutral,anger", "--db", str(db),
    )  # fmt: skip
    assert "…" not in run.stdout, run.stdout
    assert "scripted/over-asker" in run.stdout
    report = tau_sim("report", "--db", str(db)).stdout
    assert "…" not in report and "scripted/over-asker" in report
    [[run_id]] = sqlite3.connect(db).execute("select id from runs").fetchall()
    stats = tau_sim("tracer", "stats", run_id, "--db", str(db)).stdout
    header = next(line for line in stats.splitlines() if "agent" in line and "tools" in line)
    for column in ("necessary", "needless", "balance", "success", "abandoned"):
        assert column in header, stats
    assert "…" not in stats and "scripted/over-asker" in stats
