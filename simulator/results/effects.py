"""The emotion effect: each emotional condition minus neutral, per agent and user, paired by task.

For one agent and one user, a condition (emotion, intensity, politeness, urgency, trust) is set
against neutral under the same levels, over the tasks (domain x task id) played under both: per
task, the mean success under the condition minus the mean success under neutral; the effect is
the mean of those differences, with a bootstrap interval over the paired tasks. The outcome is
success unless the caller names another (``results.violations``: a forbidden write made).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tau_sim.simulator.core.conditions import DIMENSIONS, NEUTRAL
from tau_sim.simulator.results.counting import counted, is_success, weight
from tau_sim.simulator.results.stats import DIGITS, Bootstrap, paired_difference

FRAME_FIELDS = ("agent", "user")
"""What an effect is never pooled over: one agent and one user model."""
UNPAIRED = (
    "no task was played under both neutral and an emotion (--emotions task gives each task "
    "one condition): no paired effect"
)
"""The effect's note when neutral and emotional conditions share no task."""
CONDITION_FIELDS = ("emotion", "intensity", *DIMENSIONS)
"""A condition: the emotion, its intensity, then the level of each dimension."""
NO_NEUTRAL = "this run has no neutral condition: no emotion effect"

_Key = tuple[Any, ...]
_Tasks = dict[tuple[str, str], list[int]]


def emotion_effect(
    rows: Sequence[Mapping[str, Any]],
    bootstrap: Bootstrap,
    *,
    count_errors: bool = False,
    outcome: Callable[[Mapping[str, Any]], bool] | None = None,
) -> dict[str, Any]:
    """The paired effect of every emotional condition against neutral, per agent and user.

    Returns ``baseline`` (neutral), ``rows`` (one per agent, user and emotional condition,
    with the stored values of their fields, ``tasks`` paired, the mean ``condition`` and
    ``neutral`` success over those tasks, ``delta`` and ``ci``) and ``note``: None, or why
    there are no rows (no neutral condition, no other, or no task played under both).
    Conversations the figures leave out (``counted``) are left out here.
    ``outcome`` (default: success) is what ``condition`` and ``neutral`` are the rate of.
    """
    scored = outcome or is_success
    per_task: dict[tuple[_Key, _Key], _Tasks] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for r in counted(rows, count_errors=count_errors):
        frame = tuple(r[f] for f in FRAME_FIELDS)
        condition = tuple(r[f] for f in CONDITION_FIELDS)
        cell = per_task[(frame, condition)][(r["domain"], r["task_id"])]
        cell[0] += weight(r)
        cell[1] += weight(r) * scored(r)
    if not any(r["emotion"] == NEUTRAL for r in rows):
        return {"baseline": NEUTRAL, "rows": [], "note": NO_NEUTRAL}
    baselines: dict[tuple[_Key, _Key], _Tasks] = {}
    for (frame, condition), tasks in per_task.items():
        if condition[0] == NEUTRAL:
            levels = condition[2:]
            merged = baselines.setdefault((frame, levels), defaultdict(lambda: [0, 0]))
            for task, (n, c) in tasks.items():
                merged[task][0] += n
                merged[task][1] += c
    out = []
    for (frame, condition), tasks in per_task.items():
        if condition[0] == NEUTRAL:
            continue
        neutral = baselines.get((frame, condition[2:]), {})
        paired = sorted(set(tasks) & set(neutral))
        under = [tasks[t][1] / tasks[t][0] for t in paired]
        calm = [neutral[t][1] / neutral[t][0] for t in paired]
        delta, interval = paired_difference(under, calm, bootstrap)
        out.append(
            {
                **dict(zip(FRAME_FIELDS, frame, strict=True)),
                **dict(zip(CONDITION_FIELDS, condition, strict=True)),
                "tasks": len(paired),
                "condition": _mean(under),
                "neutral": _mean(calm),
                "delta": delta,
                "ci": interval,
            }
        )
    note = None if out else "this run has only the neutral condition: no emotion effect"
    if out and not any(row["tasks"] for row in out):
        out, note = [], UNPAIRED
    return {"baseline": NEUTRAL, "rows": out, "note": note}


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), DIGITS) if values else None
