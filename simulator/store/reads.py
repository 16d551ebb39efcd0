"""The queries readers of a store use: a run's row and status, a conversation's events and usage.

Reading commands (report, compare, export, review, the TUI, the Tracer) open the file read-only
(``open_database(..., readonly=True)``) and read it through these; events are read from the
view ``events``, whatever the file's version (``tau_sim.simulator.store.event_rows``).
"""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator, Mapping
from typing import Any

import sqlite_utils

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.events import Event, ModelUsage, decode_stored
from tau_sim.simulator.store.timeouts import stale_after
from tau_sim.simulator.store.usage import RoleCounters


def get_run(sqlite: sqlite_utils.Database, run_id: str | None) -> dict[str, Any]:
    """A run row by id, or the latest run; ``UsageError`` when there is none.

    Its ``status`` is what ``run_state`` reads: ``stale`` for a ``running`` run whose
    process is gone (the stored value stays ``running``).
    """
    if run_id is None:
        rows = list(sqlite.query("select * from runs order by created_at desc limit 1"))
        if not rows:
            raise UsageError("no runs in this database (start one with `tau-sim run`)")
    else:
        rows = list(sqlite.query("select * from runs where id = ?", [run_id]))
        if not rows:
            raise UsageError(f"no run {run_id!r} in this database (see `tau-sim runs`)")
    return {**rows[0], "status": run_state(rows[0])}


def run_state(run: Mapping[str, Any], now: float | None = None) -> str:
    """A run's status as it stands: the stored one, or ``stale`` for a dead ``running`` run.

    A ``running`` run is ``stale`` when its process is gone (same host, no such pid) or its
    heartbeat (``runs.heartbeat_at``, else its creation) is older than ``stale_after()``
    seconds. A ``running`` row with neither a pid nor a heartbeat is ``stale`` at once: no
    live process is known to write it (a run's row names its process from the start; rows
    stored before the heartbeat existed have neither).
    """
    status = str(run["status"])
    if status != "running":
        return status
    if run.get("pid") is None and run.get("heartbeat_at") is None:
        return "stale"
    if _process_gone(run.get("pid"), run.get("host")):
        return "stale"
    beat = run.get("heartbeat_at") or run["created_at"]
    return "stale" if (now or time.time()) - beat > stale_after() else "running"


def played_seconds(run: Mapping[str, Any], now: float | None = None) -> float:
    """Seconds a run has been played, over every invocation of it (``--resume`` goes on).

    Its earlier invocations' (``runs.earlier_s``) plus the current or last one's: from its
    claim (``runs.claimed_at``; the run's creation in rows stored before that column) to its
    end, or for a run still written to ``now`` (None: its last heartbeat, which is also where
    the time of a run whose process died stops).
    """
    start = run.get("claimed_at") or run["created_at"]
    end = run.get("ended_at")
    if end is None:
        end = now if now is not None and run_state(run, now) == "running" else None
    if end is None:
        end = run.get("heartbeat_at") or start
    return float(run.get("earlier_s") or 0.0) + max(float(end) - float(start), 0.0)


def run_states(sqlite: sqlite_utils.Database) -> dict[str, str]:
    """``run_state`` of every run in the file, by run id (a bad threshold fails even if unused)."""
    stale_after()
    return {str(row["id"]): run_state(row) for row in sqlite.query("select * from runs")}


def _process_gone(pid: int | None, host: str | None) -> bool:
    """True when ``pid`` ran on this host and no such process exists now."""
    if pid is None or pid <= 0 or host != socket.gethostname():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # it exists, owned by someone else
        return False
    return False


def role_usage(sqlite: sqlite_utils.Database, conversation: str, role: str) -> tuple[Any, ...]:
    """One role's model calls of a stored conversation, as its ``ROLE_FIELDS`` columns hold them.

    Summed from the conversation's ``model_usage`` events (tokens in, out and cached, dollars
    or None when no call was priced, unpriced calls, scripted turns).
    """
    counters = RoleCounters()
    for event in iter_events(sqlite, conversation):
        if isinstance(event, ModelUsage) and event.role == role:
            counters.add(event)
    return counters.values()


def iter_events(sqlite: sqlite_utils.Database, conversation: str) -> Iterator[Event]:
    """The events of one conversation in order."""
    for row in sqlite.execute(
        "select conversation, seq, kind, ts, payload from events where conversation = ? "
        "order by seq",
        [conversation],
    ):
        yield decode_stored(*row)
