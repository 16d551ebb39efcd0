"""The emotion taxonomy: families, leaves, intensity levels and the user's emotion profile.

τ-Emotion-Bench's customer-service hierarchy (five families, 22 leaves, plus neutral), the
aliases of earlier leaf names, each leaf's default politeness, urgency and trust, and its
dynamics weights (friction, uncertainty, neglect, patience, arousal). How the weights were
chosen: docs/users.md, "The emotion taxonomy".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from tau_sim.simulator.core import DIMENSIONS, EMOTIONS, NEUTRAL, UsageError
from tau_sim.simulator.core import parse_intensity as parse_condition

if TYPE_CHECKING:
    from tau_sim.simulator.world import UserView

FAMILIES: tuple[str, ...] = ("anger", "fear", "sadness", "disgust", "enjoyment", "neutral")
NEGATIVE: frozenset[str] = frozenset({"anger", "fear", "sadness", "disgust"})
"""Families whose users expect their feeling to be acknowledged."""


class Leaf(msgspec.Struct, frozen=True):
    """One emotion of the taxonomy with its default dimension levels and dynamics weights."""

    name: str
    family: str
    politeness: str
    urgency: str
    trust: str
    friction: float
    uncertainty: float
    neglect: float
    patience: float
    arousal: float = 1.0


def _leaf(name: str, family: str, levels: str, react: tuple[float, float, float, float]) -> Leaf:
    """A leaf from "politeness/urgency/trust" and friction, uncertainty, neglect, patience."""
    politeness, urgency, trust = levels.split("/")
    friction, uncertainty, neglect, patience = react
    return Leaf(name, family, politeness, urgency, trust, friction, uncertainty, neglect, patience)


LEAVES: dict[str, Leaf] = {
    leaf.name: leaf
    for leaf in (
        # anger: reacts most to procedural friction
        _leaf("annoyance", "anger", "neutral/moderate/cautious", (1.3, 0.7, 0.8, 0.90)),
        _leaf("frustration", "anger", "neutral/high/cautious", (1.5, 0.9, 1.0, 0.80)),
        _leaf("argumentativeness", "anger", "cold/moderate/skeptical", (1.4, 1.2, 0.9, 0.85)),
        _leaf("bitterness", "anger", "cold/low/skeptical", (1.3, 0.8, 1.4, 0.85)),
        _leaf("exasperation", "anger", "cold/high/skeptical", (1.8, 1.0, 1.3, 0.65)),
        # fear: reacts most to uncertainty
        _leaf("anxiety", "fear", "warm/high/cautious", (0.9, 1.6, 1.1, 0.90)),
        _leaf("nervousness", "fear", "warm/moderate/cautious", (0.8, 1.3, 1.0, 1.00)),
        _leaf("dread", "fear", "neutral/moderate/skeptical", (0.9, 1.7, 1.2, 0.85)),
        _leaf("desperation", "fear", "neutral/high/cautious", (1.1, 1.9, 1.2, 0.70)),
        # disgust: contemptuous of incompetence
        _leaf("dislike", "disgust", "neutral/low/cautious", (1.1, 0.7, 0.7, 0.95)),
        _leaf("aversion", "disgust", "neutral/moderate/skeptical", (1.2, 0.8, 0.8, 0.90)),
        _leaf("distaste", "disgust", "cold/low/skeptical", (1.3, 0.7, 1.0, 0.85)),
        _leaf("repugnance", "disgust", "cold/moderate/skeptical", (1.4, 0.8, 0.9, 0.80)),
        # sadness: reacts most to emotional neglect
        _leaf("disappointment", "sadness", "neutral/low/cautious", (1.0, 0.9, 1.4, 0.95)),
        _leaf("discouragement", "sadness", "warm/low/cautious", (1.1, 1.0, 1.3, 0.95)),
        _leaf("helplessness", "sadness", "warm/moderate/cautious", (0.8, 1.1, 1.6, 1.00)),
        _leaf("hopelessness", "sadness", "neutral/moderate/skeptical", (0.9, 1.2, 1.8, 0.80)),
        _leaf("sorrow", "sadness", "warm/low/trusting", (0.7, 0.9, 1.7, 0.95)),
        # enjoyment: forgiving
        _leaf("relief", "enjoyment", "warm/low/trusting", (0.6, 0.6, 0.6, 1.30)),
        _leaf("pride", "enjoyment", "neutral/low/cautious", (0.7, 0.5, 0.6, 1.30)),
        _leaf("peace", "enjoyment", "warm/low/trusting", (0.4, 0.5, 0.4, 1.50)),
        _leaf("excitement", "enjoyment", "warm/moderate/trusting", (0.5, 0.5, 0.5, 1.40)),
    )
}
LEAVES[NEUTRAL] = Leaf(
    NEUTRAL, NEUTRAL, "neutral", "moderate", "cautious", 0.3, 0.3, 0.3, 1.0, arousal=0.0
)

ALIASES: dict[str, str] = {
    "irritation": "annoyance",
    "outrage": "exasperation",
    "panic": "desperation",
    "worry": "nervousness",
    "despair": "hopelessness",
    "contempt": "repugnance",
    "disdain": "distaste",
    "cheerfulness": "excitement",
    "amusement": "excitement",
}
"""Leaf names of earlier versions and the leaf each now stands for."""

DEFAULT_LEAF: dict[str, str] = {
    "anger": "frustration",
    "fear": "anxiety",
    "sadness": "helplessness",
    "disgust": ALIASES["contempt"],
    "enjoyment": ALIASES["cheerfulness"],
    NEUTRAL: NEUTRAL,
}
"""The leaf a bare family name stands for (the earlier defaults, through their aliases)."""


def leaf(name: str) -> Leaf:
    """The leaf called ``name`` (or its alias), or the default leaf of family ``name``.

    ``KeyError`` if it is none of these.
    """
    key = name.strip().lower()
    key = ALIASES.get(key, DEFAULT_LEAF.get(key, key))
    if key not in LEAVES:
        raise KeyError(name)
    return LEAVES[key]


def resolve(name: str) -> str:
    """Canonical leaf name of an emotion, alias or family name; ``KeyError`` when unknown."""
    return leaf(name).name


def family_of(name: str) -> str:
    """Family of an emotion, alias or family name; ``KeyError`` when unknown."""
    return leaf(name).family


class Taxonomy:
    """This taxonomy as the engine's ``EMOTIONS`` registry sees it."""

    def resolve(self, name: str) -> str:
        """Canonical leaf name (see ``resolve``)."""
        return resolve(name)

    def family(self, name: str) -> str:
        """Family name (see ``family_of``)."""
        return family_of(name)

    def catalog(self) -> dict[str, Any]:
        """Each family's default leaf and leaves, with their aliases and dimension levels."""
        families = {}
        for family in FAMILIES:
            leaves = {
                leaf.name: {
                    "aliases": sorted(a for a, target in ALIASES.items() if target == leaf.name),
                    "politeness": leaf.politeness,
                    "urgency": leaf.urgency,
                    "trust": leaf.trust,
                }
                for leaf in LEAVES.values()
                if (leaf.family == family and leaf.name != NEUTRAL)
                or family == NEUTRAL == leaf.name
            }
            families[family] = {"default_leaf": DEFAULT_LEAF[family], "leaves": leaves}
        return families


