"""What ``tau-sim report`` prints, and every run when it ends: the report, JSON or tables.

The tables are the report's (``results.report``), then the cost and failure breakdowns, policy
violations and users' tags; ``--compare-users`` prints humans against simulated users. The CLI
imports this module (``results`` and rich with it) only when a report is printed.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import msgspec

from tau_sim.simulator.core.escapes import json_visible
from tau_sim.simulator.results.breakdowns import render_costs, render_failures
from tau_sim.simulator.results.metrics import run_report
from tau_sim.simulator.results.pressure_tables import render_tags, render_violations
from tau_sim.simulator.results.report import render_report
from tau_sim.simulator.results.stats import RESAMPLES, check_resamples
from tau_sim.simulator.results.terminal import stdout_console
from tau_sim.simulator.results.usercompare import compare_users, print_compare_users
from tau_sim.simulator.store.reads import get_run


def print_report(
    db: Any,
    run_id: str | None,
    *,
    as_json: bool,
    count_errors: bool = False,
    resamples: int | None = None,
    by_family: bool = False,
    by_leaf: bool = False,
) -> None:
    """Print a run's report: as JSON, or its tables with the cost and failure breakdowns.

    A task-profile run is grouped by emotion family and intensity level unless ``by_leaf``.
    """
    resamples = check_resamples(RESAMPLES if resamples is None else resamples)
    found = get_run(db, run_id)
    report = run_report(
        db,
        found,
        count_errors=count_errors,
        resamples=resamples,
        by_family=by_family,
        by_leaf=by_leaf,
    )
    if as_json:
        print(json.dumps(report, indent=2))
    else:
        render_report(report)
        print_breakdowns(report)


def print_breakdowns(report: dict[str, Any]) -> None:
    """The cost and failure tables under the report, then policy violations and users' tags."""
    console = stdout_console()
    render_costs(report, console)
    render_failures(report, console)
    render_violations(report, console)
    render_tags(report, console)


def compare_users_report(db: Any, args: argparse.Namespace) -> int:
    """``tau-sim report --compare-users``: human-played against simulated users."""
    result = compare_users(db, args.run_id)
    if args.json:
        sys.stdout.write(json_visible(msgspec.json.encode(result).decode()) + "\n")
    else:
        print_compare_users(result, stdout_console())
    return 0
