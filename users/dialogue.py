"""Rule-based reading of an agent's text: what it asks, whether it confirms, completes or cares.

The conventions (shared by the scripted user and the scripted agents, which phrase their texts
so that these rules read them right):

- The text is split into sentences. A sentence is a *request* when it has a question mark or a
  request cue ("please provide", "let me know", "may I have" …).
- Device steps (the user's own tools) are read by meaning over the whole text
  (``users.device_steps``: "pop the SIM tray out and reseat the card", "what do you see at the
  top of your screen?"); a sentence that adds a step is read for nothing else.
- A request naming a keyword of a known-info slot asks for that slot (keywords win over every
  other reading, so "could you confirm your email?" asks for the email); with a choice cue
  ("which one" …) it asks the user to choose among records the agent found, which its tools
  could not have done for it.
- Otherwise a request with a confirmation cue ("confirm", "proceed", "shall I", "go ahead" …) is a
  confirmation question; with a completion cue ("anything else" …) it closes the request; naming
  something the user does not know it is an unknown question; anything else is unclear.
- Completion cues also count outside questions ("have a great day!"); progress cues ("has been",
  "successfully" …) and transfer cues ("transfer you") are read in statements.
- A progress statement is a *claim* (``done`` when it says an action was carried out: "has
  been", "successfully" …, rather than "I found"); the text *backs* its claims when it states a
  detail anywhere (a digit, an id such as ``#W1`` or a code in capitals such as ``RLZUYL``, an
  amount such as ``$5``).
- A statement with a delay cue ("let me check", "one moment" …) announces a lookup; since a text
  the user sees ends the agent's turn, an announced lookup was not done in that turn.
- Acknowledgement cues ("sorry", "I understand" …) anywhere make the text empathetic.
- Refusal cues ("cannot", "can't", "unable to", "not able to", "not eligible", "non-refundable",
  "policy does not allow" …) in any sentence make the text a *refusal*: the agent turns down
  what the user asked (a user with a demand insists on it, ``users.pushback``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import msgspec

from tau_sim.simulator.world import InfoSlot, UserStep
from tau_sim.users.device_steps import SENTENCE_BREAK, steps_by_sentence, topics_of

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
DONE_CUES = (
    "has been",
    "have been",
    "successfully",
    "is now",
    "are now",
    "completed",
    "processed",
    "all done",
)
PROGRESS_CUES = (*DONE_CUES, "i found", "i've found", "i have found")
DELAY_CUES = (
    "let me check",
    "let me look",
    "let me pull",
    "let me verify",
    "let me find",
    "i'll check",
    "i will check",
    "i'll look",
    "i will look",
    "i'm checking",
    "i am checking",
    "one moment",
    "just a moment",
    "give me a moment",
    "bear with me",
    "please wait",
)
REFUSAL_CUES = (
    "cannot",
    "can't",
    "can not",
    "unable to",
    "not able to",
    "won't be able",
    "will not be able",
    "not eligible",
    "ineligible",
    "non-refundable",
    "nonrefundable",
    "not refundable",
    "policy does not allow",
    "policy doesn't allow",
    "not allowed",
    "not permitted",
    "not possible",
    "do not qualify",
    "does not qualify",
    "doesn't qualify",
    "don't qualify",
    "i'm afraid",
    "i am afraid",
)
CHOICE_CUES = ("which one", "which of")
"""A request naming a slot with one of these asks the user to choose among records the agent
found (which card, which line): not a question its tools could have answered."""
TRANSFER_CUES = ("transfer you", "transferring you", "human agent", "human representative")

_WORD = re.compile(r"[a-z0-9]+")
_DETAIL = re.compile(r"[0-9#$€£]|\b[A-Z]{2}[A-Z0-9]{3,}\b")


def sentences(text: str) -> list[str]:
    """The non-empty sentences of ``text``, lower-cased."""
    return [s.strip().lower() for s in SENTENCE_BREAK.split(text) if s.strip()]


def has_cue(sentence: str, cues: Sequence[str]) -> bool:
    """Whether ``sentence`` (lower-case) contains one of ``cues``."""
    return any(cue in sentence for cue in cues)


def is_request(sentence: str) -> bool:
    """Whether a sentence asks the user something."""
    return "?" in sentence or has_cue(sentence, REQUEST_CUES)


@functools.lru_cache(maxsize=4096)
def _pattern(keyword: str) -> re.Pattern[str]:
    """Matches ``keyword`` at the start of a word (lower-case text, plural-tolerant)."""
    return re.compile(r"(?<![a-z0-9])" + re.escape(keyword.lower().strip()))


def _slot_patterns(slots: Sequence[InfoSlot]) -> list[tuple[re.Pattern[str], str]]:
    return [(_pattern(keyword), slot.name) for slot in slots for keyword in slot.keywords]


def _asked(sentence: str, patterns: Sequence[tuple[re.Pattern[str], str]]) -> set[str]:
    """Names of the slots a request sentence names (``patterns``: keyword pattern, slot name).

    A keyword right after another slot's keyword is that slot's head noun, not a question of its
    own: "your email address" asks for the email, not for an address; nor is a keyword inside a
    longer keyword of another slot ("damage" in "how the damage happened").
    """
    spans = [(m.start(), m.end(), name) for p, name in patterns for m in p.finditer(sentence)]
    named: set[str] = set()
    for start, end, name in spans:
        if not any(
            other != name
            and (
                (e <= start and not sentence[e:start].strip())
                or (s <= start and end <= e and e - s > end - start)
            )
            for s, e, other in spans
        ):
            named.add(name)
    return named


def _unknown_patterns(item: str) -> list[re.Pattern[str]]:
    """Patterns of the long words of an unknown item; a request naming them all names the item."""
    return [_pattern(w) for w in _WORD.findall(item.lower()) if len(w) >= 4]


def _names_unknown(sentence: str, item: str, words: Sequence[re.Pattern[str]]) -> bool:
    return item in sentence or (bool(words) and all(w.search(sentence) for w in words))


class AgentActs(msgspec.Struct):
    """What one agent text does, as the scripted user reads it."""

    asked: list[str] = []
    chosen: list[str] = []
    confirmation: bool = False
    completion: bool = False
    transfer: bool = False
    acknowledged: bool = False
    progress: bool = False
    unknown: list[str] = []
    unclear: int = 0
    announced: bool = False
    done: bool = False
    detailed: bool = False
    steps: list[str] = []
    refused: bool = False

    @property
    def unbacked(self) -> bool:
        """Whether the text claims progress without stating any detail to back it."""
        return self.progress and not self.detailed

    @property
    def substantive(self) -> bool:
        """Whether the text moves the conversation (asks, confirms, reports, ends or hands off)."""
        return bool(
            self.asked
            or self.steps
            or self.confirmation
            or self.completion
            or self.transfer
            or self.progress
            or self.unknown
            or self.unclear
        )


class AgentTextReader:
    """Reads agent texts against one user's known slots and unknown items.

    The keyword patterns and the words of the unknown items are prepared once per conversation.
    ``steps`` are the user's own tools (``simulator.world.usersteps``), read from requests first.
    """

    def __init__(
        self,
        slots: Sequence[InfoSlot],
        unknown_info: Sequence[str] = (),
        steps: Sequence[UserStep] = (),
    ) -> None:
        self.order = [slot.name for slot in slots]
        self.patterns = _slot_patterns(slots)
        self.unknown = [(item, item.lower(), _unknown_patterns(item)) for item in unknown_info]
        self.topics = topics_of(steps)

    def read(self, text: str) -> AgentActs:
        """What one agent text does."""
        acts = AgentActs()
        acts.acknowledged = has_cue(text.lower(), ACK_CUES)
        acts.detailed = bool(_DETAIL.search(text))
        added = steps_by_sentence(text, self.topics) if self.topics else []
        acts.steps = [step for steps in added for step in steps]
        for n, sentence in enumerate(sentences(text)):
            if added and added[n]:  # a sentence that adds a device step is read for nothing else
                continue
            acts.refused = acts.refused or has_cue(sentence, REFUSAL_CUES)
            if has_cue(sentence, TRANSFER_CUES):
                acts.transfer = True
            if has_cue(sentence, COMPLETION_CUES):
                acts.completion = True
                continue
            if not is_request(sentence):
                acts.progress = acts.progress or has_cue(sentence, PROGRESS_CUES)
                acts.done = acts.done or has_cue(sentence, DONE_CUES)
                acts.announced = acts.announced or has_cue(sentence, DELAY_CUES)
                continue
            named = _asked(sentence, self.patterns)
            if named:
                acts.asked.extend(n for n in self.order if n in named and n not in acts.asked)
                if has_cue(sentence, CHOICE_CUES):
                    acts.chosen.extend(n for n in named if n not in acts.chosen)
            elif has_cue(sentence, CONFIRM_CUES):
                acts.confirmation = True
            else:
                items = [
                    i for i, low, words in self.unknown if _names_unknown(sentence, low, words)
                ]
                if items:
                    acts.unknown.extend(i for i in items if i not in acts.unknown)
                elif not acts.transfer and not acts.steps:  # "What do you see?" after a step
                    acts.unclear += 1
        return acts
