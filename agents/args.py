"""Parsing of ``--agent-arg key=value`` strings."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from simulator.errors import UsageError


def float_arg(
    args: Mapping[str, Any],
    key: str,
    default: float,
    *,
    flag: str = "--agent-arg",
    low: float = 0.0,
    high: float = math.inf,
) -> float:
    """Read ``args[key]`` as a number in ``low..high``; ``UsageError`` names the flag and key."""
    raw = args.get(key)
    if raw is None:
        return default
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise UsageError(f"{flag} {key}={raw!r}: not a number") from None
    if not low <= value <= high:
        bound = f"{low:g}..{high:g}" if math.isfinite(high) else f">= {low:g}"
        raise UsageError(f"{flag} {key}={raw!r}: must be {bound}")
    return value
