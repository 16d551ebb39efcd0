"""The options of ``tau-sim run``: also those of ``tau-sim tui``, and what types a ``[run]`` table.

No defaults are set here: ``RunConfig`` (and ``Limits``) hold them (the help only shows them),
and an option absent from the parsed namespace was not given (so ``[run]`` may set it and
``--resume`` can tell): the parser of each is made with ``argument_default=SUPPRESS``.
"""

from __future__ import annotations

import argparse
from argparse import SUPPRESS

from tau_sim.simulator.cli.options import Parser, add_judge_options, csv_of, workers_arg
from tau_sim.simulator.core.conditions import DEFAULT_LEVEL, DIMENSIONS
from tau_sim.simulator.grid.config import RunConfig
from tau_sim.simulator.store.opening import DEFAULT_DB


def run_parser() -> argparse.ArgumentParser:
    """A parser of the run options alone (``settings.run_table`` reads their types)."""
    parser = Parser(prog="tau-sim run", argument_default=SUPPRESS)
    add_run_arguments(parser)
    return parser


def add_run_arguments(run: argparse.ArgumentParser) -> None:
    """Add the options of a run to ``run`` (made with ``argument_default=SUPPRESS``)."""
    _D = RunConfig()
    run.add_argument(
        "--domain",
        help="a domain, several comma-separated, or `all` (see `tau-sim domains`; default "
        f"{','.join(_D.domains)})",
    )
    run.add_argument("--tasks", help="N (first N tasks) or comma-separated ids (default: all)")
    run.add_argument(
        "--tasks-file", help="run the tasks of a JSONL file instead (default: the domain's own)"
    )
    run.add_argument(
        "--tier",
        help="play only the tasks of this tier: base, hard or all (default "
        f"{_D.tier}); --tasks N then takes the first N of the tier",
    )
    run.add_argument(
        "--task-split",
        help="play only the tasks of this split of the domain (τ²-bench's train, test, base)",
    )
    run.add_argument("--agent", help=f"comma-separated model names (default {csv_of(_D.agents)})")
    run.add_argument("--user", help=f"comma-separated user names (default {csv_of(_D.users)})")
    run.add_argument(
        "--emotions",
        help="comma-separated leaves, aliases or families, a family standing for its default "
        f"leaf (see `tau-sim emotions`; default {csv_of(_D.emotions)}); `task` plays each "
        "task's own emotion profile (the `emotion` of a --tasks-file's tasks)",
    )
    run.add_argument(
        "--intensities",
        help=f"low,medium,high or numbers in 0..1 (default {csv_of(_D.intensities)})",
    )
    for dimension, levels in DIMENSIONS.items():
        run.add_argument(
            f"--{dimension}",
            help=f"comma-separated {dimension} levels: {', '.join(levels)} or "
            f"{DEFAULT_LEVEL} (the emotion's own; the default)",
        )
    run.add_argument(
        "--trials", type=int, help=f"trials per task and condition (default {_D.trials})"
    )
    run.add_argument(
        "--concurrency", type=int, help=f"conversations at once (default {_D.concurrency})"
    )
    run.add_argument(
        "--workers",
        type=workers_arg,
        help="processes sharing the conversations, one loop each, or auto: one per core "
        f"(default {_D.workers})",
    )
    run.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="play on --workers Ray actors (tau-sim[ray]; default --workers there: this "
        "machine's cores): a local cluster, or the running one at ADDRESS; with --resume, "
        "`none` plays the rest without Ray (see docs/ray.md)",
    )
    run.add_argument("--seed", type=int, help=f"run seed (default {_D.seed})")
    run.add_argument(
        "--max-steps",
        type=int,
        help=f"messages before a conversation ends (default {_D.limits.max_steps})",
    )
    run.add_argument(
        "--max-tool-errors",
        type=int,
        help=f"failed tool calls allowed (default {_D.limits.max_tool_errors})",
    )
    run.add_argument(
        "--timeout", type=float, help=f"seconds per conversation (default {_D.limits.timeout_s:g})"
    )
    run.add_argument(
        "--max-error-share",
        type=float,
        metavar="SHARE",
        help="exit with code 3 when more than this share (0..1) of the conversations hit "
        f"endpoint or user-simulator errors (default {_D.max_error_share:g})",
    )
    run.add_argument(
        "--count-errors",
        action="store_true",
        help="count conversations ended by endpoint or user-simulator errors as failures in "
        "the printed report (default: left out of pass^k, success and abandonment)",
    )
    run.add_argument(
        "--keep-errors",
        action="store_true",
        help="with --resume: keep conversations ended by endpoint or user-simulator errors "
        "instead of playing them again",
    )
    run.add_argument(
        "--agent-arg",
        action="append",
        metavar="KEY=VALUE",
        help="agent option, repeatable (the keys of each provider: `tau-sim models`; default none)",
    )
    run.add_argument(
        "--user-arg",
        action="append",
        metavar="KEY=VALUE",
        help="user option, repeatable (the keys of each kind: `tau-sim models`; default none)",
    )
    add_judge_options(run)
    run.add_argument(
        "--resume",
        metavar="RUN_ID",
        help="finish an interrupted run and play again the conversations endpoint or "
        "user-simulator errors ended (takes only --concurrency, --workers, --ray, "
        "--max-error-share, --keep-errors, --count-errors and output options)",
    )
    run.add_argument(
        "--config",
        metavar="RUN.TOML",
        help="run file: [run] settings, [agent]/[user]/[models] options",
    )
    run.add_argument("--db", help=f"SQLite file (default ./{DEFAULT_DB})")
    run.add_argument(
        "--dry-run",
        action="store_true",
        help="check everything, print the grid size and the expected model calls, store nothing",
    )
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.add_argument("--json", action="store_true", help="print the final report as JSON")
