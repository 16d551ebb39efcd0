"""What one stored conversation row counts as: a success, and whether the figures count it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simulator.faults import is_infra

SUCCESS_EPS = 1e-6


def is_success(row: dict[str, Any]) -> bool:
    """A completed conversation whose reward is 1 (within ``SUCCESS_EPS``)."""
    return row["status"] == "completed" and (row["reward"] or 0.0) >= 1.0 - SUCCESS_EPS


def counted(rows: Sequence[dict[str, Any]], *, count_errors: bool = False) -> list[dict[str, Any]]:
    """Completed rows, less those an endpoint ended (``infra_error``) unless ``count_errors``."""
    completed = [r for r in rows if r["status"] == "completed"]
    return completed if count_errors else [r for r in completed if not is_infra(r)]
