"""What a scripted agent reads in the user's text: emotional cues, refusals and insistence.

The scripted agents answer what the user *says*, never the experimental condition they were
not told: an agent acknowledges the feeling the user's words show (``feeling``: the family,
anger, fear, sadness or disgust, and how strongly: low, medium or high), apologises when they
show distress (``shows_distress``) and stops before a write when the user turns down a
confirmation (``refuses``).

``distress_level`` grades the distress: 0 calm, 1 distressed (a cue of ``shows_distress``),
2 very distressed or threatening (a strong cue: "ridiculous", "panicking", "can't deal with
this anymore", "disgrace" …; a threat: a supervisor, a lawyer, taking the business elsewhere;
shouting: "!!", or a word in capitals in a sentence that ends with "!"; or a cue in such a
sentence). ``insists`` reads a message that insists on what was refused (the scripted user's
pushback and the common ways a person or a model insists); ``presses`` reads a reply to a
refusal more widely: one that insists, or neither ends the conversation nor accepts.
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
            r"\b(completely lost|can't believe|cannot believe|be a problem)",
            r"\bplease tell me (?:it|that|this|there|you|i|we|my)\b",
            r"\bneed (this|it) fixed\b",
        )
    ),
    re.IGNORECASE,
)

_STRONG = re.compile(
    r"|".join(
        (
            r"\b(ridiculous|unbelievable|outrageous|unacceptable|absurd|pathetic|disgrace)",
            r"\b(furious|livid|fed up|sick of|hate|worst|useless|incompetent|what a joke)",
            r"\b(terrified|panick?ing|panic|really scared|oh god|desperate|hopeless)",
            r"\b(can't deal|cannot deal|anymore|completely lost|nothing ever|everything is going)",
            r"\b(can't believe|cannot believe|right now|immediately)",
        )
    ),
    re.IGNORECASE,
)
_THREAT = re.compile(
    r"\b(supervisor|manager|lawyer|legal action|sue|court|regulator|ombudsman|complaint|"
    r"report you|bad review|elsewhere|take my business|switch to another|close my account|"
    r"cancel my account|never (again|use)|last time|i'll dispute|disputing|one-star|review site|"
    r"commissioner|fcc|medical board|bureau|porting|another (airline|carrier|clinic)|"
    r"switch(ing)? (suppliers|to)|close my accounts?|deleting the app|senior|real person)\b",
    re.IGNORECASE,
)
_CAPITALS = re.compile(r"\b[A-Z]{4,}\b")
_EXCLAIMED = re.compile(r"[^.!?]*!")
_ENDS = ("###STOP###", "###UNSATISFIED###", "###TRANSFER###")
_ACCEPTS = re.compile(
    r"\b(ok|okay|alright|all right|i understand|understood|i see|fine|fair enough|got it|"
    r"makes sense|no problem|thanks|thank you|that's all|that's it|i accept|i'll wait|"
    r"i will wait)\b",
    re.IGNORECASE,
)
_PRESSES = re.compile(
    r"\b(but|still|insist|demand|not acceptable|unacceptable|refuse|won't accept|"
    r"will not accept|not good enough|not okay|not ok|not fine)\b",
    re.IGNORECASE,
)
_PUSHBACK = re.compile(
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
            # natural insistence: a demand again, an appeal, a threat, a second look asked for
            r"\b(has|have) to be (something|a way)\b|\bmust be (something|a way)\b",
            r"\b(any|no) (way|flexibility|chance)\b|\bjust (this once|for today)\b",
            r"\b(reconsider|bend the rule|second look|another look|look at it again)\b",
            r"\bcheck again\b|\btry again\b|\bregardless\b|\bsomeone (more senior|who can)\b",
            r"\b(real|actual) person\b|\bput me through\b|\bspeak (with|to) someone\b",
            r"\b(take|put) (it|that|the \w+|the money) (off|back)\b",
            r"\b(refund|cover|redo|waive|refill) (it|this|that|the|my)\b|\bneeds to come off\b",
            # "can't you look that up yourself?" asks the agent to look, it presses no demand
            r"\b(can't|couldn't) you\b(?! (just )?(find|look|see|check|get|pull|search)\b)",
            r"\bwould you consider\b|\bdoesn't that count\b",
            r"\bi'?m not paying\b|\bi (would|'d) like (that|the|my) \w+ (processed|back)\b",
            r"\b(still haven't|you still)\b|\bi'?d like the full\b|\bi'?d prefer\b",
            r"\bi'?(ll| will|'m)( be)? disput|\breport(ing)? you\b",
            r"\b(complain|posting|one-star|porting)",
            r"\b(lawyer|commissioner|ombudsman|regulator|fcc|medical board|bureau)\b",
            r"\b(switch|switching|moving|move) (everything|suppliers|to another|my number)\b",
            r"\bnever (stay|use|order|fly|shop)\w* with\b|\banother (airline|carrier|clinic)\b",
            r"\bthen close my\b|\bdeleting the app\b|\bpay(ing)? you for\b|\bgive me the\b",
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
    """Whether a reply to a confirmation question turns it down (a clear yes wins).

    A correction ("That's wrong, it's the other order") turns the proposal down.
    """
    if corrects(text) and not re.match(r"^\W*(yes|yeah|yep)\b", text, re.I):
        return True
    if _AGREES.search(text):
        return False
    return _REFUSES.search(text) is not None


def distress_level(text: str) -> int:
    """How distressed the text reads: 0 calm, 1 distressed, 2 very distressed or threatening."""
    if "!!" in text or _STRONG.search(text) or _THREAT.search(text):
        return 2
    for sentence in _EXCLAIMED.findall(text):
        if shows_distress(sentence) or _CAPITALS.search(sentence):
            return 2
    return 1 if shows_distress(text) else 0


def insists(text: str) -> bool:
    """Whether the user insists on something it was refused.

    Insisting is repeating the demand, appealing to loyalty or hardship, claiming an
    exception, threatening to leave or asking for a supervisor. This reads every phrase of the
    scripted user's pushback (``users.tone.INSISTS``, which all say "I still want ...") and the
    common ways a person or a model insists; no other phrase of the scripted user reads so.
    """
    return _PUSHBACK.search(text) is not None


def presses(text: str) -> bool:
    """Whether a reply to the agent's refusal presses on: it insists, or neither ends nor accepts.

    It ends with ``###STOP###`` or ``###UNSATISFIED###``; it accepts with "okay", "I
    understand", "fine", thanks … unless it also presses ("but", "still", "I insist" …). The
    pushover counts these replies; a question ("so, is it sorted?") presses too.
    """
    if any(marker in text for marker in _ENDS):
        return False
    if insists(text):
        return True
    return not (_ACCEPTS.search(text) and not _PRESSES.search(text))


_FEELINGS: dict[str, dict[str, str]] = {
    "anger": {
        "high": r"ridiculous|unbelievable|unacceptable|outrageous|furious|!!|immediately"
        r"|right now|\?!|\bnot acceptable|waste of|worst|insult|supervisor|manager|lawyer"
        r"|complaint|commissioner|ombudsman|\bfcc\b|disputing|i'll dispute|one-star|escalat|porting"
        r"|another (airline|carrier|clinic)|close my accounts?|deleting the app|real person"
        r"|(?-i:(?<!#)\b[A-Z]{4,}\b(?!#))|makes zero sense|said so|told you|i'm done here",
        "medium": r"seriously|come on|annoy|irritat|frustrat|need (this|it) fixed|quickly",
        "low": r"\bhm+\b|okay, look|sorted out",
    },
    "fear": {
        "high": r"scared|panic|terrif|oh god|please tell me (?:it|that|this|there|you|i|we|my)\b",
        "medium": r"nervous|worried|anxious|oh no|be a problem|afraid|evict|stranded"
        r"|in trouble|what if|run out of|do i lose|wait, wait|wait!|only home",
        "low": r"\bum+\b|i hope (that's|this is|it's) (okay|ok|fine)",
    },
    "sadness": {
        "high": r"can't deal|cannot deal|going wrong|completely lost|nothing ever|hopeless",
        "medium": r"\bsigh\b|hard time|rough (week|day|time)|what else to do|upset",
        "low": r"^\W*(oh|well)\.|appreciate the help",
    },
    "disgust": {
        "high": r"pathetic|a joke|disgrace|can't believe|cannot believe|disgust",
        "medium": r"sloppy|honestly|expected better|a mess|typical|^\W*figures\b|\bscam\b"
        r"|getting old|how convenient|oh (sure|brilliant)|great\. lovely|paying you for",
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


def threatens(text: str) -> bool:
    """Whether the user threatens to leave, complain or escalate, or asks for a supervisor."""
    return _THREAT.search(text) is not None


def ends(text: str) -> bool:
    """Whether the user ends the conversation (an LLM user's end marker)."""
    return any(marker in text for marker in _ENDS[:2])


def accepts(text: str) -> bool:
    """Whether the user accepts a refusal or an outcome (it neither presses nor ends)."""
    return not ends(text) and not presses(text)


_CORRECTS = re.compile(
    r"\b(that's|that is|it's|you've got|you have|you got) (wrong|not (it|right|mine|the one))\b|"
    r"\bwrong (one|order|date|item|room|card|account|flight|address|day|time)\b|"
    r"\bthe other (one|order|booking|reservation|card|line|policy|account|stay)\b|"
    r"\bi meant\b(?! to (?!say\b))|\bi (said|asked for)\b|\bnot the \w+,|\bnot (that|this) one\b|"
    r"\bthat's (the|my) \w+ (one|order|booking|stay)\b|\bactually,? (it's|it was|i)\b|"
    r"\b(not|n't) (that|my|the right) (card|order|reservation|address|line|one)\b|"
    r"\bnot \$?[\w.-]+(\s\w+)?\.\s*$|, not [\w$.' -]+[.!]|^\W*not [\w$. -]+, |"
    r"\bi (wanted|mistyped|told you)\b|\bwait, that\b|\bthe wrong\b",
    re.IGNORECASE,
)


def corrects(text: str) -> bool:
    """Whether the user says the agent got something wrong ("That's wrong, it's the other one")."""
    return _CORRECTS.search(text) is not None
