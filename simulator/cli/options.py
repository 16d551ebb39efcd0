"""What the ``tau-sim`` sub-parsers share: the parser class and option helpers."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from tau_sim.simulator.cli.errors import EXIT_USAGE
from tau_sim.simulator.core.registry import Command
from tau_sim.simulator.results.stats import MAX_RESAMPLES, MIN_RESAMPLES, RESAMPLES


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        """Print ``message`` as one line with where to find the usage, and exit 2."""
        self.exit(EXIT_USAGE, f"tau-sim: error: {message} (see `{self.prog} --help`)\n")


def csv_of(values: Sequence[object]) -> str:
    """``values`` as one comma-separated option value (floats as ``%g``)."""
    return ",".join(f"{v:g}" if isinstance(v, float) else str(v) for v in values)


def csv(text: str) -> list[str]:
    """The non-empty, stripped parts of a comma-separated option value."""
    return [part.strip() for part in text.split(",") if part.strip()]


def flag(dest: str) -> str:
    """The option of an argument's ``dest``: ``dry_run`` -> ``--dry-run``."""
    return "--" + dest.replace("_", "-")


def workers_arg(text: str) -> int | str:
    """``--workers``: a number, or ``auto`` (resolved by ``grid.workers.resolve_workers``)."""
    if text.strip().lower() == "auto":
        return "auto"
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number or auto (got {text!r})") from None


def add_judge_options(run: argparse.ArgumentParser) -> None:
    """``--judge MODEL`` and ``--judge-arg``: the model that checks natural-language assertions."""
    run.add_argument(
        "--judge",
        metavar="PROVIDER/MODEL",
        help="model that judges the tasks' natural-language assertions (τ²-bench's "
        "nl_assertions; default none: they stay not evaluated)",
    )
    run.add_argument(
        "--judge-arg",
        action="append",
        metavar="KEY=VALUE",
        help="judge model option, repeatable (base_url=..., price_in=...; see `tau-sim models`)",
    )


def add_interval_options(parser: argparse.ArgumentParser) -> None:
    """``--resamples``: the bootstrap draws behind every interval (``report``, ``compare``)."""
    parser.add_argument(
        "--resamples",
        type=int,
        default=RESAMPLES,
        help=f"bootstrap resamples per 95%% interval, {MIN_RESAMPLES}..{MAX_RESAMPLES} "
        f"(default {RESAMPLES}; from a fixed seed: the same store prints the same intervals)",
    )


def catalog_command(
    name: str, help_line: str, catalog: Callable[[], dict[str, Any]], renderer: str
) -> Command:
    """A command that prints ``catalog()`` as tables, or as one JSON object with ``--json``.

    ``renderer`` names the function of ``simulator.results.catalogs`` that draws the tables
    (rich is imported when the command runs, not when the parser is built).
    """

    def configure(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def run(args: argparse.Namespace) -> int:
        from tau_sim.simulator.results import catalogs

        listing = catalog()
        if args.json:
            print(json.dumps(listing, indent=2))
        else:
            getattr(catalogs, renderer)(listing)
        return 0

    return Command(name, help_line, configure, run)
