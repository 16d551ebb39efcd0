"""The ``tau-sim tui`` and ``tau-sim human`` commands, registered in the CLI's ``COMMANDS``.

Listed under the ``tau_sim.commands`` entry point group: the CLI imports this module to build
its parser, for every command, so what they run (``tui.play``, and textual with it) is imported
only when one of these commands runs.
"""

from __future__ import annotations

import argparse
from argparse import SUPPRESS

from tau_sim.simulator.cli import (
    add_run_arguments,
)
from tau_sim.simulator.core import COMMANDS, Command
from tau_sim.simulator.store import DEFAULT_DB


def configure_tui(tui: argparse.ArgumentParser) -> None:
    """``tau-sim tui``: the options of ``tau-sim run`` and ``--attach``.

    ``--dry-run`` and ``--keep-errors`` are ``tau-sim run``'s alone: refused here (one line),
    so not listed in the help.
    """
    add_run_arguments(tui)
    for action in tui._actions:
        if action.dest in ("dry_run", "keep_errors"):
            action.help = SUPPRESS
    tui.add_argument(
        "--attach",
        nargs="?",
        const="",
        metavar="RUN_ID",
        help="follow a run stored in --db (default: its latest run) instead of starting one; "
        "a finished run opens for browsing",
    )


def configure_human(human: argparse.ArgumentParser) -> None:
    """``tau-sim human``: what the person plays, against whom, on which tasks.

    Without ``--task`` (or ``--tasks``) a start screen asks for the domain, role and task; the
    flags given fix theirs.
    """
    human.add_argument("--role", help="what you play: user (default) or agent")
    human.add_argument("--agent", help="the agent you face as the user (default scripted/gold)")
    human.add_argument("--user", help="the user you face as the agent (default scripted)")
    human.add_argument("--domain", help="the domain (default retail)")
    human.add_argument(
        "--task",
        help="task id(s), comma-separated, or random (default: choose on the start screen)",
    )
    human.add_argument("--tasks", type=int, help="how many random tasks (default 1)")
    human.add_argument("--emotions", help="comma-separated emotions or families (default anger)")
    human.add_argument("--intensities", help="low,medium,high or numbers in 0..1 (default high)")
    human.add_argument("--seed", type=int, default=0, help="seed of the draw and the run")
    human.add_argument("--db", default=DEFAULT_DB, help=f"SQLite file (default ./{DEFAULT_DB})")
    human.add_argument("--resume", metavar="RUN_ID", help="finish a session stopped early")


def run_tui(args: argparse.Namespace) -> int:
    """``tau-sim tui``: a new run (or ``--resume``) under the TUI, or ``--attach`` to one."""
    from tau_sim.tui.play import play_tui

    return play_tui(args)


def run_human(args: argparse.Namespace) -> int:
    """``tau-sim human``: check the session as ``tau-sim run`` checks a run, then play it."""
    from tau_sim.tui.play import play_human

    return play_human(args)


COMMANDS.add(
    "tui",
    Command(
        "tui",
        "start a run with the live terminal UI, or follow a stored one (--attach)",
        configure_tui,
        run_tui,
        after="run",
        parser_options={
            "argument_default": SUPPRESS,
            "description": "Start a run (the options of `tau-sim run`) and watch it live, or "
            "follow a run another process writes (--attach). Press ? in the UI for its keys.",
        },
    ),
)
COMMANDS.add(
    "human",
    Command(
        "human",
        "play the emotional user (or --role agent) yourself; stored and scored like a run",
        configure_human,
        run_human,
        after="tui",
        parser_options={
            "description": "A person plays one side of each conversation on a screen; the "
            "session is one run in --db (`tau-sim report` reads it, --resume finishes it). "
            "Without --task (or --tasks) a start screen chooses the domain, role and task."
        },
    ),
)
