"""Filter stored conversations into a selection: ``tau-sim tracer filter RUN_ID... --out FILE``.

A conversation is kept when it completed, was not abandoned, reached ``min_reward`` and its
signals (``tracer.signals``) pass every threshold. Each dropped conversation is counted under
the first check it fails, in the order of ``REASONS``. The selection file (JSON) names the
database, the runs, the thresholds, the kept conversation ids and the counts; ``tau-sim
tracer export`` reads it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import msgspec
import sqlite_utils

from tau_sim.simulator.core import TerminationReason, UsageError
from tau_sim.simulator.store import write_outputs
from tau_sim.tracer.signals import Signals, signals
from tau_sim.tracer.source import Conversation, conversations, open_run
from tau_sim.tracer.thresholds import Thresholds

REASONS: tuple[str, ...] = (
    "unfinished",
    "abandoned",
    "failed",
    "reliance",
    "redundant",
    "turns",
    "tool_errors",
)
"""Why a conversation is dropped, in the order the checks run."""


class Selection(msgspec.Struct, kw_only=True):
    """The output of a filter: which conversations of which runs were kept, and why not others."""

    db: str
    runs: list[str]
    thresholds: Thresholds
    kept: list[str]
    dropped: dict[str, int]
    total: int


def verdict(conversation: Conversation, found: Signals, limits: Thresholds) -> str | None:
    """The first reason (``REASONS``) to drop ``conversation``, or None to keep it."""
    row = conversation.row
    if row["status"] != "completed":
        return "unfinished"
    if row["abandoned"] or row["reason"] == TerminationReason.USER_ABANDONED.value:
        return "abandoned"
    if (row["reward"] or 0.0) < limits.min_reward:
        return "failed"
    if found.reliance > limits.max_reliance:
        return "reliance"
    if found.redundant > limits.max_redundant:
        return "redundant"
    if found.turns > limits.max_turns:
        return "turns"
    if found.tool_errors > limits.max_tool_errors:
        return "tool_errors"
    return None


def filter_runs(
    sqlite: sqlite_utils.Database, db_path: str, run_ids: Sequence[str], limits: Thresholds
) -> Selection:
    """The selection of ``run_ids``' conversations that pass ``limits``."""
    if not run_ids:
        raise UsageError("tracer filter: give at least one run id")
    if len(set(run_ids)) != len(run_ids):
        raise UsageError("tracer filter: a run id is given twice")
    dropped: Counter[str] = Counter({reason: 0 for reason in REASONS})
    kept: list[str] = []
    total = 0
    for run_id in run_ids:
        source = open_run(sqlite, run_id)
        for conversation in conversations(sqlite, source):
            total += 1
            reason = verdict(conversation, signals(conversation), limits)
            if reason is None:
                kept.append(conversation.id)
            else:
                dropped[reason] += 1
    return Selection(
        db=db_path,
        runs=list(run_ids),
        thresholds=limits,
        kept=kept,
        dropped=dict(dropped),
        total=total,
    )


def write_selection(selection: Selection, path: Path, *, force: bool = False) -> None:
    """Write ``selection`` as one JSON object (a trailing newline), whole or not at all.

    An existing file is replaced only with ``force`` (``store.write_outputs``).
    """
    write_outputs({path: msgspec.json.format(msgspec.json.encode(selection)) + b"\n"}, force=force)


def read_selection(path: Path) -> Selection:
    """A selection file written by ``write_selection``; ``UsageError`` names a bad one."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read selection {path}: {exc.strerror}") from None
    try:
        return msgspec.json.decode(raw, type=Selection)
    except msgspec.DecodeError as exc:
        raise UsageError(
            f"{path}: not a selection written by `tau-sim tracer filter`: {exc}"
        ) from None
