"""``tau-sim users read``: the acts the scripted user's rule reader reads in agent texts.

The reader is the one of a task's user (``--task``, default the domain's first task): its slots
(the task's known facts), the unknown items and the domain's user tools. Each text prints as a
short table of the acts it holds, or with ``--json`` as one JSON object per line under the
corpus schema's keys (``users.perception.public``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from tau_sim.simulator.core import UsageError, get_domain
from tau_sim.simulator.world import Domain, user_slots, user_steps
from tau_sim.users.dialogue import AgentTextReader
from tau_sim.users.perception import ACT_FLAGS, public


def reader_for(domain_name: str, task_id: str | None) -> AgentTextReader:
    """The rule reader of the user of ``task_id`` (default: the domain's first task)."""
    domain = get_domain_named(domain_name)
    if not domain.tasks:
        raise UsageError(f"--domain: domain {domain_name!r} has no tasks")
    task = next((t for t in domain.tasks if task_id in (None, t.id)), None)
    if task is None:
        raise UsageError(f"--task: no task {task_id!r} in domain {domain_name!r}")
    slots = user_slots(domain, task)
    return AgentTextReader(slots, task.scenario.unknown_info, user_steps(domain))


def get_domain_named(name: str) -> Domain:
    """The domain called ``name``; an unknown name is a ``--domain`` error."""
    try:
        return get_domain(name)
    except UsageError as exc:
        raise UsageError(f"--domain: {exc}") from None


def table(text: str, shown: dict[str, Any]) -> str:
    """The acts of one text in a few lines: the text, then one line per act it holds."""
    lines = [f"> {text}"]
    if shown["asks"]:
        lines.append(f"  asks          {', '.join(shown['asks'])}")
    lines += [f"  {key}" for key in ACT_FLAGS if shown[key]]
    if shown["steps"]:
        lines.append(f"  steps         {', '.join(shown['steps'])}")
    for key in ("asks_other", "not_found"):
        if shown[key]:
            lines.append(f"  {key}")
    if shown["alternatives"]:
        groups = " | ".join(", ".join(g) for g in shown["alternatives"])
        lines.append(f"  alternatives  {groups}")
    if len(lines) == 1:
        lines.append("  (no act)")
    return "\n".join(lines)


def run_read(args: argparse.Namespace) -> int:
    """Print the acts of each text."""
    for number, text in enumerate(args.texts, 1):
        if not text.strip():
            raise UsageError(f"TEXT: text {number} is empty")
    reader = reader_for(args.domain, args.task)
    for text in args.texts:
        shown = public(reader.read(text))
        print(json.dumps(shown) if args.json else table(text, shown))
    return 0
