"""``tau-sim users prompt``: the LLM user's brief of one task (not yet built)."""

from __future__ import annotations

import argparse

from tau_sim.simulator.core import UsageError


def run_prompt(args: argparse.Namespace) -> int:
    """Print the brief."""
    raise UsageError("tau-sim users prompt: not built yet")
