"""How a simulated user's dissatisfaction and intensity evolve turn by turn (pure, deterministic).

Every agent turn yields *signals* (the triggers of ``EmotionState``, e.g.
``lookupable_question:order_id``). A friction signal raises dissatisfaction by

    base weight x leaf sensitivity of its channel x (0.3 + intensity x arousal)

and a progress signal lowers it by its base weight. Intensity follows: it rises by half of each
friction increase and eases by 0.3 x each progress decrease (neutral, with arousal 0, keeps its
intensity). The user abandons once dissatisfaction reaches

    threshold = patience x (1.2 - 0.7 x intensity x arousal) x threshold_scale

so a high-intensity user gives up sooner, and neutral (threshold 1.2 > 1) never does.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

import msgspec

from users.emotions import EmotionProfile, clamp


class Channel(StrEnum):
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
    UNCLEAR_QUESTION = "unclear_question"
    UNKNOWN_QUESTION = "unknown_question"
    DISMISSIVE = "dismissive"
    IGNORED_CUE = "ignored_cue"
    PROGRESS = "progress"
    CONFIRMATION = "confirmation"


class Weight(msgspec.Struct, frozen=True):
    """The base effect of one signal and the channel that scales it."""

    channel: Channel
    base: float
    reason: str


WEIGHTS: dict[Signal, Weight] = {
    Signal.LOOKUPABLE_QUESTION: Weight(Channel.PROCEDURAL, 0.12, "procedural friction"),
    Signal.REPEATED_QUESTION: Weight(Channel.PROCEDURAL, 0.16, "procedural friction"),
    Signal.NO_PROGRESS: Weight(Channel.PROCEDURAL, 0.06, "procedural friction"),
    Signal.UNCLEAR_QUESTION: Weight(Channel.UNCERTAINTY, 0.07, "unclear questions"),
    Signal.UNKNOWN_QUESTION: Weight(Channel.UNCERTAINTY, 0.04, "unclear questions"),
    Signal.DISMISSIVE: Weight(Channel.NEGLECT, 0.10, "dismissive tone"),
    Signal.IGNORED_CUE: Weight(Channel.NEGLECT, 0.06, "ignored cues"),
    Signal.PROGRESS: Weight(Channel.PROGRESS, 0.15, ""),
    Signal.CONFIRMATION: Weight(Channel.PROGRESS, 0.05, ""),
}
"""Base weight, channel and abandonment reason of every signal."""

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

    def _sensitivity(self, channel: Channel) -> float:
        if channel is Channel.PROCEDURAL:
            return self.spec.friction
        if channel is Channel.UNCERTAINTY:
            return self.spec.uncertainty
        if channel is Channel.NEGLECT:
            return self.spec.neglect
        return 1.0

    @property
    def threshold(self) -> float:
        """Dissatisfaction at which the user abandons, at the current intensity."""
        effective = self.intensity * self.spec.arousal
        return self.spec.patience * (1.2 - 0.7 * effective) * self.threshold_scale

    @property
    def abandoned(self) -> bool:
        """Whether dissatisfaction has reached the threshold."""
        return self.dissatisfaction >= self.threshold

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
        if weight.channel is Channel.PROGRESS:
            return 0.0
        scale = 0.3 + self.intensity * self.spec.arousal
        return weight.base * self._sensitivity(weight.channel) * scale

    def apply(self, triggers: Iterable[str]) -> float:
        """Apply one turn's triggers (unknown kinds ignored); return the dissatisfaction change."""
        before = self.dissatisfaction
        for trigger in triggers:
            signal = signal_of(trigger)
            if signal is None:
                continue
            weight = WEIGHTS[signal]
            if weight.channel is Channel.PROGRESS:
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
