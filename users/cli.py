"""``tau-sim users read``, ``prompt`` and ``audit``, registered in the CLI's ``COMMANDS``.

Listed under the ``tau_sim.commands`` entry point group: the CLI imports this module to build its
parser for every command; what each sub-command runs is imported only when it runs
(``users.read_command``: how the scripted user reads agent texts; ``users.prompt_command``: the
LLM user's brief of a task; ``users.audit_command``: the user-simulator card of stored runs).
"""

from __future__ import annotations

import argparse

from tau_sim.simulator.core import COMMANDS, Command
from tau_sim.simulator.store import DEFAULT_DB


def configure(users: argparse.ArgumentParser) -> None:
    """The sub-commands of ``tau-sim users`` and their options."""
    usub = users.add_subparsers(dest="users_command", required=True, parser_class=type(users))
    read = usub.add_parser("read", help="the acts the scripted user reads in agent texts")
    read.add_argument("--domain", required=True, help="the domain whose slots and steps to read")
    read.add_argument("--task", help="the task whose user reads (default: the domain's first)")
    read.add_argument("--json", action="store_true", help="one JSON object per text")
    read.add_argument("texts", nargs="+", metavar="TEXT", help="agent texts to read")
    prompt = usub.add_parser("prompt", help="the LLM user's brief of one task")
    prompt.add_argument("--domain", required=True, help="the task's domain")
    prompt.add_argument("--task", required=True, help="the task id")
    prompt.add_argument("--emotion", default="neutral", help="emotion leaf or family")
    prompt.add_argument("--intensity", type=float, help="0..1 (default 0.6, as tau-sim run)")
    audit = usub.add_parser("audit", help="how faithfully each simulated user plays its condition")
    audit.add_argument("run_ids", nargs="+", metavar="RUN_ID", help="stored runs to audit")
    audit.add_argument("--db", default=DEFAULT_DB)
    audit.add_argument("--json", action="store_true", help="print a JSON list of rows")
    audit.add_argument("--plot", metavar="FILE.png", help="expressed vs set intensity per family")


def run(args: argparse.Namespace) -> int:
    """Run the sub-command given."""
    if args.users_command == "prompt":
        from tau_sim.users.prompt_command import run_prompt

        return run_prompt(args)
    if args.users_command == "audit":
        from tau_sim.users.audit_command import run_audit

        return run_audit(args)
    from tau_sim.users.read_command import run_read

    return run_read(args)


COMMANDS.add(
    "users",
    Command("users", "how the simulated users read agents, and their briefs", configure, run),
)