EMOTIONS.add("taxonomy", Taxonomy())


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


def shifted(dimension: str, level: str, steps: int) -> str:
    """``level`` moved ``steps`` towards the demanding end of ``dimension`` (clamped)."""
    levels = DIMENSIONS[dimension]
    return levels[max(0, min(len(levels) - 1, levels.index(level) + steps))]


class EmotionProfile(msgspec.Struct, frozen=True):
    """The emotional condition of a simulated user: what it feels, how strongly, how it talks."""

    family: str
    leaf: str
    intensity: float
    politeness: str
    urgency: str
    trust: str

    @classmethod
    def of(
        cls,
        emotion: str,
        intensity: float,
        *,
        politeness: str | None = None,
        urgency: str | None = None,
        trust: str | None = None,
    ) -> EmotionProfile:
        """The profile of emotion (leaf, alias or family) at ``intensity``; ``KeyError`` if unknown.

        A level given here is used as is. An unset level is the leaf's own, moved one step by
        the intensity level: at ``high`` intensity towards cold / high urgency / skeptical, at
        ``low`` towards warm / low urgency / trusting, none at ``medium``. Urgency moves for every
        emotional leaf, politeness and trust only for the negative families; neutral never moves.
        Unknown level names are a ``KeyError`` too (the engine checks them before).
        """
        spec = leaf(emotion)
        intensity = clamp(intensity)
        step = {"low": -1, "medium": 0, "high": 1}[level_name(intensity)] if spec.arousal else 0
        negative = spec.family in NEGATIVE
        given = {"politeness": politeness, "urgency": urgency, "trust": trust}
        levels: dict[str, str] = {}
        for dimension, value in given.items():
            if value is not None:
                if value not in DIMENSIONS[dimension]:
                    raise KeyError(value)
                levels[dimension] = value
                continue
            moves = dimension == "urgency" or negative
            levels[dimension] = shifted(dimension, getattr(spec, dimension), step if moves else 0)
        return cls(family=spec.family, leaf=spec.name, intensity=intensity, **levels)

    @property
    def spec(self) -> Leaf:
        """The taxonomy entry of this profile's leaf."""
        return LEAVES[self.leaf]

    @property
    def emotional(self) -> bool:
        """Whether the user shows an emotion at all (every family but neutral)."""
        return self.family != NEUTRAL

    @property
    def wants_acknowledgement(self) -> bool:
        """Whether the user expects its feeling to be acknowledged (negative families only)."""
        return self.family in NEGATIVE

    def rank(self, dimension: str) -> int:
        """0, 1 or 2: the position of this profile's level in ``DIMENSIONS[dimension]``."""
        return DIMENSIONS[dimension].index(getattr(self, dimension))


def profile_of(view: UserView) -> EmotionProfile:
    """The emotion profile of a user's condition; ``UsageError`` for an unknown emotion or level."""
    try:
        return EmotionProfile.of(
            view.condition.emotion, view.condition.intensity, **view.condition.levels
        )
    except KeyError as exc:
        raise UsageError(f"--emotions: unknown emotion or level {exc.args[0]!r}") from None
