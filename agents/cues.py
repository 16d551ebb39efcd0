"""What a scripted agent reads in the user's text: emotional cues and refusals.

The scripted agents answer what the user *says*, never the experimental condition they were
not told: an agent apologises when the user's words show distress (anger, fear, sadness,
disgust, impatience) and stops before a write when the user turns down a confirmation.
"""

from __future__ import annotations

import re

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
