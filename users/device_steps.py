"""Reading, by meaning, the steps an agent asks a customer to do on their own device.

An agent words a device step in many ways ("pop the SIM tray out and reseat the card", "what
do you see at the top of your screen?", "switch Wi-Fi Calling on"). A step is read as a *topic*
(what the step is about, in the words of the domain's ``StepHint.topic``) and a *kind* (look at
it, or change it); the pair names one of the user's tools (``Topic``). A message is cut into
clauses (sentences, lines, list items, "then"); a clause is read only when it asks the user
something (a question, or a request: "please", "could you", an imperative at its start), so an
explanation ("airplane mode cuts every radio") asks for nothing, nor does a sentence about what
the agent does ("Here is what I am going to do: enable roaming"). The steps come out in the
order asked, each once. The vocabulary of verbs and clauses here is the language's; what the
steps are about is the domain's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

from tau_sim.simulator.world import UserStep

CHANGE = re.compile(
    r"\b(turn|turning|switch|toggle|enable|disable|activate|deactivate|flip|disconnect|reset|"
    r"restore|install|download|grant|allow|give|reseat|reinsert|re-insert|insert|inserting|"
    r"remove|removing|pop|eject|take|taking|tap|pick|choose|select|start|apply|change|restart|"
    r"reboot|stop|cancel|put|slide|pull|lift|push|dial|ring|ringing|open fast)\b"
)
"""Verbs that ask the user to change something (or to do something: run a test, send a photo)."""

LOOK = re.compile(
    r"\b(check|checking|look|see|read|tell me|what|which|whether|if|confirm|verify|make sure"
    r"|let me know|describe)\b|(?:^|[:,]\s*)(?:is|are|does|do|has|have)\b"
)
"""Words that ask the user to look at something and say what it shows."""


class Topic(msgspec.Struct, frozen=True):
    """One thing the user's steps are about: its words, the tools that look and change.

    One of the two may be missing: a restart is only done.
    """

    words: str
    look: str | None = None
    change: str | None = None
    change_words: str = ""

    def tool(self, kind: str) -> str | None:
        """The tool of ``kind`` (``look`` or ``change``), else the other one."""
        first, other = (self.change, self.look) if kind == "change" else (self.look, self.change)
        return first or other


def topics_of(steps: Sequence[UserStep]) -> list[Topic]:
    """The topics of the user's steps: each step's own, and those its look also shows."""
    by_words: dict[str, dict[str, str]] = {}
    change_words: dict[str, str] = {}
    for step in steps:
        tools = by_words.setdefault(step.hint.topic, {})
        tools["change" if step.hint.changes else "look"] = step.name
        if step.hint.change_words:
            change_words[step.hint.topic] = step.hint.change_words
    for step in steps:
        for shown in step.hint.also_shows:
            by_words.setdefault(shown, {}).setdefault("look", step.name)
    return [
        Topic(words, tools.get("look"), tools.get("change"), change_words.get(words, ""))
        for words, tools in by_words.items()
    ]


ASKING = re.compile(
    r"\?|\b(please|could you|can you|would you|will you|i'd like you to|i need you to|"
    r"you'll (?:need|want) to|you should|go ahead and|let me know|tell me|let's|try)\b"
)
VERBS = (
    r"turn|switch|toggle|enable|disable|open|go|tap|check|look|read|restart|reboot|reset|install"
    r"|grant|allow|pop|take|remove|reseat|reinsert|set|change|run|make|place|send|disconnect"
    r"|head|navigate|scroll|find|put|slide|power|flip|select|give|confirm|verify|see|call|dial"
    r"|ring|try|use|swipe|start|apply|pick|choose|eject|lift|push|insert|tell|let me know"
)
"""Verbs a request to the user starts with."""
IMPERATIVE_START = re.compile(
    r"^(?:(?:\d+[.)]|[-*•])\s*|(?:first|next|now|then|after that|finally|also|and|ok(?:ay)?|"
    rf"great|thanks|alright|please)[,:]?\s+)*(?:\*\*)?(?:{VERBS})\b"
)
SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\n+")
"""Where a message breaks into sentences (the scripted user's reader cuts them so too)."""
_CLAUSES = re.compile(
    r"(?<=[.!?])\s+|\n+|;\s*|:\s+|,?\s+(?:and )?then\s+|\s+after that,?\s+"
    rf"|,\s+(?:and\s+)?(?=(?:please\s+)?(?:{VERBS})\b)"
    rf"|\s+and\s+(?=(?:please\s+)?(?:{VERBS})\b)"
    r"|,\s+(?=(?:since|because|as|so that|which)\b)|\s+so (?=(?:it|that|the|your)\b)"
)
_REFERS = re.compile(r"\b(it|its|that|them|this|one|yours)\b")


def clauses(text: str) -> list[str]:
    """The clauses of ``text``, lower-cased: sentences, lines, list items, "then" parts."""
    return [c.strip() for c in _CLAUSES.split(text.lower()) if c.strip()]


_AGENT_ACTS = re.compile(
    r"\b(i'll|i will|i can|i've|i have|i'd|shall i|should i|may i|let me (?!know)|i'm going to"
    r"|i am going to|we'll|we will|we can|would you like me to|do you want me to|has been done"
    r"|have been done|on my side|on our side|for your line|on your line|on your account)\b"
)
_TO_YOU = re.compile(r"\b(could you|can you|would you|will you|please|you'll|you should)\b")


def asks_something(clause: str) -> bool:
    """Whether a clause asks the user to do something (a question, a request, an imperative).

    A clause about what the agent does ("shall I turn on roaming for your line?") asks the user
    to do nothing on the device.
    """
    if _AGENT_ACTS.search(clause) and not _TO_YOU.search(clause):
        return False
    return bool(ASKING.search(clause) or IMPERATIVE_START.search(clause))


def _kind(clause: str, topic: Topic) -> str:
    """Whether ``clause`` asks to look at ``topic`` or to change it.

    The first of a change verb (or the topic's own ``change_words``, where it has them) and a
    word of looking decides ("tell me whether the data toggle is on" looks).
    """
    change = re.search(topic.change_words, clause) if topic.change_words else CHANGE.search(clause)
    look = LOOK.search(clause)
    if change is None or (look is not None and look.start() < change.start()):
        return "look"
    return "change"


def _named(clause: str, topics: Sequence[Topic]) -> list[Topic]:
    """The topics a clause names, in the order it names them.

    Of two that one look shows ("the plane icon in the status bar"), the first named.
    """
    found = sorted(
        (match.start(), n)
        for n, topic in enumerate(topics)
        if (match := re.search(topic.words, clause)) is not None
    )
    named: list[Topic] = []
    for _start, n in found:
        topic = topics[n]
        if topic.look is None or all(t.look != topic.look for t in named):
            named.append(topic)
    return named


class _Reading:
    """One message read clause by clause: the steps so far and what earlier clauses said."""

    def __init__(self, topics: Sequence[Topic]) -> None:
        self.topics = topics
        self.steps: list[str] = []
        self.last: list[Topic] = []  # the topics the last clause that named any named
        self.changed: set[str] = set()
        self.asked_before = ""  # the last clause that asked something

    def clause(self, clause: str) -> None:
        """Read one clause of a sentence in which the user, not the agent, is to act."""
        topics, asks = _named(clause, self.topics), asks_something(clause)
        carried = False
        if not topics and self.last and asks and (_REFERS.search(clause) or CHANGE.search(clause)):
            topics, carried = self.last[-1:], not _REFERS.search(clause)  # "switch it off"
        read_as = clause
        bare = len(clause.split()) <= 4 and not (CHANGE.search(clause) or LOOK.search(clause))
        if topics and not asks and self.asked_before and bare:
            asks, read_as = True, self.asked_before  # "turn off Data Saver, then Battery Saver"
        if topics:
            self.last = topics
        if not asks:
            return
        self.asked_before = read_as
        for topic in topics:
            kind = _kind(read_as, topic)
            if (carried and kind != "change") or (kind == "look" and topic.words in self.changed):
                continue  # "tap the menu" names no step; "…then check it" checks the change
            if kind == "change":
                self.changed.add(topic.words)
            step = topic.tool(kind)
            if step is not None and step not in self.steps:
                self.steps.append(step)


def read_steps(text: str, topics: Sequence[Topic]) -> list[str]:
    """The user's tools the agent's ``text`` asks the user to run, in order.

    ``topics`` are what the user's steps are about (``topics_of``).
    A sentence about what the agent does asks for nothing; a clause that asks for a change
    without naming what ("please switch it off") is about the last topic named before it.
    """
    return [step for sentence in steps_by_sentence(text, topics) for step in sentence]


def steps_by_sentence(text: str, topics: Sequence[Topic]) -> list[list[str]]:
    """The steps each sentence of ``text`` adds, read with what earlier sentences named.

    Sentences are cut at ``SENTENCE_BREAK``, the empty ones left out.
    """
    reading = _Reading(topics)
    added: list[list[str]] = []
    for sentence in SENTENCE_BREAK.split(text.lower()):
        if not sentence.strip():
            continue
        before = len(reading.steps)
        if not (_AGENT_ACTS.search(sentence) and not _TO_YOU.search(sentence)):
            for clause in clauses(sentence):
                reading.clause(clause)
        added.append(reading.steps[before:])
    return added
