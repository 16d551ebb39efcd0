"""The rule reader: what an agent's text does, read sentence by sentence by its wording.

The text is cut into sentences (markdown marks and list bullets dropped; the items of a list
that a request introduces, "one of the following:", are requests too). Every sentence is read
for the acts that need no question (``users.cues``): a refusal, something not found, a
transfer, a closing or farewell, an action reported done, a lookup made or announced, care
shown. A sentence that asks (a question, a request, an imperative) is read for what it asks:

- the user's own tools it asks for, by meaning (``users.stepsense``); a sentence that asks for
  one is read for nothing else; the items of a list of what was done ("Here's what we did: …")
  and thanks for steps done ("Thanks for doing those steps (…)") ask for nothing;
- the user's slots it names, by keyword or kind (``users.slotsense``); offered as
  alternatives ("your email, or your full name and ZIP code") every group is asked and the
  groups are kept apart, and an alternative the user does not hold is left out; with a choice
  ("which of your two orders") the slot is also *chosen*;
- otherwise the user's go-ahead for an action, an unknown item the user does not hold, or a
  question nobody could place (*unclear*).

A go-ahead question that names a slot in its summary ("Shall I ship it to your new address?")
confirms and asks nothing, unless it offers a choice. The text *backs* its claims when it states
a detail anywhere (a digit, an id such as ``#W1``, a code in capitals such as ``RLZUYL``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from tau_sim.simulator.core import Usage
from tau_sim.simulator.world import InfoSlot, UserStep
from tau_sim.users import cues
from tau_sim.users.perception import AgentActs
from tau_sim.users.slotsense import SlotSense, parts
from tau_sim.users.stepsense import AGENT_DID, ASKING, StepReader

__all__ = ["AgentActs", "AgentTextReader", "sentences"]

_MARKS = re.compile(r"\*\*|__|`|^#+\s*|^>\s*", re.M)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_ABBREVIATION = re.compile(
    r"\b(e\.g|i\.e|dr|mr|mrs|ms|st|vs|approx|etc|no(?=\.\s+[#\d]))\.(?=\s)", re.I
)
_SPLIT = re.compile(r"(?<=[.!?])[\"')\]]*\s+")
_WORD = re.compile(r"[a-z0-9]+")
_DETAIL = re.compile(r"[0-9#$€£]|\b[A-Z]{2}[A-Z0-9]{3,}\b")
_LIST_LEAD = re.compile(r"(?:one|any|either|both|each) of (?:the following|these)|following:$")
_OR = re.compile(r"\bor\b|\balternatively\b|\binstead\b")
_TYPOGRAPHY = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u203a": ">"}
)
"""Curly quotes, en dashes and the arrows of menu paths, as plain characters."""


class Sentence:
    """One sentence of an agent text: its lower-case words and how it reads."""

    __slots__ = ("group", "lead", "low", "question", "recap", "request")

    def __init__(self, low: str, inherited: bool, group: int, recap: bool = False) -> None:
        self.low = low
        self.recap = recap  # an item of a list of what was done ("Here's what we did: …")
        self.question = "?" in low
        self.lead = low.endswith(":")
        self.request = (
            inherited or self.question or bool(cues.REQUEST.search(low) or _WHICH.match(low))
        )
        self.group = group


def sentences(text: str) -> list[str]:
    """The non-empty sentences of ``text``, lower-cased (markdown marks and bullets dropped)."""
    return [s.low for s in _sentences(text)]


def _sentences(text: str) -> list[Sentence]:
    """The sentences of ``text``; the items of a list a request introduces are requests."""
    text = _ABBREVIATION.sub(r"\1", _MARKS.sub("", text.translate(_TYPOGRAPHY)))
    found: list[Sentence] = []
    inherited = recap = False
    group = 0
    for line in text.split("\n"):
        if line.lstrip().startswith("|"):
            continue
        bullet = bool(_BULLET.match(line))
        line = _BULLET.sub("", line).strip()
        if not line:
            continue
        if not bullet:
            inherited = recap = False
        elif inherited:
            group += 1
        for part in _SPLIT.split(line):
            low = part.strip().lower()
            if low:
                found.append(Sentence(low, inherited and bullet, group if bullet else 0, recap))
        last = found[-1] if found else None
        if last is not None and last.lead and not bullet:
            recap = not last.request and bool(AGENT_DID.search(last.low))
        if last is not None and last.lead and last.request:
            inherited = True
            group = 0 if not _LIST_LEAD.search(last.low) else group
    return found


def _unknown_patterns(item: str) -> list[re.Pattern[str]]:
    """The words of an unknown item, in order and close together ("user id", "the user's ID")."""
    words = [w.removesuffix("s") if w == "ids" else w for w in _WORD.findall(item.lower())]
    gap = r"\w*\W+(?:\w+\W+){0,2}"
    return [re.compile(r"(?<![a-z0-9])" + gap.join(re.escape(w) for w in words))] if words else []


def _names_unknown(sentence: str, item: str, words: Sequence[re.Pattern[str]]) -> bool:
    return item in sentence or any(w.search(sentence) for w in words)


_IDS = re.compile(
    r"\b(?:customer|user|client|profile|item|product|property|variant|restaurant|slot|provider"
    r"|pharmacy|premise|meter|tariff|bill|charge|line|card|transaction|account|payment method)"
    r" ids?\b"
)
"""Ids a user never holds (the records' keys in the agent's database)."""


_SURE_OF = re.compile(r"\b(?:are|is) (?:you|it) (?:sure|certain) (?:of|about)\b")
"""A yes-no question about a slot's value ("are you sure of the code?"): it asks the slot again."""
_VALUE = re.compile(r"\s*(?:[:=]|is|of)?\s*[#(]?[\w.@+-]*[\d_@][\w.@+-]*")
"""A value said right after an item's name ("user id diego_khan_4232", "card ID: 4411")."""


