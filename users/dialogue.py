"""Rule-based reading of an agent's text: what it asks, whether it confirms, completes or cares.

The conventions (shared by the scripted user and the scripted agents, which phrase their texts
so that these rules read them right):

- The text is split into sentences. A sentence is a *request* when it has a question mark or a
  request cue ("please provide", "let me know", "may I have" …).
- A request naming a keyword of a known-info slot asks for that slot (keywords win over every
  other reading, so "could you confirm your email?" asks for the email).
- Otherwise a request with a confirmation cue ("confirm", "proceed", "shall I", "go ahead" …) is a
  confirmation question; with a completion cue ("anything else" …) it closes the request; naming
  something the user does not know it is an unknown question; anything else is unclear.
- Completion cues also count outside questions ("have a great day!"); progress cues ("has been",
  "successfully" …) and transfer cues ("transfer you") are read in statements.
- Acknowledgement cues ("sorry", "I understand" …) anywhere make the text empathetic.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import msgspec

from simulator.domain import InfoSlot

REQUEST_CUES = (
    "please provide",
    "please share",
    "please tell",
    "please give",
    "please send",
    "please confirm",
    "please let me know",
    "let me know",
    "i need your",
    "i'll need your",
    "i will need your",
    "may i have",
    "can i have",
    "could i have",
    "could i get",
    "can i get",
)
CONFIRM_CUES = (
    "confirm",
    "proceed",
    "shall i",
    "should i",
    "go ahead",
    "would you like me to",
    "do you want me to",
    "is that correct",
    "is this correct",
    "is that right",
    "yes/no",
)
COMPLETION_CUES = (
    "anything else",
    "something else",
    "else i can help",
    "else can i help",
    "have a great day",
    "have a nice day",
    "goodbye",
)
ACK_CUES = (
    "sorry",
    "apolog",
    "i understand",
    "i hear you",
    "i can see",
    "i can imagine",
    "frustrat",
    "thank you for your patience",
    "here to help",
    "that must",
    "no worries",
    "happy to help",
    "glad to help",
)
PROGRESS_CUES = (
    "has been",
    "have been",
    "successfully",
    "is now",
    "are now",
    "completed",
    "processed",
    "all done",
    "i found",
    "i've found",
    "i have found",
)
TRANSFER_CUES = ("transfer you", "transferring you", "human agent", "human representative")

_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")
_WORD = re.compile(r"[a-z0-9]+")


def sentences(text: str) -> list[str]:
    """The non-empty sentences of ``text``, lower-cased."""
    return [s.strip().lower() for s in _SPLIT.split(text) if s.strip()]


def has_cue(sentence: str, cues: Sequence[str]) -> bool:
    """Whether ``sentence`` (lower-case) contains one of ``cues``."""
    return any(cue in sentence for cue in cues)


def is_request(sentence: str) -> bool:
    """Whether a sentence asks the user something."""
    return "?" in sentence or has_cue(sentence, REQUEST_CUES)


@functools.lru_cache(maxsize=4096)
def _pattern(keyword: str) -> re.Pattern[str]:
    return re.compile(r"(?<![a-z0-9])" + re.escape(keyword.lower().strip()))


def mentions(sentence: str, keyword: str) -> bool:
    """Whether ``keyword`` starts a word of ``sentence`` (case-insensitive, plural-tolerant)."""
    return _pattern(keyword).search(sentence) is not None


def asked_slots(sentence: str, slots: Sequence[InfoSlot]) -> list[str]:
    """Names of the slots a request sentence names, in slot order.

    A keyword right after another slot's keyword is that slot's head noun, not a question of its
    own: "your email address" asks for the email, not for an address.
    """
    spans = [
        (m.start(), m.end(), slot.name)
        for slot in slots
        for keyword in slot.keywords
        for m in _pattern(keyword).finditer(sentence)
    ]
    named: set[str] = set()
    for start, _end, name in spans:
        if not any(
            other != name and end <= start and not sentence[end:start].strip()
            for _s, end, other in spans
        ):
            named.add(name)
    return [slot.name for slot in slots if slot.name in named]


def _names_unknown(sentence: str, item: str) -> bool:
    item = item.lower()
    if item in sentence:
        return True
    words = [w for w in _WORD.findall(item) if len(w) >= 4]
    return bool(words) and all(mentions(sentence, w) for w in words)


class AgentActs(msgspec.Struct):
    """What one agent text does, as the scripted user reads it."""

    asked: list[str] = []
    confirmation: bool = False
    completion: bool = False
    transfer: bool = False
    acknowledged: bool = False
    progress: bool = False
    unknown: list[str] = []
    unclear: int = 0

    @property
    def substantive(self) -> bool:
        """Whether the text moves the conversation (asks, confirms, reports, ends or hands off)."""
        return bool(
            self.asked
            or self.confirmation
            or self.completion
            or self.transfer
            or self.progress
            or self.unknown
            or self.unclear
        )


def read_agent_text(
    text: str, slots: Sequence[InfoSlot], unknown_info: Sequence[str] = ()
) -> AgentActs:
    """Read one agent text against the user's known slots and unknown items."""
    acts = AgentActs()
    lowered = text.lower()
    acts.acknowledged = has_cue(lowered, ACK_CUES)
    for sentence in sentences(text):
        if has_cue(sentence, TRANSFER_CUES):
            acts.transfer = True
        if has_cue(sentence, COMPLETION_CUES):
            acts.completion = True
            continue
        if not is_request(sentence):
            acts.progress = acts.progress or has_cue(sentence, PROGRESS_CUES)
            continue
        matched = asked_slots(sentence, slots)
        if matched:
            acts.asked.extend(n for n in matched if n not in acts.asked)
        elif has_cue(sentence, CONFIRM_CUES):
            acts.confirmation = True
        else:
            items = [i for i in unknown_info if _names_unknown(sentence, i)]
            if items:
                acts.unknown.extend(i for i in items if i not in acts.unknown)
            elif not acts.transfer:
                acts.unclear += 1
    return acts
