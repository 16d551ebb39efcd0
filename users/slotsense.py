"""Which of the user's slots an agent's request names, by its keywords and by the slot's kind.

A slot is named by the keywords of its hint (``SlotHint``: the task's words) and by what
people call its kind, found from the slot's name (``NOUNS``: an email, a name, a ZIP code, a
date of birth …). Where neither names any slot, a question may still ask for one by its kind
(``QUESTIONS``: "Which day would you like to fly?" asks the slot holding the date; "Where should
we send it?" the address). Two more readings need the whole text:

- a choice ("Which one is missing?") asks for the slot whose record the text names ("two
  cards on the account" -> the slot asked as "which card": its *head*);
- a request to check something again ("Could you read me the six characters again?") asks for
  the slot whose value the text quotes (a code shaped like the user's reservation code, an
  email address) or names.

The patterns of one user's slots are compiled once per conversation (``SlotSense``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from tau_sim.simulator.world import InfoSlot

_NAME = (
    r"full name",
    r"your (?:full |legal )?names?\b",
    r"first and last names?",
    r"first (?:name )?(?:and|&|\+) (?:your )?(?:last|surname|family)",
    r"names? (?:on|for|under) (?:the|your) (?:account|file|booking|reservation|profile|card"
    r"|policy)",
    r"who (?:i'm|i am|am i) (?:speaking|talking|chatting)",
    r"what's your name|what is your name|(?:what|which) name\b(?! of)",
    r"name (?:is|'s) (?:the|your) (?:account|booking|reservation|profile) (?:under|in)",
)
NOUNS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"email", (r"e-?mail",)),
    (r"first_name", (*_NAME, r"first name|given name|forename")),
    (r"last_name", (*_NAME, r"last name|surname|family name")),
    (r"^zip$", (r"zip|postal code|post ?code|postcode",)),
    (r"^dob$", (r"date of birth|birth ?date|birthday|\bdob\b|when (?:were|was) you born",)),
    (
        r"phone",
        (
            r"phone number|mobile number|cell(?:phone)? number|number to reach|contact number"
            r"|(?:best|good) number",
            r"number (?:of|for) (?:the|your|this) (?:phone|line|mobile)|(?:which"
            r"|what) (?:phone )?number",
        ),
    ),
    (r"^pin$", (r"\bpin\b|passcode|security code|four-digit code",)),
    (r"account_number", (r"account (?:number|no\b|#)",)),
    (r"address", (r"(?<!e-mail )(?<!email )address", r"mailing|street address")),
    (
        r"reason",
        (
            r"reason|\bwhy\b|what (?:made|prompted|went wrong)|what's (?:prompting|behind)"
            r"|prompting|what(?:'s| is| was| seems)(?: to be)? wrong"
            r"|wrong with (?:it|them|that|the \w+)\?",
            r"by mistake (?:\w+ ){0,3}or\b|\bor (?:do|did) you (?:\w+ )?(?:not|no longer) need",
        ),
    ),
    (
        r"new_item",
        (
            r"(?:swap|exchange|switch|change|replace)(?:ped|d)? (?:\w+ ){0,3}(?:for|to|into"
            r"|with)\b",
            r"(?:would you like|do you want|you'd like) instead|instead\?",
            r"in (?:its|their) place|(?:size|colou?r|style|model|version) (?:or|and|/)"
            r" (?:size|colou?r|style|model)",
        ),
    ),
    (
        r"specialty",
        (
            r"specialist|specialty|speciality",
            r"(?:what|which) (?:kind|type|sort) of (?:appointment|doctor|visit|care)",
        ),
    ),
    (r"trip_type", (r"one-?way|round[- ]?trip|return (?:trip|flight)|fly(?:ing)? back",)),
    (r"provider", (r"(?:particular|specific|preferred) (?:doctor|provider|physician)",)),
    (r"shipping", (r"shipp(?:ed|ing)|delivery (?:option|speed|method)|expedited",)),
    (r"pickup_location", (r"where (?:\w+ ){0,6}pick (?:\w+ ){0,3}up|pick-?up (?:location|point)",)),
    (r"^addon$", (r"add-?on|data pack|data package|extra data",)),
    (r"new_plan", (r"plan name|name of (?:the |your )?(?:insurance )?plan",)),
    (r"card_problem", (r"lost or stolen|stolen|damaged|what happened",)),
    (r"to_account", (r"go into|go to\?|into which|to which|receiving|destination account",)),
    (r"from_account", (r"come out of|out of which|from which|taken from",)),
    (
        r"passengers|guests",
        (
            r"how many (?:people|passengers|travell?ers|guests|adults|of you)",
            r"who(?:'s| is| will be) (?:travell?ing|flying|staying|coming)",
            r"just (?:be )?you\b|only you\b|(?:anyone|someone) (?:else )?(?:be )?(?:travell?ing"
            r"|flying|joining|coming|staying)|(?:travell?ing|flying|staying) (?:alone|solo)",
        ),
    ),
    (r"driver", (r"who(?:'ll| will) be driving|who(?:'s| is) (?:driving|going to drive)",)),
    (
        r"vehicle_class|car_class",
        (r"(?:size|type|kind|class|category) of (?:vehicle|car)|(?:vehicle|car) (?:size|type)",),
    ),
    (r"return_location", (r"drop (?:\w+ ){0,2}off\b|where (?:\w+ ){0,5}return (?:it|the car)",)),
    (
        r"^origin$",
        (
            r"departure (?:city|airport)"
            r"|(?:which|what) (?:city|airport) (?:\w+ ){0,4}(?:out of|from)\b",
            r"where (?:are|will) you (?:be )?(?:flying|leaving|departing|starting) from",
        ),
    ),
    (
        r"^destination$",
        (
            r"arrival (?:city|airport)|where (?:are|will) you (?:be )?(?:headed|going|flying to"
            r"|travell?ing to)|(?:fly|flying|travell?ing) to\?",
        ),
    ),
    (
        r"current_plan",
        (
            r"(?:(?:what|which) )?plan (?:are you|you're|you are) (?:currently |now )on"
            r"|currently on",
        ),
    ),
    (r"rate_plan", (r"(?:flexible|member|non-refundable|refundable|standard|prepaid) rate",)),
    (
        r"special_request",
        (
            r"anything (?:we|i) should know|special requests?|preferences?",
            r"(?:we|i|us) (?:should |to )?arrange|arrange (?:\w+ ){0,3}for (?:your|the) stay",
            r"(?:like|want) (?:\w+ )?noted|anything (?:else )?(?:to add|you'd like (?:noted"
            r"|added))",
        ),
    ),
    (
        r"^items$",
        (
            r"items? (?:\w+ ){0,5}(?:you'd|you would) like to (?:swap|exchange|return|change"
            r"|cancel)",
        ),
    ),
)
"""Slot-name pattern -> noun phrases of that kind (regular expressions over lower-case text)."""

QUESTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        r"address",
        (
            r"where (?:\w+ ){0,5}(?:send|ship|mail|deliver|post|go|arrive)",
            r"(?:ship|send|mail|deliver) (?:\w+ ){0,4}to\?",
        ),
    ),
    (
        r"(?:^|_)(?:dates?|time|travel_dates|loss_date|storm_date|return_date|new_dates|stay_dates"
        r"|rental_dates|new_time)$",
        (
            r"(?:which|what) (?:\w+ )?(?:day|date|dates|days|time|times|nights?)\b",
            r"\bwhen\b",
            r"\bdates?\b(?! of birth)",
        ),
    ),
    (
        r"amount|threshold|estimate|tip$",
        (r"how much|what (?:sum|figure|value)|what (?:will|would|did|does|do) (?:\w+ ){0,3}cost",),
    ),
    (
        r"^flight$",
        (
            r"(?:which|what) (?:day|date|time)|when would you like to fly|fly instead",
            r"new (?:date|day|time)|date (?:you'd|you would) like to (?:fly|travel)",
        ),
    ),
    (
        r"payment",
        (
            r"paypal|credit card|debit card|gift card|(?:different|another"
            r"|other) (?:payment )?(?:method"
            r"|card)",
            r"pay (?:with|for|by)|(?:which|what) (?:card|account) (?:\w+ ){0,4}"
            r"(?:pay|charge|use|refund|put|cover)",
            r"charge (?:it|that|this|the \w+) to|put (?:it|that|this) on|cover the difference",
            r"(?:which|what) card|how would you like to pay|how (?:would"
            r"|will) you (?:like to )?pay|how (?:will|would|are) you (?:be )?paying",
            r"where should (?:the|your|any) refund (?:go|be sent)|refund (?:go|be sent) to",
            r"how (?:should|shall|would|do|can) (?:we|i) (?:\w+ ){0,2}(?:charge|bill|cover)\b",
        ),
    ),
)
"""Slot-name pattern -> question phrases of that kind, read where no noun names a slot."""

HEADS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"time$|dates?$", ("opening", "slot", "time", "date", "day")),
    (r"appointment$", ("visit", "appointment")),
    (r"^stays?$|checked_out_stay", ("reservation", "stay", "booking")),
    (r"^rentals?$", ("rental", "booking", "reservation")),
    (r"^(?:other_)?trip$", ("trip", "reservation", "booking")),
    (r"rate_plan", ("rate",)),
    (r"^card$", ("card",)),
    (r"order", ("order",)),
    (r"polic", ("policy",)),
    (r"^account$", ("account", "property")),
    (r"flight", ("flight", "departure", "option")),
    (r"charge|transaction", ("charge", "transaction", "purchase")),
    (r"fee", ("fee",)),
    (r"plan$", ("plan",)),
    (r"line", ("line",)),
    (r"meter", ("meter",)),
    (r"^bill", ("bill",)),
    (r"tariff", ("tariff",)),
    (r"^claim$", ("claim",)),
    (r"medication", ("prescription", "medication")),
    (r"^items?$", ("item", "dish", "product")),
    (r"pharmacy", ("pharmacy",)),
    (r"provider", ("doctor", "provider")),
    (r"room_type", ("room",)),
)
"""Slot-name pattern -> the records a choice among which asks for that slot ("which card")."""

_OTHER_PERSON = re.compile(
    r"(?:their|his|her|each|every|the (?:driver|passenger|patient|guest)|(?<![\w'])(?!what's"
    r"|that's|it's|let's|here's|there's|who's|where's)[a-z]+'s) $"
)
_PERSONAL = frozenset({"first_name", "last_name", "dob", "email", "zip"})
_ADDRESS_PARTS = re.compile(r"\b(?:street|city|state|unit|apartment|apt|suite)\b")
_RECHECK = re.compile(
    r"double-check|check (?:the|it|that)|(?:the )?spelling|\bagain\b|once more|re-?enter"
    r"|another (?:\w+ )?(?:one|email|number|code)|digit by digit|read (?:it|me)"
    r"|spell (?:it|that)|(?:are|is) you sure (?:of|about) (?:the|that|your)"
)
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.]+")
_CODE = re.compile(r"\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9-]{5,}\b|\b\d{4,}\b")
_WHICH = re.compile(r"\b(?:which|what) (?:two |three |four |of the |of your )?([a-z-]+)")
_STEM = re.compile(r"(?<=ss|sh|ch)es$|(?<=[xz])es$|(?<=[^s])s$")


@functools.lru_cache(maxsize=4096)
def keyword(phrase: str) -> re.Pattern[str]:
    """Matches ``phrase`` at the start of a word (lower-case text, plural-tolerant)."""
    words = phrase.lower().split()
    # a verb inside the phrase may be inflected ("add to" in "added to", "pick up" in "picking up")
    inner = [
        re.escape(w) + (r"(?:s|es|ed|d|ing)?" if w.isalpha() and len(w) >= 3 else "")
        for w in words[:-1]
    ]
    return re.compile(
        r"(?<![a-z0-9])" + r"\s".join([*inner, re.escape(words[-1])]) if words else ""
    )


@functools.lru_cache(maxsize=1024)
def _kind(pattern: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w'])(?:" + pattern + ")")


def _stem(word: str) -> str:
    return _STEM.sub("", word) if len(word) > 4 else word


def _shape(value: str) -> str:
    return re.sub(r"[A-Z]", "A", re.sub(r"\d", "9", value))


def _kinds(
    slots: Sequence[InfoSlot], table: tuple[tuple[str, tuple[str, ...]], ...]
) -> list[tuple[re.Pattern[str], str]]:
    return [
        (_kind(p), slot.name)
        for slot in slots
        for name_pattern, phrases in table
        if re.search(name_pattern, slot.name)
        for p in phrases
    ]


class SlotSense:
    """The slot phrases of one user, compiled once; reads which slots a sentence names."""

    def __init__(self, slots: Sequence[InfoSlot]) -> None:
        self.nouns = [(keyword(k), s.name) for s in slots for k in s.keywords]
        self.nouns += _kinds(slots, NOUNS)
        self.questions = _kinds(slots, QUESTIONS)
        self.heads: dict[str, list[str]] = {}
        for slot in slots:
            for name_pattern, heads in HEADS:
                if re.search(name_pattern, slot.name):
                    for head in heads:
                        self.heads.setdefault(head, []).append(slot.name)
            for k in slot.keywords:
                for word in _WHICH.findall(k.lower()):
                    self.heads.setdefault(_stem(word), []).append(slot.name)
                words = k.lower().split()
                ids = ("id", "number", "code", "#") if slot.lookupable else ()
                if len(words) >= 2 and words[1] in (*ids, "you", "to"):
                    self.heads.setdefault(_stem(words[0]), []).append(slot.name)
        self.shapes = [
            (slot.name, _shape(slot.value))
            for slot in slots
            if _CODE.fullmatch(slot.value.strip("#"))
        ]
        self.emails = [s.name for s in slots if _EMAIL.fullmatch(s.value)]
        self.address = next((s.name for s in slots if "address" in s.name), "")

    def named(self, sentence: str, questions: bool = True) -> list[tuple[int, str]]:
        """(position, slot name) of the slots a request sentence names, first mention of each.

        A phrase right after another slot's phrase is that slot's head noun, not a question of
        its own: "your email address" asks for the email, not for an address; nor is a phrase
        inside a longer phrase of another slot ("damage" in "how the damage happened"), nor
        one that completes another ("photos of the damage"). A name or birth date of someone
        else ("their full name", "the driver's date of birth") is not the user's; the parts
        of an address ("the street, city and ZIP code") are the address's.
        """
        found: list[tuple[int, str]] = []
        for start, end in parts(sentence):
            part = sentence[start:end]
            named = _named(part, self.nouns) or self._which(part)
            if questions and not named:
                named = _named(part, self.questions)
            found += [(start + p, n) for p, n in named if n not in {m for _, m in found}]
        if self.address and len(_ADDRESS_PARTS.findall(sentence)) >= 2:
            found = [(p, n) for p, n in found if n != "zip"]
            if self.address not in {n for _, n in found}:
                found.append((len(sentence), self.address))
        return sorted(found)

    def _which(self, part: str) -> list[tuple[int, str]]:
        """A "which X" question that names no slot asks for the slot whose record X is."""
        for match in _WHICH.finditer(part):
            names = self.heads.get(_stem(match.group(1)), [])
            if names:
                return [(match.start(), names[0])]
        return []

    def chosen(self, sentence: str, text: str) -> list[str]:
        """The slot a choice question asks for, by the record it names.

        That is the record the question names ("which of the two cards?"), else the last one
        the text before it names ("two cards … Which one?").
        """
        words = [_stem(w) for w in re.findall(r"[a-z-]+", sentence)]
        words = [_stem(w) for w in re.findall(r"[a-z-]+", text)] + words
        for word in reversed(words):
            if word in self.heads:
                return self.heads[word][:1]
        return []

    def rechecked(self, sentence: str, others: Sequence[str], original: str) -> list[str]:
        """The slot a request to check again asks for: the one the text quotes or names."""
        if not _RECHECK.search(sentence):
            return []
        if _EMAIL.search(original) and self.emails:
            return self.emails[:1]
        for code in _CODE.findall(original):
            for name, shape in self.shapes:
                if _shape(code.strip("#")) == shape or (
                    not code.isdigit()
                    and "A" in shape
                    and "9" in shape
                    and abs(len(code) - len(shape)) <= 1
                    and not shape.replace("9", "").replace("A", "")
                ):
                    return [name]
        for other in others:
            found = _named(other, self.nouns)
            if found:
                return [found[0][1]]
        for other in others:
            picked = self.chosen(other, other)
            if picked:
                return picked
        return []


_PART = re.compile(
    r", and (?=(?:about |roughly |approximately |also |then )?(?:is|are|was|were|what|which"
    r"|where|when|how|who|will|do|does|did|can|could|would|should|may|shall)\b)|\? and "
    r"|, or (?=(?:is|are|was|what|which|where|when|how)\b)"
    r"|; |, (?=(?:what|which|where|when|how)\b)"
    r"|(?<=\w) and (?=(?:where|when|which|how|who) (?:will|would|should|shall|do|does|did|is|are"
    r"|can|could)\b)"
)


def parts(sentence: str) -> list[tuple[int, int]]:
    """(start, end) of the questions one sentence joins ("…, and was anyone hurt?")."""
    bounds = [0]
    for cut in _PART.finditer(sentence):
        bounds.extend((cut.start(), cut.end()))
    bounds.append(len(sentence))
    return [(bounds[i], bounds[i + 1]) for i in range(0, len(bounds), 2)]


_OF_EACH = re.compile(r"\b[a-z]+ of (?:each|every|all|both) (?:the |your )?$")
_LED = re.compile(r"(?:into|to|from|for|with|on|in) ")
"""A phrase led by a preposition ("which account into which?") is not the head noun of the
phrase before it ("your email address")."""
_COMPLEMENT = re.compile(r"\w* of (?:the |your |this |that )?")
_EMAIL_ELSEWHERE = re.compile(r"(?:confirmation|by|via|an|receipt|booking) $")


def _named(sentence: str, patterns: Sequence[tuple[re.Pattern[str], str]]) -> list[tuple[int, str]]:
    spans = [(m.start(), m.end(), name) for p, name in patterns for m in p.finditer(sentence)]
    found: dict[str, int] = {}
    for start, end, name in spans:
        before = sentence[max(0, start - 24) : start]
        if name in _PERSONAL and _OTHER_PERSON.search(before):
            continue
        if name == "email" and _EMAIL_ELSEWHERE.search(before):
            continue
        if before.endswith("per "):  # a unit ("$30 per passenger"), not a question
            continue
        if _OF_EACH.search(before):  # "the passport number of each traveller" asks the number
            continue
        if any(
            other != name
            and (
                (e <= start and not sentence[e:start].strip() and not _LED.match(sentence, start))
                or (s <= start and end <= e and e - s > end - start)
                or (e <= start and _COMPLEMENT.fullmatch(sentence[e:start]) is not None)
            )
            for s, e, other in spans
        ):
            continue
        if name not in found or start < found[name]:
            found[name] = start
    return sorted((position, name) for name, position in found.items())
