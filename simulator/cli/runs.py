"""``tau-sim runs``: list the runs in a database (``results.report``, rich, imported when run)."""

from __future__ import annotations

import argparse

from tau_sim.simulator.core.registry import Command
from tau_sim.simulator.store.opening import DEFAULT_DB, open_database


def configure(runs: argparse.ArgumentParser) -> None:
    """The options of ``tau-sim runs``."""
    runs.add_argument("--db", default=DEFAULT_DB)


def run(args: argparse.Namespace) -> int:
    """Print the table of the runs stored in ``--db``."""
    from tau_sim.simulator.results.report import render_runs

    db = open_database(args.db, readonly=True)
    render_runs(db)
    return 0


COMMAND = Command("runs", "list the runs in a database", configure, run)
