"""Which of the user's slots an agent's request names, by its keywords and by the slot's kind.

A slot is named by the keywords of its hint (``SlotHint``: the task's words) and by what
people call its kind, found from the slot's name: an email, a name, a ZIP code, a date, an
address, a reason, an amount … ("Which day would you like to fly?" names the slot holding the
date; "Where should we send it?" the address). The patterns of one user's slots are compiled
once per conversation.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from tau_sim.simulator.world import InfoSlot

_NAME = (
    r"full name",
    r"(?:your|the|their|account holder's|cardholder's|patient's) (?:full |legal )?names?\b(?! of)",
    r"first and last names?",
    r"first (?:name )?(?:and|&|\+) (?:your )?(?:last|surname|family)",
    r"names? (?:on|for|under) (?:the|your) (?:account|file|booking|reservation|profile|card|policy)",
    r"who (?:i'm|i am|am i) (?:speaking|talking|chatting)",
    r"what's your name|what is your name|your name\b",
)
KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"email", (r"e-?mail",)),
    (r"first_name", (*_NAME, r"first name|given name|forename")),
    (r"last_name", (*_NAME, r"last name|surname|family name")),
    (r"^zip$", (r"zip|postal code|post ?code|postcode",)),
    (r"^dob$", (r"date of birth|birth ?date|birthday|\bdob\b|when (?:were|was) (?:you|she|he) born",)),
    (r"phone", (
        r"phone number|mobile number|cell(?:phone)? number|number to reach|contact number"
        r"|(?:best|good) number",
        r"number (?:of|for) (?:the|your|this) (?:phone|line|mobile)|(?:which|what) (?:phone )?number",
    )),
    (r"^pin$", (r"\bpin\b|passcode|security code|four-digit",)),
    (r"account_number", (r"account (?:number|no\b|#)",)),
    (r"address", (
        r"(?<!e-mail )(?<!email )address",
        r"where (?:\w+ ){0,4}(?:send|ship|mail|deliver|post)",
        r"(?:ship|send|mail|deliver) (?:\w+ ){0,4}to\?|street|mailing",
    )),
    (r"reason", (r"reason|\bwhy\b|what (?:made|prompted|went wrong|happened)|what's wrong",)),
    (r"(?:^|_)(?:dates?|time|travel_dates|loss_date|storm_date|return_date|new_dates|stay_dates"
     r"|rental_dates|new_time)$", (
        r"(?:which|what) (?:\w+ )?(?:day|date|dates|days|time|times)\b",
        r"\bwhen\b",
        r"how long",
        r"check-?in|check-?out",
        r"(?<!birth )(?<!of )\bdates?\b",
    )),
    (r"amount|threshold|estimate|tip$", (r"how much|amount|what (?:sum|figure|value)",)),
    (r"payment", (
        r"payment method|pay (?:with|for|by)|(?:which|what) (?:card|account) (?:\w+ ){0,4}"
        r"(?:pay|charge|use|refund|put|cover)",
        r"charge (?:it|that|this|the \w+) to|put (?:it|that|this) on|cover the difference",
        r"(?:refund|money) (?:\w+ ){0,3}(?:go|sent|back) to",
        r"(?:which|what) card|how would you like to pay|how (?:would|will) you (?:like to )?pay",
    )),
    (r"bags", (r"how many (?:\w+ )?(?:checked )?bags|checked bags?|luggage|suitcases?",)),
    (r"cabin", (r"cabin|class of (?:service|travel)|economy|business class",)),
    (r"insurance", (r"insurance|travel cover|trip protection",)),
    (r"passengers|guests", (r"how many (?:people|passengers|travellers|travelers|guests)"
                            r"|who (?:will be|is) (?:travelling|traveling|staying)",)),
    (r"trip_type", (r"one-?way|round[- ]trip|return trip",)),
)
"""Slot-name pattern -> phrases of that kind (regular expressions over lower-case text)."""


@functools.lru_cache(maxsize=4096)
def keyword(phrase: str) -> re.Pattern[str]:
    """Matches ``phrase`` at the start of a word (lower-case text, plural-tolerant)."""
    return re.compile(r"(?<![a-z0-9])" + re.escape(phrase.lower().strip()))


@functools.lru_cache(maxsize=1024)
def _kind(pattern: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w'])(?:" + pattern + ")")


def slot_patterns(slots: Sequence[InfoSlot]) -> list[tuple[re.Pattern[str], str]]:
    """(pattern, slot name) for every keyword and kind phrase of ``slots``."""
    patterns = [(keyword(k), slot.name) for slot in slots for k in slot.keywords]
    for slot in slots:
        for name_pattern, phrases in KINDS:
            if re.search(name_pattern, slot.name):
                patterns.extend((_kind(p), slot.name) for p in phrases)
    return patterns


def named(sentence: str, patterns: Sequence[tuple[re.Pattern[str], str]]) -> list[tuple[int, str]]:
    """(position, slot name) of the slots a request sentence names, first mention of each.

    A phrase right after another slot's phrase is that slot's head noun, not a question of its
    own: "your email address" asks for the email, not for an address; nor is a phrase inside a
    longer phrase of another slot ("damage" in "how the damage happened").
    """
    spans = [(m.start(), m.end(), name) for p, name in patterns for m in p.finditer(sentence)]
    found: dict[str, int] = {}
    for start, end, name in spans:
        if any(
            other != name
            and (
                (e <= start and not sentence[e:start].strip())
                or (s <= start and end <= e and e - s > end - start)
            )
            for s, e, other in spans
        ):
            continue
        if name not in found or start < found[name]:
            found[name] = start
    return sorted((position, name) for name, position in found.items())
