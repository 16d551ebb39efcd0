"""How a simulated user's dissatisfaction and intensity evolve turn by turn (pure, deterministic).

Each agent turn's signals (the triggers of ``EmotionUpdate``) raise or lower dissatisfaction by
their weight, the leaf's sensitivity and the profile's levels; intensity follows; the user
abandons past a threshold that falls with intensity and urgency, and never at neutral. The
formulas: docs/users.md, "How dissatisfaction and intensity move".
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

import msgspec

from tau_sim.users.emotions import EmotionProfile, clamp


class Sensitivity(StrEnum):
    """Which sensitivity of the leaf scales a signal."""

    PROCEDURAL = "procedural"
    UNCERTAINTY = "uncertainty"
    NEGLECT = "neglect"
    PROGRESS = "progress"


class Signal(StrEnum):
    """Kinds of things an agent turn does to the user (prefix of a trigger ``kind:detail``)."""

    LOOKUPABLE_QUESTION = "lookupable_question"
    REPEATED_QUESTION = "repeated_question"
    NO_PROGRESS = "no_progress"
    ANNOUNCED_DELAY = "announced_delay"
    UNCLEAR_QUESTION = "unclear_question"
    UNKNOWN_QUESTION = "unknown_question"
    UNBACKED_CLAIM = "unbacked_claim"
    DISMISSIVE = "dismissive"
    IGNORED_CUE = "ignored_cue"
    PROGRESS = "progress"
    CONFIRMATION = "confirmation"


class Weight(msgspec.Struct, frozen=True):
    """The base effect of one signal, the sensitivity that scales it and its dimension, if any."""

    sensitivity: Sensitivity
    base: float
    reason: str
    dimension: str | None = None


WEIGHTS: dict[Signal, Weight] = {
    Signal.LOOKUPABLE_QUESTION: Weight(Sensitivity.PROCEDURAL, 0.12, "procedural friction"),
    Signal.REPEATED_QUESTION: Weight(Sensitivity.PROCEDURAL, 0.16, "procedural friction"),
    Signal.NO_PROGRESS: Weight(Sensitivity.PROCEDURAL, 0.06, "procedural friction", "urgency"),
    Signal.ANNOUNCED_DELAY: Weight(Sensitivity.PROCEDURAL, 0.08, "procedural friction", "urgency"),
    Signal.UNCLEAR_QUESTION: Weight(Sensitivity.UNCERTAINTY, 0.07, "unclear questions"),
    Signal.UNKNOWN_QUESTION: Weight(Sensitivity.UNCERTAINTY, 0.04, "unclear questions"),
    Signal.UNBACKED_CLAIM: Weight(Sensitivity.UNCERTAINTY, 0.10, "unbacked claims", "trust"),
    Signal.DISMISSIVE: Weight(Sensitivity.NEGLECT, 0.10, "dismissive tone", "politeness"),
    Signal.IGNORED_CUE: Weight(Sensitivity.NEGLECT, 0.06, "ignored cues", "politeness"),
    Signal.PROGRESS: Weight(Sensitivity.PROGRESS, 0.15, ""),
    Signal.CONFIRMATION: Weight(Sensitivity.PROGRESS, 0.05, ""),
}
"""Base weight, sensitivity, abandonment reason and scaling dimension of every signal."""

LEVEL_FACTORS: dict[str, dict[str, float]] = {
    "urgency": {"low": 0.4, "moderate": 1.0, "high": 1.8},
    "politeness": {"warm": 0.8, "neutral": 1.0, "cold": 1.25},
    "trust": {"trusting": 0.0, "cautious": 0.5, "skeptical": 1.0},
}
"""How a profile's level scales the signals that depend on its dimension."""

RELATIVE: frozenset[str] = frozenset({"urgency", "politeness"})
"""Dimensions whose factor is taken relative to the leaf's own level."""

URGENCY_PATIENCE: dict[str, float] = {"low": 1.2, "moderate": 1.0, "high": 0.8}
"""How the urgency level scales the abandonment threshold (relative to the leaf's own)."""

