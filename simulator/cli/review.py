"""``tau-sim review``: a judge model's short diagnosis of each failed conversation, stored.

``results.review`` (a model client, rich) is imported where used (a lean start-up).
"""

from __future__ import annotations

import argparse
import json
from functools import partial

import anyio
import msgspec

from tau_sim.simulator.core.infra import EXIT_ENDPOINT_ERRORS
from tau_sim.simulator.core.options import parse_key_values
from tau_sim.simulator.core.registry import Command
from tau_sim.simulator.store.opening import DEFAULT_DB, open_database


def configure(review: argparse.ArgumentParser) -> None:
    """The options of ``tau-sim review``."""
    review.add_argument("run_id", help="run id (see `tau-sim runs`)")
    review.add_argument("--db", default=DEFAULT_DB)
    review.add_argument("--judge", required=True, metavar="PROVIDER/MODEL", help="judge model")
    review.add_argument(
        "--judge-arg",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="judge model option, repeatable (base_url=..., price_in=...; see `tau-sim models`)",
    )
    review.add_argument(
        "--redo", action="store_true", help="review again what this judge already reviewed"
    )
    review.add_argument(
        "--concurrency", type=int, default=8, help="judge calls in flight at once (default 8)"
    )
    review.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Review the failed conversations of a run; exit 3 when some got no diagnosis."""
    from tau_sim.simulator.results.review import render_review, review_run

    judge_args = parse_key_values(args.judge_arg, "--judge-arg")
    db = open_database(args.db, create=False)
    outcome = anyio.run(
        partial(
            review_run,
            db,
            args.db,
            args.run_id,
            args.judge,
            judge_args,
            redo=args.redo,
            concurrency=args.concurrency,
        )
    )
    if args.json:
        print(json.dumps(msgspec.to_builtins(outcome), indent=2))
    else:
        print(render_review(outcome))
    return EXIT_ENDPOINT_ERRORS if outcome.errors else 0  # some failures have no diagnosis


COMMAND = Command(
    "review",
    "a judge model's short diagnosis of each failed conversation, stored",
    configure,
    run,
)
