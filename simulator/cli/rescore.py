"""``tau-sim rescore``: score a stored run again with today's evaluator and task set.

``run.rescore`` is imported where used (a lean start-up).
"""

from __future__ import annotations

import argparse
import json

import msgspec

from tau_sim.simulator.core.registry import Command
from tau_sim.simulator.store.opening import DEFAULT_DB, open_database


def configure(rescore: argparse.ArgumentParser) -> None:
    """The options of ``tau-sim rescore``."""
    rescore.add_argument("run_id", help="run id (see `tau-sim runs`)")
    rescore.add_argument("--db", default=DEFAULT_DB)
    rescore.add_argument("--json", action="store_true", help="print one JSON object")
    rescore.add_argument(
        "--write", action="store_true", help="store the new rewards (one transaction, recorded)"
    )


def run(args: argparse.Namespace) -> int:
    """Print what rescoring changes; with ``--write``, store the new rewards."""
    from tau_sim.simulator.run.rescore import render_rescore, rescore_run

    db = open_database(args.db, create=False, readonly=not args.write)
    result = rescore_run(db, args.run_id, write=args.write)
    if args.json:
        print(json.dumps(msgspec.to_builtins(result), indent=2))
    else:
        print(render_rescore(result))
    return 0


COMMAND = Command(
    "rescore", "score a stored run again with today's evaluator and task set", configure, run
)