REACTIVITY = 0.5
"""How much of a friction increase also raises intensity."""
EASING = 0.3
"""How much of a progress decrease also lowers intensity."""


def signal_of(trigger: str) -> Signal | None:
    """The signal kind of a trigger string (``repeated_question:email`` -> REPEATED_QUESTION)."""
    try:
        return Signal(trigger.partition(":")[0])
    except ValueError:
        return None


class DissatisfactionModel:
    """Dissatisfaction (0..1), intensity (0..1) and the abandonment rule of one user."""

    def __init__(self, profile: EmotionProfile, threshold_scale: float = 1.0) -> None:
        self.profile = profile
        self.spec = profile.spec
        self.intensity = profile.intensity
        self.dissatisfaction = 0.0
        self.threshold_scale = threshold_scale
        self._by_reason: dict[str, float] = {}

    def _sensitivity(self, kind: Sensitivity) -> float:
        if kind is Sensitivity.PROCEDURAL:
            return self.spec.friction
        if kind is Sensitivity.UNCERTAINTY:
            return self.spec.uncertainty
        if kind is Sensitivity.NEGLECT:
            return self.spec.neglect
        return 1.0

    @property
    def threshold(self) -> float:
        """Dissatisfaction at which the user abandons, at the current intensity and urgency."""
        effective = self.intensity * self.spec.arousal
        urgency = URGENCY_PATIENCE[self.profile.urgency] / URGENCY_PATIENCE[self.spec.urgency]
        return self.spec.patience * (1.2 - 0.7 * effective) * urgency * self.threshold_scale

    @property
    def abandoned(self) -> bool:
        """Whether dissatisfaction has reached the threshold (never for arousal 0: neutral)."""
        return self.spec.arousal > 0 and self.dissatisfaction >= self.threshold

    @property
    def reason(self) -> str:
        """The kind of friction that contributed most so far ("" when none)."""
        if not self._by_reason:
            return ""
        reason = max(self._by_reason.items(), key=lambda kv: kv[1])[0]
        if reason == "dismissive tone" and self.profile.family == "sadness":
            return "emotional neglect"
        return reason

    def friction(self, signal: Signal) -> float:
        """The dissatisfaction increase ``signal`` would cause now (0 for progress)."""
        weight = WEIGHTS[signal]
        if weight.sensitivity is Sensitivity.PROGRESS:
            return 0.0
        scale = 0.3 + self.intensity * self.spec.arousal
        level = 1.0 if weight.dimension is None else self.level_factor(weight.dimension)
        return weight.base * self._sensitivity(weight.sensitivity) * scale * level

    def level_factor(self, dimension: str) -> float:
        """The factor of the profile's level of ``dimension`` (see the module docstring)."""
        table = LEVEL_FACTORS[dimension]
        factor = table[getattr(self.profile, dimension)]
        if dimension in RELATIVE:
            factor /= table[getattr(self.spec, dimension)]
        return factor

    def apply(self, triggers: Iterable[str]) -> float:
        """Apply one turn's triggers (unknown kinds ignored); return the dissatisfaction change."""
        before = self.dissatisfaction
        for trigger in triggers:
            signal = signal_of(trigger)
            if signal is None:
                continue
            weight = WEIGHTS[signal]
            if weight.sensitivity is Sensitivity.PROGRESS:
                drop = min(weight.base, self.dissatisfaction)
                self.dissatisfaction -= drop
                self.intensity = clamp(self.intensity - EASING * weight.base * self.spec.arousal)
                continue
            rise = self.friction(signal)
            self.dissatisfaction = clamp(self.dissatisfaction + rise)
            self.intensity = clamp(self.intensity + REACTIVITY * rise * self.spec.arousal)
            self._by_reason[weight.reason] = self._by_reason.get(weight.reason, 0.0) + rise
        self.dissatisfaction = round(self.dissatisfaction, 6)
        self.intensity = round(self.intensity, 6)
        return self.dissatisfaction - before
