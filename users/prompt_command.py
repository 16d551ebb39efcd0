"""``tau-sim users prompt``: print the brief an LLM user gets for one task under one emotion.

The brief is ``users.brief.system_prompt`` of the task's user view, as a run would build it
(conversation seed 0). Bad input (an unknown domain, task or emotion, an intensity outside
0..1) is one line naming the flag, exit 2.
"""

from __future__ import annotations

import argparse
import sys

from tau_sim.simulator.core import DOMAINS, NEUTRAL, UsageError
from tau_sim.users.brief import brief_of
from tau_sim.users.emotions import resolve

DEFAULT_INTENSITY = 0.6
"""The intensity a brief is rendered at when none is given (``tau-sim run``'s default)."""


def run_prompt(args: argparse.Namespace) -> int:
    """Print the LLM user's brief of ``args.task`` in ``args.domain``; return the exit code."""
    domain = DOMAINS.get(args.domain, "--domain")()
    task = next((t for t in domain.tasks if t.id == args.task), None)
    if task is None:
        raise UsageError(f"--task: no task {args.task!r} in domain {args.domain!r}")
    try:
        emotion = resolve(args.emotion)
    except KeyError:
        raise UsageError(f"--emotion: unknown emotion {args.emotion!r}") from None
    intensity = DEFAULT_INTENSITY if args.intensity is None else args.intensity
    if not 0.0 <= intensity <= 1.0:
        raise UsageError(f"--intensity: {args.intensity:g} is outside 0..1")
    if args.intensity is not None and emotion == NEUTRAL:
        print(
            "tau-sim: warning: --intensity changes nothing for neutral (it has no intensity)",
            file=sys.stderr,
        )
    print(brief_of(domain, task, emotion, intensity))
    return 0
