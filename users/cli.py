"""``tau-sim users prompt``, registered in the CLI's ``COMMANDS``.

Listed under the ``tau_sim.commands`` entry point group: the CLI imports this module to build its
parser for every command; what the sub-command runs is imported only when it runs
(``users.prompt_command``: the LLM user's brief of a task).
"""

from __future__ import annotations

import argparse

from tau_sim.simulator.core import COMMANDS, Command


def configure(users: argparse.ArgumentParser) -> None:
    """The sub-commands of ``tau-sim users`` and their options."""
    usub = users.add_subparsers(dest="users_command", required=True, parser_class=type(users))
    prompt = usub.add_parser("prompt", help="the LLM user's brief of one task")
    prompt.add_argument("--domain", required=True, help="the task's domain")
    prompt.add_argument("--task", required=True, help="the task id")
    prompt.add_argument("--emotion", default="neutral", help="emotion leaf or family")
    prompt.add_argument("--intensity", type=float, help="0..1 (default 0.6, as tau-sim run)")


def run(args: argparse.Namespace) -> int:
    """Run the sub-command given."""
    from tau_sim.users.prompt_command import run_prompt

    return run_prompt(args)


COMMANDS.add(
    "users",
    Command("users", "how the simulated users read agents, and their briefs", configure, run),
)
