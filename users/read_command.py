"""``tau-sim users read``: the acts the scripted user reads in agent texts (not yet built)."""

from __future__ import annotations

import argparse

from tau_sim.simulator.core import UsageError


def run_read(args: argparse.Namespace) -> int:
    """Print the acts of each text."""
    raise UsageError("tau-sim users read: not built yet")
