"""``tau-sim report``: pass^k and success by condition for a run.

What it prints (``cli.reporting``: ``results`` and rich) is imported when it runs, so that the
other commands start without it.
"""

from __future__ import annotations

import argparse

from tau_sim.simulator.cli.options import add_interval_options
from tau_sim.simulator.core.registry import Command
from tau_sim.simulator.store.opening import DEFAULT_DB, open_database


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
    from tau_sim.simulator.cli.reporting import compare_users_report, print_report

    db = open_database(args.db, readonly=True)
    if args.compare_users:
        return compare_users_report(db, args)
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
