"""Failure reasons counted over a run's stored conversations: overall, per agent, per condition.

Each failed conversation carries one rule-based reason (``simulator.engine.failures``); this is
the table ``tau-sim report`` prints and its JSON ``failures`` object.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tau_sim.simulator.core.endings import SUCCESS_EPS
from tau_sim.simulator.engine.failures import FAILURE_KINDS
from tau_sim.simulator.results.counting import condition_of, total, weight


def failure_counts(rows: Iterable[Mapping[str, Any]]) -> dict[str, int]:
    """How many completed conversations failed for each reason (``FAILURE_KINDS`` order)."""
    counts: Counter[str] = Counter()
    for r in rows:
        if r["status"] == "completed" and r.get("failure"):
            counts[str(r.get("failure"))] += weight(r)
    order = {kind: i for i, kind in enumerate(FAILURE_KINDS)}
    return dict(sorted(counts.items(), key=lambda item: (order.get(item[0], 99), item[0])))


def failure_report(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Failure reasons of a run's rows: overall, per agent and per condition (emotion, intensity).

    ``failed`` counts the completed conversations without full reward; ``unexplained`` those
    among them with no stored reason (stored by a tau-sim without failure reasons).
    """
    done = [r for r in rows if r["status"] == "completed"]
    failed = [r for r in done if (r["reward"] or 0.0) < 1.0 - SUCCESS_EPS]
    by_agent: dict[str, list[Mapping[str, Any]]] = {}
    by_condition: dict[str, list[Mapping[str, Any]]] = {}
    for r in failed:
        by_agent.setdefault(str(r["agent"]), []).append(r)
        by_condition.setdefault(condition_of(r), []).append(r)
    return {
        "failed": total(failed),
        "unexplained": total(r for r in failed if not r.get("failure")),
        "reasons": failure_counts(failed),
        "by_agent": {k: failure_counts(v) for k, v in sorted(by_agent.items())},
        "by_condition": {k: failure_counts(v) for k, v in sorted(by_condition.items())},
    }
