"""Emotion conditions as the engine sees them: names, intensities, dimension levels, task profiles.

The taxonomy itself (families, leaves, their dynamics) lives in ``users/``; the engine reaches it
through the ``EMOTIONS`` registry. What is here is the vocabulary of a condition: intensity levels,
the three dimensions with their named levels and the ``EmotionSpec`` a task file may carry (the
``Condition`` one conversation plays under is ``core.condition``'s).
"""

from __future__ import annotations

from decimal import Decimal

import msgspec

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import emotion_family, resolve_emotion

NEUTRAL = "neutral"
INTENSITY_LEVELS: dict[str, float] = {"low": 0.3, "medium": 0.6, "high": 0.9}

DIMENSIONS: dict[str, tuple[str, ...]] = {
    "politeness": ("warm", "neutral", "cold"),
    "urgency": ("low", "moderate", "high"),
    "trust": ("trusting", "cautious", "skeptical"),
}
"""The named levels of each dimension, from the mildest to the most demanding user."""

TASK_EMOTION = "task"
"""The ``--emotions`` entry that plays each task's own emotion profile (``Task.emotion``).

Its cells hold one condition per task (like neutral); the runner turns each into the task's
profile when it plays the cell (``simulator.run.player.task_condition``): the profile's leaf (or its
family's default leaf), its intensity (``medium`` when unset) and its dimension levels; a task
without a profile plays neutral.
"""

DEFAULT_LEVEL = "default"
"""How the command line and the report name an unset level: the leaf's own."""


def parse_intensity(text: str | float, flag: str = "--intensities") -> float:
    """``low``/``medium``/``high`` or a number in 0..1; ``UsageError`` names ``flag``."""
    if isinstance(text, str):
        key = text.strip().lower()
        if key in INTENSITY_LEVELS:
            return INTENSITY_LEVELS[key]
        try:
            value = float(key)
        except ValueError:
            raise UsageError(
                f"{flag}: {text!r} is not low, medium, high or a number in 0..1"
            ) from None
    else:
        value = float(text)
    if not 0.0 <= value <= 1.0:
        raise UsageError(f"{flag}: {value:g} is outside 0..1")
    return value


def check_level(dimension: str, level: str, where: str) -> str:
    """``level`` if it is a level of ``dimension``; else a ``UsageError`` naming ``where``."""
    levels = DIMENSIONS[dimension]
    if level not in levels:
        raise UsageError(f"{where}: unknown {dimension} level {level!r} (use {', '.join(levels)})")
    return level


def parse_levels(dimension: str, text: str | None) -> list[str | None]:
    """The levels of a ``--politeness``-style flag (comma-separated); ``default`` is None.

    None (no flag) is the single default level. Duplicates are dropped, order kept.
    """
    flag = f"--{dimension}"
    if text is None:
        return [None]
    out: list[str | None] = []
    for part in (p.strip().lower() for p in text.split(",")):
        if not part:
            continue
        if part != DEFAULT_LEVEL and part not in DIMENSIONS[dimension]:
            raise UsageError(
                f"{flag}: unknown {dimension} level {part!r} "
                f"(use {', '.join(DIMENSIONS[dimension])} or {DEFAULT_LEVEL})"
            )
        level = None if part == DEFAULT_LEVEL else part
        if level not in out:
            out.append(level)
    if not out:
        raise UsageError(f"{flag}: give at least one of {', '.join(DIMENSIONS[dimension])}")
    return out


def level_label(level: str | None) -> str:
    """A level as the report shows it (``default`` for the leaf's own)."""
    return DEFAULT_LEVEL if level is None else level


class EmotionSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The emotion profile a task file may carry; every field is optional.

    ``family`` and ``leaf`` are taxonomy names (a leaf must belong to the family when both are
    given), ``intensity`` is in 0..1, the dimensions are named levels (see ``DIMENSIONS``).
    """

    family: str | None = None
    leaf: str | None = None
    intensity: float | None = None
    politeness: str | None = None
    urgency: str | None = None
    trust: str | None = None


def validate_emotion_spec(spec: EmotionSpec, where: str) -> EmotionSpec:
    """Check ``spec`` against the taxonomy; a one-line ``UsageError`` starting with ``where``.

    Returns the spec with the leaf's canonical name (aliases resolved).
    """
    leaf = spec.leaf
    if leaf is not None:
        try:
            leaf = resolve_emotion(leaf)
        except UsageError:
            raise UsageError(f"{where}: emotion.leaf {spec.leaf!r} is not an emotion") from None
    if spec.family is not None:
        family = spec.family.strip().lower()
        try:
            is_family = emotion_family(family) == family
        except UsageError:
            is_family = False
        if not is_family:
            raise UsageError(f"{where}: emotion.family {spec.family!r} is not an emotion family")
        if leaf is not None and emotion_family(leaf) != family:
            raise UsageError(
                f"{where}: emotion.leaf {spec.leaf!r} belongs to family "
                f"{emotion_family(leaf)!r}, not {spec.family!r}"
            )
    if spec.intensity is not None and not 0.0 <= spec.intensity <= 1.0:
        raise UsageError(f"{where}: emotion.intensity {spec.intensity:g} is outside 0..1")
    for dimension in DIMENSIONS:
        level = getattr(spec, dimension)
        if level is not None:
            check_level(dimension, level, f"{where}: emotion.{dimension}")
    return msgspec.structs.replace(spec, leaf=leaf)


def intensity_label(value: float) -> str:
    """An intensity as reports show it: at least two decimals, every digit it has (0.30, 0.304)."""
    text = format(Decimal(repr(value)), "f")
    return text if len(text.partition(".")[2]) > 2 else f"{value:.2f}"
