"""The report's ``grading`` section: how the run's rewards were computed, and their warnings.

Counted over the run's completed conversations from their provenance (``store.provenance``):
how each was scored (``live``, ``rescored``, ``replayed``), by which scorer version (``unknown``
for rows stored before versions were recorded), the conversations with each warning code, and
those with a check not evaluated. A conversation not evaluated has reward 0: the figures count
it as a failure (as τ²-bench scores a check it could not run), and ``not_evaluated`` counts it
apart, so a reader sees how many failures are the grader's, not the agent's.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import sqlite_utils

from tau_sim.simulator.core.grading import SCORER_VERSION
from tau_sim.simulator.store.provenance import provenance_columns, row_provenance


def grading_section(sqlite: sqlite_utils.Database, run_id: str) -> dict[str, Any]:
    """The ``grading`` section of a run's report (keys: the README, "Grading provenance").

    ``scorer_version`` (today's), ``conversations`` (completed), ``scored_by``,
    ``scorer_versions`` and ``warnings`` (conversations per value or code), ``not_evaluated``.

    The rows are grouped in SQL by their provenance and by whether the breakdown lists a check
    not evaluated, so what is read grows with the kinds of provenance, not the conversations.
    """
    checks = "case when json_valid(breakdown) then json_extract(breakdown, '$.not_evaluated') end"
    rows = sqlite.query(
        f"select scored_by, scorer_version, warnings, checks, count(*) as n from (select "
        f"{provenance_columns(sqlite)}, {checks} as checks from conversations "
        "where run_id = ? and status = 'completed') group by scored_by, scorer_version, "
        "warnings, checks",
        [run_id],
    )
    scored_by: Counter[str] = Counter()
    versions: Counter[str] = Counter()
    warned: Counter[str] = Counter()
    not_evaluated = total = 0
    for row in rows:
        n = int(row["n"])
        found = row_provenance(
            {**row, "breakdown": f'{{"not_evaluated": {row["checks"] or "[]"}}}'}
        )
        total += n
        scored_by[found.scored_by] += n
        version = found.scorer_version
        versions["unknown" if version is None else str(version)] += n
        for warning in found.warnings:
            warned[warning.code] += n
        not_evaluated += 0 if found.evaluated else n
    return {
        "scorer_version": SCORER_VERSION,
        "conversations": total,
        "scored_by": dict(sorted(scored_by.items())),
        "scorer_versions": dict(sorted(versions.items())),
        "warnings": dict(sorted(warned.items())),
        "not_evaluated": not_evaluated,
    }


def grading_line(section: dict[str, Any] | None) -> str | None:
    """The report's line on grading (None: no completed conversation)."""
    if not section or not section["conversations"]:
        return None
    how = ", ".join(f"{n} {name}" for name, n in section["scored_by"].items())
    versions = ", ".join(f"{name}: {n}" for name, n in section["scorer_versions"].items())
    line = f"grading: {how}; scorer version {versions} (today's: {section['scorer_version']})"
    if section["warnings"]:
        codes = ", ".join(f"{code} {n}" for code, n in section["warnings"].items())
        line += f"; warnings: {codes}"
    if section["not_evaluated"]:
        line += (
            f"; {section['not_evaluated']} not evaluated (a check could not be run: reward 0, "
            "never a pass; counted as failures)"
        )
    return line


__all__ = ["grading_line", "grading_section"]
