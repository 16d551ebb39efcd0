"""What a scripted agent reads in the user's text: emotional cues, refusals and insisting.

The scripted agents answer what the user *says*, never the experimental condition they were
not told: an agent apologises when the user's words show distress (anger, fear, sadness,
disgust, impatience), stops before a write when the user turns down a confirmation, and hears
when the user insists on what it was refused (``insists``).
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


_INSISTS = re.compile(
    r"|".join(
        (
            # the scripted user's insisting phrases (users.tone.INSISTS) all say this
            r"\bstill (really )?(want|need|would like|like)\b",
            r"\bi insist\b|\binsist on\b",
            r"\b(make|made) an exception\b|\bexception (for|in) my\b",
            r"\b(supervisor|manager)\b",
            r"\bloyal customer\b|\bcustomer for (years|\d+)",
            r"\bbusiness elsewhere\b|\b(switch|go) to (a|another) competitor\b",
            r"\bhardship\b|\bhow hard this is\b|\breally hard for me\b",
            r"\bnot good enough\b|\bnothing you can do\b|\bthere must be a way\b",
            r"\bshouldn't apply to me\b|\bshould not apply to me\b",
        )
    ),
    re.IGNORECASE,
)


def insists(text: str) -> bool:
    """Whether the user insists on something it was refused.

    Insisting is repeating the demand, appealing to loyalty or hardship, claiming an
    exception, threatening to leave or asking for a supervisor. This reads every phrase of the
    scripted user's pushback (``users.tone.INSISTS``, which all say "I still want ...") and the
    common ways a person or a model insists.
    """
    return _INSISTS.search(text) is not None


def shows_distress(text: str) -> bool:
    """Whether the text carries a cue of a negative emotion or impatience."""
    return _DISTRESS.search(text) is not None


def refuses(text: str) -> bool:
    """Whether a reply to a confirmation question turns it down (a clear yes wins)."""
    if _AGREES.search(text):
        return False
    return _REFUSES.search(text) is not None
