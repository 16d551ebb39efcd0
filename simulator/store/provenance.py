"""Reading a stored reward's grading provenance (``conversations`` columns of schema version 4).

``row_provenance`` turns a conversation row into a ``core.grading.Provenance``; its warnings carry
their human lines, ``not_evaluated`` names the checks from the breakdown. A file older than
version 4 opened read-only has no provenance columns: ``provenance_columns`` selects what its
migration would store (``schema.older_provenance``); a NULL column reads ``live``, scorer
version unknown.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import sqlite_utils

from tau_sim.simulator.core.grading import (
    LIVE,
    NOT_EVALUATED,
    GradingWarning,
    Provenance,
    warning_line,
)
from tau_sim.simulator.store.schema import PROVENANCE_COLUMNS, older_provenance


def stored_warnings(value: Any) -> list[str]:
    """The warning codes of a stored ``warnings`` column (NULL or unreadable: none)."""
    if not value:
        return []
    try:
        codes = json.loads(value)
    except ValueError:
        return []
    return [str(code) for code in codes] if isinstance(codes, list) else []


def not_evaluated_checks(breakdown: Any) -> list[str]:
    """The checks a stored breakdown (JSON text or decoded) lists as not evaluated."""
    if isinstance(breakdown, str):
        try:
            breakdown = json.loads(breakdown)
        except ValueError:
            return []
    if not isinstance(breakdown, dict):
        return []
    return [str(check) for check in breakdown.get("not_evaluated") or []]


def provenance_columns(sqlite: sqlite_utils.Database) -> str:
    """The select list of the provenance columns: stored, or (older file) computed alike."""
    if "scored_by" in sqlite.table("conversations").columns_dict:
        return ", ".join(PROVENANCE_COLUMNS)
    found = older_provenance("rescores" in sqlite.table_names())
    return ", ".join(f"{sql} as {column}" for column, sql in found.items())


def row_provenance(row: Mapping[str, Any]) -> Provenance:
    """The provenance of a conversation row (``select *``; a breakdown as text or decoded)."""
    checks = not_evaluated_checks(row.get("breakdown"))
    codes = stored_warnings(row.get("warnings"))
    if checks and NOT_EVALUATED not in codes:
        codes.append(NOT_EVALUATED)
    return Provenance(
        scored_by=str(row.get("scored_by") or LIVE),
        scorer_version=row.get("scorer_version"),
        scored_at=row.get("scored_at") or row.get("ended_at"),
        warnings=[GradingWarning(code, warning_line(code, checks)) for code in codes],
        evaluated=not checks,
    )


def provenance_line(provenance: Provenance) -> str:
    """One line for people: how, the scorer version, when (UTC), the warnings (``show``)."""
    version = "unknown" if provenance.scorer_version is None else provenance.scorer_version
    line = f"{provenance.scored_by}, scorer version {version}"
    if provenance.scored_at is not None:
        when = datetime.fromtimestamp(provenance.scored_at, UTC)
        line += f", at {when:%Y-%m-%d %H:%M:%S} UTC"
    if not provenance.evaluated:
        line += ", not evaluated"
    if provenance.warnings:
        line += "; " + "; ".join(f"{w.code}: {w.text}" for w in provenance.warnings)
    return line


__all__ = [
    "not_evaluated_checks",
    "provenance_columns",
    "provenance_line",
    "row_provenance",
    "stored_warnings",
]
