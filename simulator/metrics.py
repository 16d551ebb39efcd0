"""Figures computed from the store: pass^k, success, abandonment, effort per conversation.

Conversations an endpoint ended (``infra_error``) say nothing about the agent: they are counted
in ``infra_errors`` and left out of every figure (``n`` is what the figures count), unless
``count_errors`` puts them back as failures.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from decimal import Decimal
from math import comb
from typing import Any

import sqlite_utils

from simulator.conditions import level_label
from simulator.faults import error_share, is_infra
from simulator.registry import is_calibration_agent

SUCCESS_EPS = 1e-6
LEVEL_FIELDS = ("politeness", "urgency", "trust")
GROUP_FIELDS = ("agent", "user", "domain", "emotion", "intensity", *LEVEL_FIELDS)
"""The fields of a condition: one row of the condition table (a NULL level reads ``default``)."""


def pass_hat_k(counts: Iterable[tuple[int, int]], k: int) -> float | None:
    """Mean over tasks of C(c, k) / C(n, k) for (n trials, c successes); n < k is skipped."""
    values = [comb(c, k) / comb(n, k) for n, c in counts if n >= k]
    return sum(values) / len(values) if values else None


def _is_success(row: dict[str, Any]) -> bool:
    return row["status"] == "completed" and (row["reward"] or 0.0) >= 1.0 - SUCCESS_EPS


def summarize(
    rows: Sequence[dict[str, Any]], max_k: int, *, count_errors: bool = False
) -> dict[str, Any]:
    """Figures of a set of conversation rows; a task is one task id under one condition.

    ``n`` is the number of conversations the figures count: the completed ones, less those an
    endpoint ended (``infra_errors``) unless ``count_errors``.
    """
    completed = [r for r in rows if r["status"] == "completed"]
    infra = sum(1 for r in completed if is_infra(r))
    done = completed if count_errors else [r for r in completed if not is_infra(r)]
    per_task: dict[tuple[Any, ...], list[int]] = defaultdict(lambda: [0, 0])
    for r in done:
        key = (r["task_id"], *(r[field] for field in GROUP_FIELDS))
        per_task[key][0] += 1
        per_task[key][1] += int(_is_success(r))
    counts = [(n, c) for n, c in per_task.values()]
    n = len(done)

    def mean(field: str) -> float | None:
        return round(sum(r[field] or 0 for r in done) / n, 4) if n else None

    return {
        "conversations": len(rows),
        "completed": len(completed),
        "infra_errors": infra,
        "n": n,
        "success_rate": round(sum(_is_success(r) for r in done) / n, 4) if n else None,
        "abandonment_rate": round(sum(r["reason"] == "user_abandoned" for r in done) / n, 4)
        if n
        else None,
        "pass_hat_k": {
            str(k): None if (v := pass_hat_k(counts, k)) is None else round(v, 4)
            for k in range(1, max_k + 1)
        },
        "avg_turns": mean("turns"),
        "avg_tool_calls": mean("tool_calls"),
        "avg_questions": mean("questions"),
        "avg_tokens": round(
            sum((r["tokens_in"] or 0) + (r["tokens_out"] or 0) for r in done) / n, 1
        )
        if n
        else None,
        "reasons": dict(sorted(_count(r["reason"] for r in completed).items())),
    }


def _count(values: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = defaultdict(int)
    for v in values:
        out[v] += 1
    return dict(out)


def conversation_rows(db: sqlite_utils.Database, run_id: str) -> list[dict[str, Any]]:
    """Every conversation row of a run, in grid order."""
    return list(db.query("select * from conversations where run_id = ? order by cell", [run_id]))


def run_report(
    db: sqlite_utils.Database, run: dict[str, Any], *, count_errors: bool = False
) -> dict[str, Any]:
    """The whole report of a run: overall figures, per-dimension groups and the condition table.

    ``count_errors``: conversations ended by endpoint errors count as failures (by default
    they are left out; ``infra_causes`` says what they hit). ``calibration_agents`` names the
    agents that read the answer key (scripted): their figures check the harness, they are not
    benchmark results.
    """
    rows = conversation_rows(db, run["id"])
    max_k = max((r["trial"] for r in rows), default=0) + 1
    report: dict[str, Any] = {
        "run_id": run["id"],
        "status": run["status"],
        "count_errors": count_errors,
        "infra_causes": error_share(rows).causes,
    }

    report.update(summarize(rows, max_k, count_errors=count_errors))
    agents = sorted({str(r["agent"]) for r in rows})
    report["calibration_agents"] = [a for a in agents if is_calibration_agent(a)]
    groups: dict[str, dict[str, Any]] = {}
    for field in GROUP_FIELDS:
        buckets: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            buckets[_label(field, r[field])].append(r)
        groups[field] = {
            k: summarize(v, max_k, count_errors=count_errors) for k, v in sorted(buckets.items())
        }
    report["groups"] = groups
    table: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        table[tuple(_label(field, r[field]) for field in GROUP_FIELDS)].append(r)
    report["conditions"] = [
        {
            **dict(zip(GROUP_FIELDS, k, strict=True)),
            **summarize(v, max_k, count_errors=count_errors),
        }
        for k, v in table.items()
    ]
    report.update(cost_and_failures(rows))
    return report


def cost_and_failures(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The report's ``cost`` (tokens and dollars per role) and ``failures`` (reasons) sections."""
    from simulator.costs import cost_report
    from simulator.failures import failure_report

    return {"cost": cost_report(rows), "failures": failure_report(rows)}


def intensity_label(value: float) -> str:
    """An intensity as reports show it: at least two decimals, every digit it has (0.30, 0.304)."""
    text = format(Decimal(repr(value)), "f")
    return text if len(text.partition(".")[2]) > 2 else f"{value:.2f}"


def _label(field: str, value: Any) -> str:
    if field == "intensity":  # exact: 0.3 and 0.304 are two rows
        return intensity_label(float(value))
    if field in LEVEL_FIELDS:
        return level_label(value)
    return str(value)
