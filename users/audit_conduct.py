"""The user audit's conduct and fact figures read from words.

Insistences, unanswered questions, names, and message length against the persona.

Every rule reads what was said (the user's and the agent's texts, the task's scenario), never
the user's own bookkeeping, so a scripted user, an LLM user and a person are measured alike:

- ``insistences_made``: the user messages, after the agent's first reply, of a task with a
  ``demand`` that press for it (``INSISTING``: "still want", "insist", "exception",
  "supervisor", "manager", "elsewhere", "reconsider" …); compared with ``insistences_set``,
  the condition's pushback (``users.pushback.pushback_of``). A conversation counts only where
  the agent refused (``REFUSING`` in one of its texts): a user whose demand was granted has
  nothing to insist on, and one handed to a human (a transfer) is cut short.
- ``unanswered``: the facts the user holds that the agent asked for (a sentence ending in "?"
  that names one of the slot's keywords) and that no user message gave, before or after (its
  value, or at least half of its words).
- ``invented_names``: capitalised words a user message says, not at a sentence's start, that
  neither the scenario nor an earlier agent text holds (a person, a restaurant, a hotel …).
- ``persona_length_breaks``: a message with more sentences than the persona allows
  (``SENTENCE_LIMIT``: the LLM user's brief's rule) or more than ``MESSAGE_CHARS`` characters.
"""

from __future__ import annotations

import re

from tau_sim.simulator.core import STOP, UNSATISFIED
from tau_sim.users.audit_read import Played
from tau_sim.users.brief import MESSAGE_CHARS
from tau_sim.users.emotions import EmotionProfile
from tau_sim.users.lexicon import words
from tau_sim.users.pushback import pushback_of
from tau_sim.users.repeats import sentences

INSISTING = re.compile(
    r"\b(?:still (?:really )?(?:want|need|like|would like)|(?:i'd|i would) still like|insist\w*|"
    r"exception|supervisor|manager|elsewhere|reconsider)\b",
    re.IGNORECASE,
)
"""Words of a user message that press for a refused demand."""
REFUSING = re.compile(
    r"\b(?:can't|cannot|can not|unable|not able|won't be able|not possible|isn't possible|"
    r"not eligible|ineligible|non-refundable|not allowed|isn't something|against (?:our )?"
    r"policy|policy says|(?:does not|doesn't) allow|only covers|not permitted)\b",
    re.IGNORECASE,
)
"""Words of an agent text that turn a request down."""
SENTENCE_LIMIT: dict[str, int] = {"terse": 2, "rambling": 4}
"""Sentences a message of a persona may have (3 for the others), as the LLM user is told."""
DEFAULT_SENTENCES = 3
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+(?:'[a-z]+)?\b")
_NOT_NAMES = frozenset(
    [
        "i",
        "i'm",
        "i've",
        "i'd",
        "i'll",
        "ok",
        "okay",
        "if",
        "the",
        "a",
        "an",
        "and",
        "but",
        "or",
        "so",
        "as",
        "for",
        "also",
        "any",
        "my",
        "your",
        "our",
        "it",
        "it's",
        "this",
        "that",
        "these",
        "those",
        "we",
        "you",
        "he",
        "she",
        "they",
        "what",
        "how",
        "why",
        "when",
        "where",
        "which",
        "who",
        "can",
        "could",
        "would",
        "will",
        "please",
        "thanks",
        "thank",
        "hello",
        "hi",
        "hey",
        "yes",
        "no",
        "sorry",
        "sure",
        "dear",
    ]
)
"""Capitalised words that open a clause after markup or a line break as often as a sentence."""
_QUESTION_SPLIT = re.compile(r"(?<=[.!?])\s+")
_START = re.compile(r"(?:^|[.!?:;]\s+|\n)\s*[\"'(]?$")


def insistences_set(item: Played) -> int:
    """How many times the condition's pushback insists on a refused demand (0 without one)."""
    if not item.demand:
        return 0
    try:
        condition = item.condition
        profile = EmotionProfile.of(condition.emotion, condition.intensity, **condition.levels)
    except KeyError:
        return 0
    return pushback_of(profile).insistences


def refused(item: Played) -> bool:
    """Whether the task has a demand and the agent turned something down."""
    return bool(item.demand) and any(REFUSING.search(r) for r in item.replies)


def insistences_made(item: Played) -> int:
    """The user messages after the agent's first reply that press for a demand."""
    if not item.demand:
        return 0
    return sum(bool(INSISTING.search(_clean(t))) for t in item.texts[1:])


def unanswered(item: Played) -> list[str]:
    """The names of the facts the agent asked for that the user never gave."""
    said = " ".join(item.texts)
    return [
        slot.name
        for slot in item.slots
        if any(_asks(reply, slot.keywords) for reply in item.replies)
        and not _gives(said, slot.value)
    ]


def _asks(reply: str, keywords: list[str]) -> bool:
    """Whether a question of an agent text (a sentence ending in "?") names one of ``keywords``."""
    questions = [q for q in _QUESTION_SPLIT.split(reply.lower()) if q.rstrip().endswith("?")]
    return any(
        re.search(rf"\b{re.escape(k.lower().strip())}\b", q)
        for q in questions
        for k in keywords
        if k.strip()
    )


def _gives(text: str, value: str) -> bool:
    """Whether ``text`` says ``value``: as it is, or at least half of its words."""
    if not value:
        return True
    if value.lower() in text.lower():
        return True
    want = set(words(value))
    return bool(want) and len(want & set(words(text))) >= len(want) / 2


def invented_names(item: Played) -> list[str]:
    """Capitalised words, not opening a sentence, that nobody gave the user before."""
    found: list[str] = []
    for text, known in zip(item.texts, item.known_before, strict=True):
        clean = _clean(text)
        held = set(words(known))
        for match in _CAPITALISED.finditer(clean):
            name = match.group(0)
            if name.lower() in _NOT_NAMES or _START.search(clean[: match.start()]):
                continue
            if name.lower() not in held:
                found.append(name)
    return found


def length_breaks(item: Played) -> int:
    """The user messages longer than the persona allows (sentences or characters)."""
    limit = SENTENCE_LIMIT.get(item.persona, DEFAULT_SENTENCES)
    return sum(len(sentences(t)) > limit or len(_clean(t)) > MESSAGE_CHARS for t in item.texts)


def _clean(text: str) -> str:
    return text.replace(STOP, "").replace(UNSATISFIED, "").strip()
