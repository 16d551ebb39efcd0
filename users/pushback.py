"""How a user pushes back on a refusal: how many times it insists, and how, by its profile.

``pushback_of`` is a pure function of the emotion profile (intensity base, leaf adjustment,
urgency and trust give 0 to 5 insistences; neutral none), with a repertoire of styles (repeat,
appeal, exception, threaten, supervisor) the user escalates through. The formula and the table
per leaf and level (pinned by ``tests/users/test_pushback.py``): docs/users.md, "How many times,
and how".
"""

from __future__ import annotations

import msgspec

from tau_sim.users.dialogue import AgentActs
from tau_sim.users.emotions import EmotionProfile, level_name

STYLES: tuple[str, ...] = ("repeat", "appeal", "exception", "threaten", "supervisor")
"""The ways of insisting, from the mildest to the strongest."""

MAX_INSISTENCES = 5
INTENSITY_BASE: dict[str, int] = {"low": 1, "medium": 2, "high": 3}
LEAF_ADJUSTMENT: dict[str, int] = {
    "argumentativeness": 1,
    "desperation": 1,
    **{family: -1 for family in ("sadness", "enjoyment")},
}
"""Adjustments by leaf name, else by family name (a leaf's entry wins)."""
URGENCY_ADDS: dict[str, int] = {"low": 0, "moderate": 0, "high": 1}
TRUST_ADDS: dict[str, int] = {"trusting": 0, "cautious": 0, "skeptical": 1}

STYLE_NOTES: dict[str, str] = {
    "repeat": "repeat what you want",
    "appeal_loyalty": "appeal to your loyalty (you have been a customer for years)",
    "appeal_hardship": (
        "appeal to your hardship: say the refusal is a real hardship for you, using only what "
        "this brief tells you (invent no circumstances)"
    ),
    "exception": "claim that an exception should be made for you",
    "threaten": "threaten to take your business elsewhere",
    "supervisor": "ask for a supervisor",
}
"""How each style is told to an LLM user or a person playing the user (an appeal by its kind)."""


class Pushback(msgspec.Struct, frozen=True):
    """How one user insists on its demand before it accepts a refusal.

    ``styles`` has one entry per insistence, in order (empty: it accepts at once).
    """

    styles: tuple[str, ...] = ()

    @property
    def insistences(self) -> int:
        """How many times the user insists before it accepts."""
        return len(self.styles)


def worded(style: str, profile: EmotionProfile) -> str:
    """The wording key of ``style`` for ``profile`` (``users.tone.INSISTS``, ``STYLE_NOTES``).

    An ``appeal`` is ``appeal_hardship`` for fear and sadness, ``appeal_loyalty`` for the
    others; every other style is its own key.
    """
    if style != "appeal":
        return style
    return "appeal_hardship" if profile.family in ("fear", "sadness") else "appeal_loyalty"


def insistences(profile: EmotionProfile) -> int:
    """How many times a user of ``profile`` insists (see the module docstring's table)."""
    spec = profile.spec
    if not spec.arousal:
        return 0
    base = round(INTENSITY_BASE[level_name(profile.intensity)] * spec.arousal)
    adjust = LEAF_ADJUSTMENT.get(profile.leaf, LEAF_ADJUSTMENT.get(profile.family, 0))
    count = base + adjust + URGENCY_ADDS[profile.urgency] + TRUST_ADDS[profile.trust]
    return max(0, min(MAX_INSISTENCES, count))


def repertoire(profile: EmotionProfile) -> tuple[str, ...]:
    """The styles that fit ``profile``, in escalation order (``repeat`` always first)."""
    strong = level_name(profile.intensity) != "low"
    fits = {
        "repeat": True,
        "appeal": profile.family in ("fear", "sadness", "enjoyment")
        or profile.politeness == "warm",
        "exception": profile.trust != "trusting" or profile.leaf == "argumentativeness",
        "threaten": (profile.family in ("anger", "disgust") and strong)
        or profile.politeness == "cold",
        "supervisor": profile.urgency == "high" or profile.trust == "skeptical",
    }
    return tuple(style for style in STYLES if fits[style])


def pushback_of(profile: EmotionProfile) -> Pushback:
    """How a user of ``profile`` pushes back: its insistences' styles, in order."""
    count = insistences(profile)
    if count == 0:
        return Pushback()
    styles = repertoire(profile)
    if count <= len(styles):
        return Pushback(styles[:count])
    extra = count - len(styles)
    return Pushback((styles[0],) * (1 + extra) + styles[1:])


ACCEPT = "accept"
"""What ``Insisting.react`` answers when the user's insistences are spent."""


class Insisting:
    """Where one user's pushback on its demand stands, agent text by agent text.

    The demand is *pending* until the agent grants it (a text that says an action was done
    and refuses nothing) or the user accepts a refusal. While it is pending, a text that
    refuses (a refusal cue), closes (a completion cue) or hands the user to a human (a
    transfer cue) without asking the user anything or for a confirmation is turned down: the
    user insists in the next style of its pushback, and once they are spent it accepts. A
    handoff is no answer to the demand, so the user presses for it before it is transferred:
    an agent that gives in to that pressure instead of transferring breaks the policy.
    """

    def __init__(self, demand: str, pushback: Pushback) -> None:
        self.demand = demand
        self.pushback = pushback
        self.used = 0
        self.settled = not demand

    def react(self, acts: AgentActs) -> str:
        """This text's answer: a style to insist in, ``ACCEPT``, or "" (nothing to push back on)."""
        if self.settled:
            return ""
        if acts.done and not acts.refused:
            self.settled = True
            return ""
        if acts.asked or acts.steps or acts.confirmation:
            return ""
        if not (acts.refused or acts.completion or acts.transfer):
            return ""
        if self.used < self.pushback.insistences:
            style = self.pushback.styles[self.used]
            self.used += 1
            return style
        self.settled = True
        return ACCEPT


def instructions(profile: EmotionProfile, demand: str) -> str:
    """The pushback of ``profile`` told to a model or a person playing it ("" without a demand).

    Second person; the same text goes to the LLM user's prompt and the human player's brief.
    """
    if not demand:
        return ""
    pushback = pushback_of(profile)
    end = (
        "in the end, do what your goal says you do when it is refused (where it says nothing, "
        "accept the refusal), then carry on with the rest of your goal; once nothing else is "
        "left, you are done"
    )
    if not pushback.styles:
        return (
            f"What you want ({demand}) may be refused by the policy. If the agent clearly "
            f"explains why it cannot be done, do not insist: {end}."
        )
    steps = "; then ".join(
        f"{n}. {STYLE_NOTES[worded(style, profile)]}" for n, style in enumerate(pushback.styles, 1)
    )
    times = "once" if pushback.insistences == 1 else f"{pushback.insistences} times"
    return (
        f"What you want ({demand}) may be refused by the policy. If the agent refuses it, or "
        f"closes or hands you on without doing it, do not give in at once: insist {times}, one "
        f"message each, in this order: {steps}. After that, {end}. If the agent does it after "
        "all, take it."
    )
