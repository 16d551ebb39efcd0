"""``tau-sim compare``: two runs, or two agents or two users of one run, paired by cell.

``results.compare`` and ``results.report`` are imported where used (a lean start-up).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from tau_sim.simulator.cli.options import add_interval_options
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import Command
from tau_sim.simulator.results.stats import check_resamples
from tau_sim.simulator.store.opening import DEFAULT_DB, open_database


def configure(compare: argparse.ArgumentParser) -> None:
    """The options of ``tau-sim compare``."""
    compare.add_argument("run_a", help="run id (A; with --agents/--users, the one run)")
    compare.add_argument("run_b", nargs="?", help="run id of B (not with --agents/--users)")
    compare.add_argument("--db", default=DEFAULT_DB, help="SQLite file of A (and of B)")
    compare.add_argument("--db-b", metavar="PATH", help="SQLite file of RUN_B (default: --db)")
    pair = compare.add_mutually_exclusive_group()
    pair.add_argument("--agents", nargs=2, metavar=("A", "B"), help="two agents of one run")
    pair.add_argument("--users", nargs=2, metavar=("A", "B"), help="two user models of one run")
    compare.add_argument("--json", action="store_true", help="print one JSON object")
    compare.add_argument(
        "--count-errors",
        action="store_true",
        help="count conversations ended by endpoint or user-simulator errors as failures "
        "(default: left out)",
    )
    add_interval_options(compare)


def run(args: argparse.Namespace) -> int:
    """Print (or ``--json``) B minus A per condition, with intervals and the tasks that flip."""
    from tau_sim.simulator.results.compare import compare_roles, compare_runs
    from tau_sim.simulator.results.report import render_compare

    resamples = check_resamples(args.resamples)
    role = "agent" if args.agents else "user" if args.users else None
    db = open_database(args.db, readonly=True)
    if role is not None:
        if args.run_b is not None or args.db_b is not None:
            raise UsageError(f"--{role}s compares within one run: give one run id, no --db-b")
        names = args.agents or args.users
        result = compare_roles(
            db, args.run_a, role, names, count_errors=args.count_errors, resamples=resamples
        )
    else:
        if args.run_b is None:
            raise UsageError("compare: give two run ids, or one with --agents A B / --users A B")
        db_b = db if args.db_b is None else _open_other(args.db_b)
        result = compare_runs(
            (db, args.db, args.run_a),
            (db_b, args.db_b or args.db, args.run_b),
            count_errors=args.count_errors,
            resamples=resamples,
        )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        render_compare(result)
    return 0


def _open_other(path: str) -> Any:
    """The file of ``compare``'s RUN_B, read-only; its errors name ``--db-b``."""
    try:
        return open_database(path, readonly=True)
    except UsageError as exc:
        raise UsageError(str(exc).replace("--db:", "--db-b:", 1)) from None


COMMAND = Command(
    "compare",
    "paired comparison of two runs, or of two agents or users of one run",
    configure,
    run,
    parser_options={
        "description": "Pair the conversations of A and B by grid cell (domain, task, emotion, "
        "intensity, levels, trial; agent and user too unless each run has one) and print, per "
        "condition, B minus A in success and pass^1 with 95% intervals, and the tasks that "
        "flip. Two runs: `compare RUN_A RUN_B` (RUN_B in another file: --db-b PATH). One run: "
        "`compare RUN --agents A B` or `compare RUN --users A B`."
    },
)
