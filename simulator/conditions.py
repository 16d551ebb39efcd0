"""Emotion conditions as the engine sees them: names and intensities (the taxonomy is in users/)."""

from __future__ import annotations

from simulator.errors import UsageError

NEUTRAL = "neutral"
LEVELS: dict[str, float] = {"low": 0.3, "medium": 0.6, "high": 0.9}


def parse_intensity(text: str | float, flag: str = "--intensities") -> float:
    """``low``/``medium``/``high`` or a number in 0..1; ``UsageError`` names ``flag``."""
    if isinstance(text, str):
        key = text.strip().lower()
        if key in LEVELS:
            return LEVELS[key]
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
