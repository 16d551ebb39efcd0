"""Tool executions against follow-up questions, and success by that balance: ``tracer stats``.

Per completed conversation: tool executions (tool results the agent received) and follow-up
questions (agent texts that ask the user something, ``tau_sim.tracer.signals``). The balance is the
share of tool executions in both, ``tools / (tools + questions)``; conversations are grouped in
five bins of it and each bin shows its count, mean tools, mean questions, success rate
(reward 1.0) and abandonment rate. ``plot`` draws the same as a PNG (matplotlib, the ``plot``
extra, imported only then).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import sqlite_utils

from tau_sim.simulator.core import UsageError
from tau_sim.tracer.signals import signals
from tau_sim.tracer.source import conversations, open_run

BINS: tuple[tuple[float, float], ...] = ((0.0, 0.2), (0.2, 0.4), (0.4, 0.6), (0.6, 0.8), (0.8, 1.0))


class Point(msgspec.Struct, frozen=True):
    """One conversation: tool executions, follow-up questions, success, abandonment."""

    id: str
    tools: int
    questions: int
    success: bool
    abandoned: bool

    @property
    def balance(self) -> float:
        """``tools / (tools + questions)``; 1.0 for a conversation with neither."""
        both = self.tools + self.questions
        return self.tools / both if both else 1.0


def points(sqlite: sqlite_utils.Database, run_id: str) -> list[Point]:
    """The completed conversations of ``run_id`` as points."""
    source = open_run(sqlite, run_id)
    out: list[Point] = []
    for conversation in conversations(sqlite, source):
        row = conversation.row
        if row["status"] != "completed":
            continue
        found = signals(conversation)
        out.append(
            Point(
                conversation.id,
                found.tool_calls,
                found.questions,
                (row["reward"] or 0.0) >= 1.0,
                bool(row["abandoned"]),
            )
        )
    if not out:
        raise UsageError(f"run {run_id} has no completed conversation")
    return out


def table(found: list[Point]) -> list[dict[str, Any]]:
    """One row per balance bin (see the module docstring); empty bins have None rates."""
    rows: list[dict[str, Any]] = []
    for i, (low, high) in enumerate(BINS):
        last = i == len(BINS) - 1
        inside = [p for p in found if low <= p.balance < high or (last and p.balance == high)]
        n = len(inside)
        rows.append(
            {
                "balance": f"{low:.1f}-{high:.1f}",
                "conversations": n,
                "mean_tools": sum(p.tools for p in inside) / n if n else None,
                "mean_questions": sum(p.questions for p in inside) / n if n else None,
                "success_rate": sum(p.success for p in inside) / n if n else None,
                "abandon_rate": sum(p.abandoned for p in inside) / n if n else None,
            }
        )
    return rows


def plot(found: list[Point], path: Path) -> None:
    """A scatter of tools against questions, successes and failures apart, as a PNG."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'tau-sim[plot]'") from None
    figure, axes = plt.subplots(figsize=(6, 4))
    for success, colour, label in ((True, "tab:green", "success"), (False, "tab:red", "failure")):
        chosen = [p for p in found if p.success is success]
        axes.scatter(
            [p.questions for p in chosen],
            [p.tools for p in chosen],
            c=colour,
            label=label,
            alpha=0.5,
        )
    axes.set_xlabel("follow-up questions to the user")
    axes.set_ylabel("tool executions")
    axes.legend()
    figure.tight_layout()
    try:
        figure.savefig(path, format="png")
    except OSError as exc:
        raise UsageError(f"--plot {path}: cannot write: {exc.strerror}") from None
    finally:
        plt.close(figure)
