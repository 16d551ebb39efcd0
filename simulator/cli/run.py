"""``tau-sim run``: check a grid, play it into the store, print its report.

Its options are ``cli.run_options``; what it does (``cli.play``: the runner, the player and the
report with it) is imported when it runs, so that the other commands start without it. How a
played run ends (its exit on errors, an unused file removed) is ``cli.endings``.
"""

from __future__ import annotations

import argparse
from argparse import SUPPRESS

from tau_sim.simulator.cli.run_options import add_run_arguments
from tau_sim.simulator.core.registry import Command


def run(args: argparse.Namespace) -> int:
    """Play a new run (or ``--resume`` one) and print its report (``cli.play.play_run``)."""
    from tau_sim.simulator.cli.play import play_run

    return play_run(args)


COMMAND = Command(
    "run",
    "run a benchmark grid and store every event",
    add_run_arguments,
    run,
    parser_options={
        "argument_default": SUPPRESS,
        "epilog": "exit codes: 0 done; 2 bad input (nothing stored); 3 more than "
        "--max-error-share of the conversations hit endpoint errors (HTTP errors, timeouts, "
        "dropped connections, malformed bodies) or user-simulator errors (empty turns, the "
        "same message over and over): results exclude them, --resume plays them again; 130, "
        "143, 129 interrupted by Ctrl-C, SIGTERM, SIGHUP (128 + the signal: what finished is "
        "stored, the run is interrupted and --resume goes on)",
    },
)