def _stated(sentence: str, item: str, words: Sequence[re.Pattern[str]]) -> bool:
    """Whether every mention of an unknown item in the sentence comes with its value."""
    spans = [m.end() for w in words for m in w.finditer(sentence)]
    return bool(spans) and all(_VALUE.match(sentence, end) for end in spans)


def _held(phrase: str, found: list[tuple[int, str]]) -> bool:
    """Whether an id phrase is one of the slots found (its first word names the slot)."""
    head = phrase.split()[0]
    return any(head in name for _, name in found)


def _literal(sentence: str, item: str) -> bool:
    """Whether the sentence names an unknown item as such ("the item ID"): no slot's then."""
    low = item.lower()
    return low in sentence or low.removesuffix("s") in sentence


def _done(sentence: str, pattern: re.Pattern[str]) -> bool:
    """Whether ``pattern`` reports an action done (a match not under a condition or negation)."""
    for match in pattern.finditer(sentence):
        start = max(sentence.rfind(b, 0, match.start()) for b in (",", ";", ":", " — ", " - "))
        clause = f"{sentence[start + 1 : match.start()].strip()} {match.group(0)}".strip()
        if not cues.DONE_BLOCKS.search(clause):
            return True
    return False


class AgentTextReader:
    """The rule reader of one user's conversation: its slots, unknown items and own tools.

    The slot and step patterns and the words of the unknown items are prepared once per
    conversation; ``read`` is the rules, ``perceive`` the ``Reader`` seam over them.
    """

    def __init__(
        self,
        slots: Sequence[InfoSlot],
        unknown_info: Sequence[str] = (),
        steps: Sequence[UserStep] = (),
    ) -> None:
        self.order = [slot.name for slot in slots]
        self.slots = SlotSense(slots)
        self.unknown = [(item, item.lower(), _unknown_patterns(item)) for item in unknown_info]
        self.steps = StepReader(steps)

    async def perceive(self, text: str) -> AgentActs:
        """The acts of ``text`` (the ``Reader`` seam)."""
        return self.read(text)

    def spent(self) -> Usage | None:
        """Rules cost no model."""
        return None

    def read(self, text: str) -> AgentActs:
        """What one agent text does."""
        acts = AgentActs()
        acts.detailed = bool(_DETAIL.search(text))
        self.steps.start()
        parts = _sentences(text)
        groups: dict[int, list[str]] = {}
        self.text = text
        self.lows = [p.low for p in parts]

        for sentence in parts:
            self._statement(sentence.low, acts)
            recap = sentence.recap or _thanks_for_steps(sentence.low)
            wanted = (
                []
                if recap or _agent_acts(sentence)
                else self.steps.read(sentence.low, sentence.question)
            )
            acts.steps.extend(n for n in wanted if n not in acts.steps)
            if sentence.request and not recap and not _handoff(sentence.low):
                self._request(sentence, acts, groups, quiet=bool(wanted))
        if acts.steps:
            acts.unclear = 0
        if len([g for g in groups.values() if g]) >= 2:
            acts.alternatives = [g for _, g in sorted(groups.items()) if g]
        acts.asked = [name for name in self.order if name in acts.asked]
        acts.progress = acts.progress or acts.done
        return acts

    def before(self, low: str) -> str:
        """The text up to sentence ``low``, that sentence last (where a choice names its record)."""
        index = self.lows.index(low)
        return " ".join(self.lows[: index + 1])

    def _statement(self, low: str, acts: AgentActs) -> None:
        """The acts a sentence carries whether or not it asks."""
        if cues.ACKNOWLEDGEMENT.search(low) and not cues.ACKNOWLEDGEMENT_BLOCKS.search(low):
            acts.acknowledged = True
        if cues.CONFIRM_STATEMENT.search(low):
            acts.confirmation = True
        not_found = bool(cues.NOT_FOUND.search(low))
        acts.not_found = acts.not_found or not_found
        handoff = _handoff(low)
        acts.transfer = acts.transfer or handoff
        refused = (
            not (not_found or handoff)
            and bool(cues.REFUSAL.search(low))
            and not cues.REFUSAL_BLOCKS.search(low)
        )
        acts.refused = acts.refused or refused
        if cues.CLOSING.search(low) or cues.FAREWELL.search(low):
            acts.completion = True
        if "?" not in low and not handoff:
            if _done(low, cues.DONE) or (_done(low, cues.DONE_STATE) and not refused):
                acts.done = True
            acts.progress = acts.progress or bool(cues.LOOKUP.search(low))
            acts.announced = acts.announced or bool(cues.DELAY.search(low))

    def _request(
        self, sentence: Sentence, acts: AgentActs, groups: dict[int, list[str]], quiet: bool
    ) -> None:
        """What a sentence that asks asks for (``quiet``: it asks for steps; slots only then)."""
        low = sentence.low
        if cues.CONFIRM_STATEMENT.search(low):
            acts.confirmation = True
            return
        strong = sentence.question and _yes_no(low, cues.CONFIRMATION)
        weak = sentence.question and _yes_no(low, cues.OFFER)
        choice = bool(cues.CHOICE.search(low))
        picked = []
        if not quiet and cues.PICK.search(low) and not self.slots.named(low, questions=False):
            picked = self.slots.chosen(low, self.before(low))
        found = [(0, n) for n in picked] or self.slots.named(low)
        if not quiet and choice and sentence.question and not _choice_named(low, found):
            # "Which one do you want to cancel, and what's the reason?": each part asks
            chosen = self.slots.chosen(low, self.before(low))
            found += [(0, n) for n in chosen if n not in {m for _, m in found}]
        if found and strong and not choice and not _SURE_OF.search(low):
            found = []
        if not quiet and not strong:  # "Shall I unfreeze it so you can use it again?"
            others = [o for o in self.lows if o != low]
            again = self.slots.rechecked(low, others, self.text)
            found += [(0, n) for n in again if n not in {m for _, m in found}]
        items = [
            i
            for i, item, words in self.unknown
            if _names_unknown(low, item, words) and not _stated(low, item, words)
        ]
        if found and _OR.search(low):  # "your email, or your name and zip": say what it holds
            items = []
        else:
            if any(_literal(low, item) for item in items):
                found = []
            items += [
                m.group(0)
                for m in _IDS.finditer(low)
                if not _held(m.group(0), found) and not _VALUE.match(low, m.end())
            ]
        acts.unknown.extend(i for i in dict.fromkeys(items) if i not in acts.unknown)
        if _closing(low) and not found:
            return
        if found:
            names = [n for _, n in found]
            acts.asked.extend(n for n in names if n not in acts.asked)
            if choice:
                acts.chosen.extend(n for n in names if n not in acts.chosen)
            self._group(sentence, found, groups)
            return
        if quiet:
            return
        if strong or weak:
            acts.confirmation = True
            return
        asking = sentence.question or bool(cues.INFO_REQUEST.search(low) and not sentence.lead)
        if not items and asking and not acts.transfer and not _closing(low):
            acts.unclear += 1

    def _group(
        self, sentence: Sentence, found: list[tuple[int, str]], groups: dict[int, list[str]]
    ) -> None:
        """Note the alternatives a request offers: list items, or parts joined by "or"."""
        if sentence.group:
            groups.setdefault(sentence.group, []).extend(n for _, n in found)
            return
        cuts = [m.start() for m in _OR.finditer(sentence.low)]
        if not cuts:
            return
        bounds = [0, *cuts, len(sentence.low)]
        parts = [[n for p, n in found if lo <= p < hi] for lo, hi in itertools.pairwise(bounds)]
        parts = [p for p in parts if p]
        if len(parts) >= 2:
            base = 1000 * (len(groups) + 1)
            for i, part in enumerate(parts):
                groups[base + i] = part


