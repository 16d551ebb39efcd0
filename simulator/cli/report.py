"""``tau-sim report``: pass^k and success by condition for a run (and what every run prints).

The result modules (``results.metrics``, ``results.report`` with rich) are imported where used,
so that the other commands start without them.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import msgspec

from tau_sim.simulator.cli.options import add_interval_options
from tau_sim.simulator.core.escapes import json_visible
from tau_sim.simulator.core.registry import Command
from tau_sim.simulator.results.stats import RESAMPLES, check_resamples
from tau_sim.simulator.store.opening import DEFAULT_DB, open_database
from tau_sim.simulator.store.reads import get_run


def configure(report: argparse.ArgumentParser) -> None:
    """The options of ``tau-sim report``."""
    report.add_argument("run_id", nargs="?", help="run id (default: the latest run)")
    report.add_argument("--db", default=DEFAULT_DB)
    report.add_argument("--json", action="store_true", help="print one JSON object")
    report.add_argument(
        "--count-errors",
        action="store_true",
        help="count conversations ended by endpoint or user-simulator errors as failures "
        "(default: left out)",
    )
    add_interval_options(report)
    report.add_argument(
        "--by-family",
        action="store_true",
        help="roll the by-emotion table up to emotion families (see `tau-sim emotions`)",
    )
    report.add_argument(
        "--by-leaf",
        action="store_true",
        help="a task-profile run (--emotions task) by emotion leaf and exact intensity, not by "
        "family and level",
    )
    report.add_argument(
        "--compare-users",
        action="store_true",
        help="human-played vs simulated users on the same cells, over the whole --db (with "
        "RUN_ID: that run's human side)",
    )


def run(args: argparse.Namespace) -> int:
    """Print the report of a stored run (or, with ``--compare-users``, humans vs simulations)."""
    db = open_database(args.db, readonly=True)
    if args.compare_users:
        return _compare_users(db, args)
    print_report(
        db,
        args.run_id,
        as_json=args.json,
        count_errors=args.count_errors,
        resamples=args.resamples,
        by_family=args.by_family,
        by_leaf=args.by_leaf,
    )
    return 0


COMMAND = Command("report", "pass^k and success by condition for a run", configure, run)


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
    from tau_sim.simulator.results.metrics import run_report
    from tau_sim.simulator.results.report import render_report

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
        _print_breakdowns(report)


def _print_breakdowns(report: dict[str, Any]) -> None:
    """The cost and failure tables under the report, then policy violations and users' tags."""
    from tau_sim.simulator.results.breakdowns import render_costs, render_failures
    from tau_sim.simulator.results.pressure_tables import render_tags, render_violations
    from tau_sim.simulator.results.terminal import stdout_console

    console = stdout_console()
    render_costs(report, console)
    render_failures(report, console)
    render_violations(report, console)
    render_tags(report, console)


def _compare_users(db: Any, args: argparse.Namespace) -> int:
    """``tau-sim report --compare-users``: human-played against simulated users."""
    from tau_sim.simulator.results.terminal import stdout_console
    from tau_sim.simulator.results.usercompare import compare_users, print_compare_users

    result = compare_users(db, args.run_id)
    if args.json:
        sys.stdout.write(json_visible(msgspec.json.encode(result).decode()) + "\n")
    else:
        print_compare_users(result, stdout_console())
    return 0
