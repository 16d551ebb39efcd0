"""The emotion taxonomy: families, leaves, intensity levels and the user's emotion profile.

Five families (anger, fear, sadness, disgust, enjoyment) plus neutral. Each leaf carries its
default dimensions (politeness, urgency, trust, all 0..1) and how it reacts to what the agent does:
``friction`` scales procedural friction (questions a tool could answer, repeated questions,
circular flow), ``uncertainty`` scales unclear or unanswerable questions, ``neglect`` scales a
dismissive tone and ignored emotional cues, ``patience`` scales the abandonment threshold and
``arousal`` says how much the intensity matters at all (0 for neutral).
"""

from __future__ import annotations

import msgspec

from simulator.conditions import parse_intensity as parse_condition
from simulator.errors import UsageError
from simulator.registry import EMOTIONS

FAMILIES: tuple[str, ...] = ("anger", "fear", "sadness", "disgust", "enjoyment", "neutral")


class Leaf(msgspec.Struct, frozen=True):
    """One emotion of the taxonomy with its default dimensions and dynamics weights."""

    name: str
    family: str
    politeness: float
    urgency: float
    trust: float
    friction: float
    uncertainty: float
    neglect: float
    patience: float
    arousal: float = 1.0


def _leaf(
    name: str, family: str, dims: tuple[float, float, float], react: tuple[float, ...]
) -> Leaf:
    friction, uncertainty, neglect, patience = react
    politeness, urgency, trust = dims
    return Leaf(name, family, politeness, urgency, trust, friction, uncertainty, neglect, patience)


LEAVES: dict[str, Leaf] = {
    leaf.name: leaf
    for leaf in (
        # anger: reacts most to procedural friction
        _leaf("frustration", "anger", (0.35, 0.70, 0.40), (1.5, 0.9, 1.0, 0.80)),
        _leaf("irritation", "anger", (0.50, 0.50, 0.50), (1.3, 0.7, 0.8, 0.90)),
        _leaf("outrage", "anger", (0.15, 0.90, 0.20), (1.8, 1.0, 1.3, 0.65)),
        # fear: reacts most to uncertainty
        _leaf("anxiety", "fear", (0.70, 0.80, 0.40), (0.9, 1.6, 1.1, 0.90)),
        _leaf("panic", "fear", (0.40, 1.00, 0.30), (1.1, 1.9, 1.2, 0.70)),
        _leaf("worry", "fear", (0.80, 0.60, 0.50), (0.8, 1.3, 1.0, 1.00)),
        # sadness: reacts most to emotional neglect
        _leaf("helplessness", "sadness", (0.75, 0.40, 0.50), (0.8, 1.1, 1.6, 1.00)),
        _leaf("disappointment", "sadness", (0.60, 0.40, 0.35), (1.0, 0.9, 1.4, 0.95)),
        _leaf("despair", "sadness", (0.55, 0.50, 0.25), (0.9, 1.2, 1.8, 0.80)),
        # disgust: contemptuous of incompetence
        _leaf("contempt", "disgust", (0.20, 0.50, 0.20), (1.4, 0.8, 0.9, 0.80)),
        _leaf("aversion", "disgust", (0.45, 0.50, 0.30), (1.2, 0.8, 0.8, 0.90)),
        _leaf("disdain", "disgust", (0.30, 0.40, 0.25), (1.3, 0.7, 1.0, 0.85)),
        # enjoyment: forgiving
        _leaf("cheerfulness", "enjoyment", (0.90, 0.30, 0.80), (0.5, 0.5, 0.5, 1.40)),
        _leaf("relief", "enjoyment", (0.85, 0.30, 0.70), (0.6, 0.6, 0.6, 1.30)),
        _leaf("amusement", "enjoyment", (0.80, 0.20, 0.70), (0.4, 0.5, 0.4, 1.50)),
    )
}
LEAVES["neutral"] = Leaf("neutral", "neutral", 0.7, 0.4, 0.6, 0.3, 0.3, 0.3, 1.0, arousal=0.0)

DEFAULT_LEAF: dict[str, str] = {
    "anger": "frustration",
    "fear": "anxiety",
    "sadness": "helplessness",
    "disgust": "contempt",
    "enjoyment": "cheerfulness",
    "neutral": "neutral",
}
"""The leaf a bare family name stands for."""


def leaf(name: str) -> Leaf:
    """The leaf called ``name`` or the default leaf of family ``name``; ``KeyError`` if neither."""
    key = name.strip().lower()
    key = DEFAULT_LEAF.get(key, key)
    if key not in LEAVES:
        raise KeyError(name)
    return LEAVES[key]


@EMOTIONS.register("taxonomy")
def resolve(name: str) -> str:
    """Canonical leaf name of an emotion or family name; ``KeyError`` when unknown."""
    return leaf(name).name


def parse_intensity(text: str | float) -> float:
    """Parse ``low``/``medium``/``high`` or a number in 0..1; ``UsageError`` names a bad value."""
    try:
        return parse_condition(str(text))
    except UsageError:
        raise UsageError(
            f"invalid intensity {text!r}: use low, medium, high or a number in 0..1"
        ) from None


def level_name(intensity: float) -> str:
    """The named level nearest to ``intensity`` (``low`` below 0.45, ``high`` from 0.75)."""
    if intensity < 0.45:
        return "low"
    if intensity < 0.75:
        return "medium"
    return "high"


def clamp(value: float, low: float = 0.0, high: float = 1.0) -> float:
    """``value`` limited to ``low..high``."""
    return max(low, min(high, value))


class EmotionProfile(msgspec.Struct, frozen=True):
    """The emotional condition of a simulated user: what it feels, how strongly, how it talks."""

    family: str
    leaf: str
    intensity: float
    politeness: float
    urgency: float
    trust: float

    @classmethod
    def of(cls, emotion: str, intensity: float) -> EmotionProfile:
        """The profile of emotion (leaf or family name) at ``intensity``; ``KeyError`` if unknown.

        Strong negative emotions lower politeness and trust and raise urgency; neutral keeps its
        defaults whatever the intensity.
        """
        spec = leaf(emotion)
        intensity = clamp(intensity)
        shift = (intensity - 0.5) * spec.arousal
        negative = spec.family not in ("enjoyment", "neutral")
        politeness = spec.politeness - (0.4 * shift if negative else 0.0)
        return cls(
            family=spec.family,
            leaf=spec.name,
            intensity=intensity,
            politeness=round(clamp(politeness), 3),
            urgency=round(clamp(spec.urgency + 0.3 * shift), 3),
            trust=round(clamp(spec.trust - (0.3 * shift if negative else 0.0)), 3),
        )

    @property
    def spec(self) -> Leaf:
        """The taxonomy entry of this profile's leaf."""
        return LEAVES[self.leaf]

    @property
    def emotional(self) -> bool:
        """Whether the user shows an emotion an agent should acknowledge."""
        return self.family != "neutral"
