"""``tau-sim export``: one row per conversation of a run, as JSONL, CSV or τ²-bench's results."""

from __future__ import annotations

import argparse
import sys

from tau_sim.simulator.core.registry import Command
from tau_sim.simulator.results.export import export_run
from tau_sim.simulator.store.opening import DEFAULT_DB, open_database


def configure(export: argparse.ArgumentParser) -> None:
    """The options of ``tau-sim export``."""
    export.add_argument("run_id", help="run id (see `tau-sim runs`)")
    export.add_argument("--db", default=DEFAULT_DB)
    export.add_argument(
        "--format",
        default="jsonl",
        help="jsonl (default), csv, tau2 (τ²-bench's results), tau2-submission (leaderboard DIR)",
    )
    export.add_argument("--out", default="-", help="file to write (default -: stdout)")
    export.add_argument(
        "--force", action="store_true", help="replace an existing --out file (or symbolic link)"
    )


def run(args: argparse.Namespace) -> int:
    """Write the rows of a run to ``--out`` (stdout by default), whole or not at all."""
    db = open_database(args.db, readonly=True)
    count = export_run(db, args.run_id, args.format, args.out, force=args.force)
    if args.out != "-":
        print(f"{count} conversations written to {args.out}", file=sys.stderr)
    return 0


COMMAND = Command("export", "one row per conversation of a run, as JSONL or CSV", configure, run)
