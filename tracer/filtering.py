"""Filter stored conversations into a selection: ``tau-sim tracer filter RUN_ID... --out FILE``.

A conversation passes when it completed, was not abandoned, reached ``min_reward`` and its
signals (``tracer.signals``: grounding, Tracer's reading of the agent's questions, the user's
tags, turns, tool errors) pass every threshold; the conversations that pass are then balanced
over cells (``tracer.balance``: caps, evening out). Each dropped conversation is counted under
the first check it fails, in the order of ``REASONS``, and every check also counts all the
conversations that fail it (``flagged``). The selection file (JSON) names the database, the
runs, the thresholds, the balance, the kept conversation ids and the counts; ``tau-sim tracer
export`` reads it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import msgspec
import sqlite_utils

from tau_sim.simulator.core import TerminationReason, UsageError
from tau_sim.simulator.store import write_outputs
from tau_sim.tracer.balance import CellCounts, balance, cell_of
from tau_sim.tracer.signals import Signals, signals
from tau_sim.tracer.source import Conversation, conversations, open_run
from tau_sim.tracer.thresholds import Balance, Thresholds

CHECKS: tuple[tuple[str, str], ...] = (
    ("ungrounded_arguments", "max_ungrounded_arguments"),
    ("ungrounded_facts", "max_ungrounded_facts"),
    ("untold_picks", "max_untold_picks"),
    ("reliance", "max_reliance"),
    ("redundant", "max_redundant"),
    ("unanswered", "max_unanswered"),
    ("dismissive", "max_dismissive"),
    ("ignored_cue", "max_ignored_cue"),
    ("repeated_question", "max_repeated_question"),
    ("unbacked_claim", "max_unbacked_claim"),
    ("turns", "max_turns"),
    ("tool_errors", "max_tool_errors"),
)
"""Each signal check: its reason and the threshold (``Thresholds``) it must not exceed."""
TAGGED = frozenset({"dismissive", "ignored_cue", "repeated_question", "unbacked_claim"})
"""The checks that count the user's tags (``Signals.tags``), not Tracer's own signals."""
REASONS: tuple[str, ...] = ("unfinished", "abandoned", "failed", *(r for r, _ in CHECKS), "balance")
"""Why a conversation is dropped, in the order the checks run (``balance``: cut by a cap)."""


class Selection(msgspec.Struct, kw_only=True):
    """The output of a filter: which conversations of which runs were kept, and why not others.

    ``dropped`` counts each dropped conversation under its first failed check; ``flagged``
    counts, for every check, the conversations that fail it (any other check aside), among
    those that completed. ``balance`` is the rule applied to the conversations that passed
    and ``cells`` what it found.
    """

    db: str
    runs: list[str]
    thresholds: Thresholds
    kept: list[str]
    dropped: dict[str, int]
    total: int
    flagged: dict[str, int] = {}
    balance: Balance = Balance()
    cells: CellCounts | None = None


def failed_checks(conversation: Conversation, found: Signals, limits: Thresholds) -> list[str]:
    """Every reason (``REASONS``, balance aside) to drop ``conversation``, in order."""
    row = conversation.row
    if row["status"] != "completed":
        return ["unfinished"]
    failed: list[str] = []
    if row["abandoned"] or row["reason"] == TerminationReason.USER_ABANDONED.value:
        failed.append("abandoned")
    if (row["reward"] or 0.0) < limits.min_reward:
        failed.append("failed")
    for reason, limit in CHECKS:
        value = found.tags.get(reason, 0) if reason in TAGGED else getattr(found, reason)
        if value > getattr(limits, limit):
            failed.append(reason)
    return failed


def verdict(conversation: Conversation, found: Signals, limits: Thresholds) -> str | None:
    """The first reason (``REASONS``) to drop ``conversation``, or None to keep it."""
    failed = failed_checks(conversation, found, limits)
    return failed[0] if failed else None


def filter_runs(
    sqlite: sqlite_utils.Database,
    db_path: str,
    run_ids: Sequence[str],
    limits: Thresholds,
    rule: Balance | None = None,
) -> Selection:
    """The selection of ``run_ids``' conversations that pass ``limits``, balanced by ``rule``."""
    if not run_ids:
        raise UsageError("tracer filter: give at least one run id")
    if len(set(run_ids)) != len(run_ids):
        raise UsageError("tracer filter: a run id is given twice")
    rule = rule or Balance()
    dropped: Counter[str] = Counter({reason: 0 for reason in REASONS})
    flagged: Counter[str] = Counter({reason: 0 for reason in REASONS[1:-1]})
    passed: list[tuple[str, str]] = []
    total = 0
    for run_id in run_ids:
        source = open_run(sqlite, run_id)
        for conversation in conversations(sqlite, source):
            total += 1
            failed = failed_checks(conversation, signals(conversation), limits)
            if failed:
                dropped[failed[0]] += 1
            else:
                passed.append((conversation.id, cell_of(conversation.row, rule.by)))
            flagged.update(r for r in failed if r != "unfinished")
    kept, cells = balance(passed, rule)
    dropped["balance"] = cells.cut
    return Selection(
        db=db_path,
        runs=list(run_ids),
        thresholds=limits,
        kept=kept,
        dropped=dict(dropped),
        total=total,
        flagged=dict(flagged),
        balance=rule,
        cells=cells,
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
