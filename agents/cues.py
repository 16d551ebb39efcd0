"""What a scripted agent reads in the user's text: emotional cues and refusals.

The scripted agents answer what the user *says*, never the experimental condition they were
not told: an agent acknowledges the feeling the user's words show (``feeling``: the family,
anger, fear, sadness or disgust, and how strongly: low, medium or high), apologises when they
show distress (``shows_distress``) and stops before a write when the user turns down a
confirmation (``refuses``).
"""

from __future__ import annotations

import re

import msgspec

_DISTRESS = re.compile(
    r"|".join(
        (
            r"!!",
            r"\b(seriously|unbelievable|ridiculous|unacceptable|outrageous|absurd|pathetic)\b",
            r"\b(annoy|irritat|frustrat|angry|anger|furious|mad at|fed up|sick of|tired of)",
            r"\b(worr|nervous|anxious|scared|afraid|fear|panic|dread|terrif|oh no|oh god)",
            r"\b(sad|upset|disappoint|discourag|hopeless|helpless|rough|hard time|sigh)",
            r"\b(can't deal|cannot deal|nothing ever|going wrong|what else to do|desperate)",
            r"\b(ugh|sloppy|a mess|disgrace|disgust|joke|expected better|honestly|awful)",
            r"\b(terrible|horrible|worst|hate|useless|incompetent|waste of)",
            r"\b(hurry|urgent|immediately|right now|quickly|asap)\b",
            r"\b(come on|really\?)",
            r"\b(completely lost|can't believe|cannot believe|be a problem|please tell me)",
            r"\bneed (this|it) fixed\b",
        )
    ),
    re.IGNORECASE,
)

_AGREES = re.compile(r"^\W*(yes|yeah|yep|sure|ok|okay|correct|right)\b|go ahead|proceed", re.I)
_REFUSES = re.compile(
    r"\b(no|nope|don't|do not|not now|not yet|stop|wait|never mind|cancel that|hold on)\b",
    re.IGNORECASE,
)


def shows_distress(text: str) -> bool:
    """Whether the text carries a cue of a negative emotion or impatience."""
    return _DISTRESS.search(text) is not None


def refuses(text: str) -> bool:
    """Whether a reply to a confirmation question turns it down (a clear yes wins)."""
    if _AGREES.search(text):
        return False
    return _REFUSES.search(text) is not None


_FEELINGS: dict[str, dict[str, str]] = {
    "anger": {
        "high": r"ridiculous|unbelievable|unacceptable|outrageous|furious|!!|immediately"
        r"|right now",
        "medium": r"seriously|come on|annoy|irritat|frustrat|need (this|it) fixed|quickly",
        "low": r"\bhm+\b|okay, look|sorted out",
    },
    "fear": {
        "high": r"scared|panic|terrif|oh god|please tell me",
        "medium": r"nervous|worried|anxious|oh no|be a problem",
        "low": r"\bum+\b|i hope (that's|this is|it's) (okay|ok|fine)",
    },
    "sadness": {
        "high": r"can't deal|cannot deal|going wrong|completely lost|nothing ever|hopeless",
        "medium": r"\bsigh\b|hard time|rough (week|day|time)|what else to do|upset",
        "low": r"^\W*(oh|well)\.|appreciate the help",
    },
    "disgust": {
        "high": r"pathetic|a joke|disgrace|can't believe|cannot believe|disgust",
        "medium": r"sloppy|honestly|expected better|a mess",
        "low": r"\bugh\b|^\W*really\.|get it over with",
    },
}
"""Per family and level, the words that show the feeling (a higher level is read first)."""

LEVELS = ("high", "medium", "low")
_READERS = [
    (family, level, re.compile(patterns[level], re.IGNORECASE))
    for level in LEVELS
    for family, patterns in _FEELINGS.items()
]


class Feeling(msgspec.Struct, frozen=True):
    """The feeling a text shows: its family and how strongly (``low``, ``medium``, ``high``)."""

    family: str
    level: str


def feeling(text: str) -> Feeling | None:
    """The strongest feeling the text's words show (None: none of anger, fear, sadness, disgust).

    Levels are read from the strongest down, so "Unbelievable! ... I'd like this sorted out"
    reads as high anger; at one level the families are read in ``_FEELINGS``' order.
    """
    for family, level, pattern in _READERS:
        if pattern.search(text):
            return Feeling(family, level)
    return None
