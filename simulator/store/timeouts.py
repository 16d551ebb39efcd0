"""The store's waits: a writer's busy timeout, the heartbeat interval, the staleness threshold.

The busy timeout and the staleness threshold may be set in the environment
(``TAU_SIM_BUSY_TIMEOUT``, ``TAU_SIM_STALE_AFTER``: positive seconds; anything else is a
``UsageError``).
"""

from __future__ import annotations

import os

from tau_sim.simulator.core.errors import UsageError

BUSY_TIMEOUT_S = 30.0
"""How long a write waits for another writer's lock before it is a ``database locked`` fault
(``TAU_SIM_BUSY_TIMEOUT``)."""
BUSY_TIMEOUT_ENV = "TAU_SIM_BUSY_TIMEOUT"
HEARTBEAT_S = 5.0
"""How often the writer's commits refresh ``runs.heartbeat_at`` (at most)."""
STALE_AFTER_S = 30.0
"""A ``running`` run without a heartbeat for this long reads ``stale`` (``TAU_SIM_STALE_AFTER``)."""
STALE_AFTER_ENV = "TAU_SIM_STALE_AFTER"


def stale_after() -> float:
    """Seconds without a heartbeat after which a ``running`` run reads ``stale``."""
    return _seconds(STALE_AFTER_ENV, STALE_AFTER_S)


def default_busy_timeout() -> float:
    """Seconds a write waits for another writer's lock (``TAU_SIM_BUSY_TIMEOUT``, default 30)."""
    return _seconds(BUSY_TIMEOUT_ENV, BUSY_TIMEOUT_S)


def _seconds(variable: str, default: float) -> float:
    """The positive number of seconds in environment ``variable``, or ``default`` if unset."""
    text = os.environ.get(variable)
    if text is None:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds < float("inf"):
        raise UsageError(f"{variable}={text!r}: expected a positive number of seconds")
    return seconds
