"""Follow-up questions as the user classified them: necessary or needless, from stored tags.

The scripted user tags every agent turn it answers (``EmotionUpdate.triggers``, written by
``users.scripted.ScriptedUser._triggers``); this module sorts those tags, it does not read the
agent's texts again:

- necessary: ``question:NAME``, a fact only the user held that nobody had said yet (a login
  slot asked once, a "which one" choice among records the agent found), and ``confirmation``,
  the agent's question before a write.
- needless: ``lookupable_question:NAME``, a slot a tool could have looked up;
  ``unknown_question:ITEM``, something the user cannot know (ids the tools hold); and
  ``repeated_question:NAME``, a slot the user had already given, in an answer or in the opening.
- unclear: ``unclear_question``, a question the user could not read; counted apart, neither
  necessary nor needless.

Each tag counts once: an agent text that asks for two slots is two questions. Only the scripted
user writes these tags (``TAGGING_USERS``); the questions of a conversation with another user
(an LLM, a human) are ``untagged``: the referee's count of agent texts that ask something
(the ``questions`` column), not split.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from tau_sim.simulator.results import tag_kind

NECESSARY: Mapping[str, str] = {"question": "asked", "confirmation": "confirmation"}
"""Tag kind -> the name of its necessary-question figure."""
NEEDLESS: Mapping[str, str] = {
    "lookupable_question": "lookupable",
    "unknown_question": "unknown",
    "repeated_question": "repeated",
}
"""Tag kind -> the name of its needless-question figure."""
UNCLEAR = "unclear_question"
KINDS: tuple[str, ...] = (*NECESSARY.values(), *NEEDLESS.values(), "unclear")
"""Every per-kind figure of ``Questions.kinds``, in the order tables show them."""
TAGGING_USERS = frozenset({"scripted"})
"""User providers whose emotion updates tag the agent's questions (``users.scripted``)."""


def tags_questions(user: str) -> bool:
    """Whether conversations with ``user`` (the ``user`` column) carry question tags."""
    return user.partition("/")[0] in TAGGING_USERS


class Questions:
    """The follow-up questions of one conversation, counted by kind (``KINDS``)."""

    __slots__ = ("kinds",)

    def __init__(self, kinds: Mapping[str, int] | None = None) -> None:
        self.kinds: Counter[str] = Counter(kinds or {})

    @classmethod
    def of(cls, triggers: Iterable[str]) -> Questions:
        """The questions the tags ``triggers`` (of all the user's emotion updates) record."""
        found = cls()
        for trigger in triggers:
            found.add(trigger)
        return found

    def add(self, trigger: str) -> None:
        """Count one stored tag, if it is a question's."""
        kind = tag_kind(trigger)
        name = NECESSARY.get(kind) or NEEDLESS.get(kind)
        if name is None and kind == UNCLEAR:
            name = "unclear"
        if name is not None:
            self.kinds[name] += 1

    @property
    def necessary(self) -> int:
        """Questions the task needed the user for."""
        return sum(self.kinds[n] for n in NECESSARY.values())

    @property
    def needless(self) -> int:
        """Questions a tool or the dialogue already answered."""
        return sum(self.kinds[n] for n in NEEDLESS.values())

    @property
    def unclear(self) -> int:
        """Questions the user could not read."""
        return self.kinds["unclear"]

    def as_dict(self) -> dict[str, int]:
        """Every kind's count (zeros too), in ``KINDS`` order."""
        return {name: self.kinds[name] for name in KINDS}