def _choice_named(low: str, found: list[tuple[int, str]]) -> bool:
    """Whether the part of ``low`` that holds its choice ("which one…") names a slot."""
    match = cues.CHOICE.search(low)
    if match is None:
        return True
    return any(lo <= match.start() < hi and lo <= p < hi for lo, hi in parts(low) for p, _ in found)


_WHICH = re.compile(r"^which\b")
_WH = re.compile(
    r"^(?:\W*(?:and|so|ok|okay|great|also|now|then)\W+)*(?:which|what|where|when|how|who|why)\b"
)


def _yes_no(low: str, pattern: re.Pattern[str]) -> bool:
    """Whether ``pattern`` matches in a clause that is no wh-question ("which should I…?")."""
    for match in pattern.finditer(low):
        start = max(low.rfind(b, 0, match.start()) for b in ("— ", ", ", ": ", "; ", " - "))
        if _WH.match(low[start + 1 :].strip()) or _SUBORDINATE.search(low[: match.start()]):
            continue
        return True
    return False


_SUBORDINATE = re.compile(
    r"\b(?:before|once|after|when|so|so that|until|while) (?:i|we) (?:can |could )?$|\bto $"
)
"""What puts a go-ahead word in a clause of its own ("Before I proceed, …")."""


_OR = re.compile(r"\bor\b")
_BRACKETS = re.compile(r"\([^)]*\)")
_THANKS_FOR = re.compile(
    r"^(?:thanks|thank you)(?: so much| again| very much)? for (?:doing|trying|going through"
    r"|working through|checking|following|running|taking care of|your help with|your patience)"
)


def _thanks_for_steps(low: str) -> bool:
    """Whether a sentence thanks the user for steps done and asks nothing.

    "Thanks for doing those steps with me (restart the phone, …)" names steps, it does not ask
    for them; what it lists in brackets is not read for a request.
    """
    return bool(_THANKS_FOR.match(low)) and not ASKING.search(_BRACKETS.sub("", low))


def _agent_acts(sentence: Sentence) -> bool:
    """Whether a question asks the go-ahead for what the agent will do (no step of the user)."""
    return sentence.question and bool(cues.AGENT_ACTS.search(sentence.low))


def _handoff(low: str) -> bool:
    """Whether a sentence hands the user over (it asks nothing of its own then)."""
    return bool(cues.TRANSFER.search(low)) and not cues.TRANSFER_BLOCKS.search(low)


def _closing(low: str) -> bool:
    return bool(cues.CLOSING.search(low) or cues.FAREWELL.search(low))
