"""How many worker processes a run plays on: ``--workers N``, or ``auto`` (one per core)."""

from __future__ import annotations

import os

from tau_sim.simulator.core.errors import UsageError

MAX_WORKERS = 256
"""The most worker processes one run may have (``--workers``)."""


def auto_workers() -> int:
    """Worker processes for ``--workers auto``: the cores this process may run on."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


def resolve_workers(value: int | str) -> int:
    """``--workers``: a count, or ``auto`` (``auto_workers``); anything else is a UsageError."""
    if isinstance(value, int):
        return value
    text = str(value).strip().lower()
    if text == "auto":
        return auto_workers()
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"--workers: expected a number or auto (got {value!r})") from None
