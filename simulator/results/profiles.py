"""How a task-profile run is reported: emotion families and intensity levels, not leaves.

A run with ``--emotions task`` (Tracer's collections) plays each task under its own leaf and
intensity, so a table per leaf and exact intensity has a row per handful of tasks (about 260
rows for 40 tasks and two agents). Its report groups instead by the leaf's family and the
intensity's level: ``low``, ``medium`` or ``high``, each the band of intensities nearer to its
value of ``INTENSITY_LEVELS`` (0.3, 0.6, 0.9) than to another's. ``report --by-leaf`` keeps the
leaves and exact intensities.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

import msgspec

from tau_sim.simulator.core.conditions import INTENSITY_LEVELS, NEUTRAL, TASK_EMOTION
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import emotion_family
from tau_sim.simulator.results.counting import OutcomeRow

_BY_VALUE = sorted((value, name) for name, value in INTENSITY_LEVELS.items())
_UPPER = [round((a + b) / 2, 6) for (a, _), (b, _) in pairwise(_BY_VALUE)]
LEVEL_BANDS: dict[str, tuple[float, float]] = {
    name: (lower, upper)
    for (_, name), lower, upper in zip(_BY_VALUE, [0.0, *_UPPER], [*_UPPER, 1.0], strict=True)
}
"""Each level's band of intensities, ``[lower, upper)`` (the last one includes 1.0)."""
GROUPING = {"emotion": "family", "intensity": "level", "levels": LEVEL_BANDS}
"""The report's ``grouping`` entry for a task-profile run (how its rows were merged)."""


def family_label(emotion: str) -> str:
    """The family of an emotion leaf (``neutral`` stays); the name itself when none knows it."""
    if emotion == NEUTRAL:
        return NEUTRAL
    try:
        return emotion_family(emotion)
    except UsageError:
        return emotion


def level_of(intensity: float) -> str:
    """The intensity level whose band holds ``intensity``: ``low``, ``medium`` or ``high``."""
    for name, (_, upper) in LEVEL_BANDS.items():
        if intensity < upper:
            return name
    return _BY_VALUE[-1][1]


def is_task_profile(run: Mapping[str, Any]) -> bool:
    """Whether a stored run plays the tasks' own emotion profiles (``--emotions task``)."""
    try:
        config = msgspec.json.decode(run.get("config") or "{}")
    except msgspec.DecodeError:
        return False
    emotions = config.get("emotions", []) if isinstance(config, dict) else []
    return isinstance(emotions, list) and TASK_EMOTION in emotions


def profile_label(field: str, value: Any) -> Any:
    """A condition field as a task-profile report groups it (emotion family, intensity level).

    Other fields are returned as they are. A neutral row's intensity becomes ``-``.
    """
    if field == "emotion":
        return family_label(str(value))
    if field == "intensity":
        return level_of(float(value or 0.0))
    return value


def by_profile(rows: Sequence[OutcomeRow]) -> list[OutcomeRow]:
    """The rows with their emotion as its family and their intensity as its level."""
    return [
        row.replaced(
            emotion=profile_label("emotion", row["emotion"]),
            intensity="-"
            if row["emotion"] == NEUTRAL
            else profile_label("intensity", row["intensity"]),
        )
        for row in rows
    ]
