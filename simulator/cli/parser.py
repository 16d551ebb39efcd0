"""The ``tau-sim`` argument parser: the built-in commands, and those plugins register.

The built-in commands are ``BUILT_IN`` (a module each); the packages built on the simulator
register theirs in ``COMMANDS`` (``tau-sim tui`` and ``human`` from ``tui``, ``tracer`` from
``tracer``), each placed after the command it names, so that the simulator imports none of them.
"""

from __future__ import annotations

import argparse
from importlib.metadata import PackageNotFoundError, version

from tau_sim.simulator.cli import (
    compare,
    domains,
    emotions,
    export,
    models,
    report,
    rescore,
    review,
    run,
    runs,
    show,
)
from tau_sim.simulator.cli.options import Parser
from tau_sim.simulator.core.registry import COMMANDS, Command

DESCRIPTION = (
    "tau-sim: simulate tool-calling agents serving emotional users; run, report, compare, "
    "rescore, runs, domains, models, tracer…"
)
"""What ``tau-sim --help`` says first."""
BUILT_IN: tuple[Command, ...] = (
    run.COMMAND,
    report.COMMAND,
    compare.COMMAND,
    rescore.COMMAND,
    show.COMMAND,
    export.COMMAND,
    review.COMMAND,
    runs.COMMAND,
    models.COMMAND,
    emotions.COMMAND,
    domains.COMMAND,
)
"""The simulator's own commands, in the order ``tau-sim --help`` lists them."""


def commands() -> list[Command]:
    """Every command in ``--help`` order: the built-in ones, each plugin's after its ``after``.

    A plugin's command whose ``after`` is not there comes last; one named as a built-in
    command is left out (the built-in one stays).
    """
    table = list(BUILT_IN)
    built_in = {command.name for command in BUILT_IN}
    pending = [command for command in COMMANDS.values() if command.name not in built_in]
    while pending:
        placed = [command for command in pending if _place(table, command)]
        if not placed:
            table.extend(pending)
            break
        pending = [command for command in pending if command not in placed]
    return table


def _place(table: list[Command], command: Command) -> bool:
    """Insert ``command`` after its ``after`` (and the commands placed there before it)."""
    names = [entry.name for entry in table]
    if command.after not in names:
        return False
    at = names.index(command.after) + 1
    while at < len(table) and table[at].after == command.after:
        at += 1
    table.insert(at, command)
    return True


def build(
    table: list[Command],
) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The top-level parser of the commands of ``table``, and each command's sub-parser."""
    parser = Parser(prog="tau-sim", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"tau-sim {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    subs: dict[str, argparse.ArgumentParser] = {}
    for command in table:
        subs[command.name] = sub.add_parser(
            command.name, help=command.help, **command.parser_options
        )
        command.configure(subs[command.name])
    return parser, subs


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    return build(commands())[0]


def parsers() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The top-level parser and its ``run`` sub-parser."""
    parser, subs = build(commands())
    return parser, subs["run"]


def _version() -> str:
    try:
        return version("tau-sim")
    except PackageNotFoundError:
        return "unknown"
