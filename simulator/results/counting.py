"""What one stored conversation row counts as: a success, and whether the figures count it.

A row may also stand for several conversations with the same outcome (``metrics.outcome_rows``:
its ``weight`` is how many, its counters are their sums); a stored row weighs 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tau_sim.simulator.core.conditions import intensity_label
from tau_sim.simulator.core.endings import SUCCESS_EPS
from tau_sim.simulator.core.infra import is_excluded

WEIGHT = "weight"
"""The key of a row that stands for several conversations: how many (absent: one)."""


def weight(row: Mapping[str, Any]) -> int:
    """How many conversations ``row`` stands for (1 for a stored row)."""
    return int(row.get(WEIGHT, 1))


def total(rows: Iterable[Mapping[str, Any]]) -> int:
    """How many conversations ``rows`` stand for."""
    return sum(weight(r) for r in rows)


def is_success(row: dict[str, Any]) -> bool:
    """A completed conversation whose reward is 1 (within ``SUCCESS_EPS``)."""
    return row["status"] == "completed" and (row["reward"] or 0.0) >= 1.0 - SUCCESS_EPS


def counted(rows: Sequence[dict[str, Any]], *, count_errors: bool = False) -> list[dict[str, Any]]:
    """Completed rows, less those ``core.infra.EXCLUDED_REASONS`` ended unless ``count_errors``.

    Those are the conversations an endpoint (``infra_error``) or the user simulator
    (``user_error``) ended.
    """
    completed = [r for r in rows if r["status"] == "completed"]
    return completed if count_errors else [r for r in completed if not is_excluded(r)]


def condition_of(row: Mapping[str, Any]) -> str:
    """A row's condition as the failure and cost tables name it: ``neutral`` or ``anger 0.90``."""
    if row["emotion"] == "neutral":
        return "neutral"
    return f"{row['emotion']} {intensity_label(float(row['intensity']))}"
