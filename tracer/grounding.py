"""Grounding: what an agent used or stated that nobody in the dialogue gave it.

- ``arguments``: the string arguments of its tool calls that no earlier user message, tool result
  or its system prompt holds (``simulator.world.untold``, the told-facts invariant the gold agent
  passes);
- ``facts``: the facts its texts state, and the decimal numbers (amounts) its tool calls pass,
  that nothing earlier holds. A stated fact is an id or code (a word with a digit and a letter,
  ``#`` or ``_``: ``#W6972769``, ``XZ5ATJ``, ``chk_52697927_025``), a long number (five digits
  or more: an account, an item id), an amount (``$35.00``, ``100.0``) or an ISO date. Plain
  small integers (counts, quantities) are not facts here, nor are integer arguments; a decimal
  argument (``"amount": 100.0``, top level) is. A number is told when an earlier text holds the
  same value, sign aside ("$35.00" is told by ``"amount": -35.0``), a code when an earlier text
  holds it as whole words (``told.Heard``).

Both read only the events and the system prompt the agent was given, so they judge any agent.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import msgspec

from tau_sim.simulator.core import AgentMessage, Event, ToolResult, UserMessage
from tau_sim.simulator.world import Heard, untold

_FACT = re.compile(
    r"(?<![\w#$.\-])(?:"
    r"\$\d[\d,]*(?:\.\d+)?"  # an amount
    r"|\d{4}-\d{2}-\d{2}"  # an ISO date
    r"|#?(?=[\w\-]*\d)(?=[\w\-]*[A-Za-z_#])[A-Za-z0-9][\w\-]*[A-Za-z0-9]"  # a code
    r"|#\d+"  # a numbered code
    r"|\d{5,}"  # a long number
    r"|\d+\.\d+"  # a decimal number
    r")(?![\w\-])"
)
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_FIGURES = re.compile(r"\$?-?[\d,]+(?:\.\d+)?")


class Grounding(msgspec.Struct, frozen=True):
    """What an agent used or stated from nowhere: ``arguments`` and ``facts`` (module doc)."""

    arguments: list[str]
    facts: list[str]


def _value(text: str) -> float | None:
    if not _FIGURES.fullmatch(text):
        return None
    try:
        return float(text.lstrip("$").replace(",", ""))
    except ValueError:
        return None


class _Told:
    """Everything said so far, as words (``Heard``) and as the numbers in it."""

    def __init__(self, given: Iterable[str]) -> None:
        self.heard = Heard()
        self.numbers: set[float] = set()
        for text in given:
            self.add(text)

    def add(self, text: str) -> None:
        self.heard.add(text)
        for figure in _NUMBER.findall(text):
            number = _value(figure)
            if number is not None:
                self.numbers.add(abs(number))

    def said(self, fact: str) -> bool:
        number = _value(fact)
        if number is not None and abs(number) in self.numbers:
            return True
        return self.heard.said(fact)


def stated_facts(text: str) -> list[str]:
    """The facts (module doc) ``text`` states, in order."""
    return _FACT.findall(text)


def unstated(events: Iterable[Event], given: Iterable[str] = ()) -> list[str]:
    """The facts the agent's texts state and the amounts its calls pass that nobody gave."""
    told = _Told(given)
    found: list[str] = []
    for event in events:
        if isinstance(event, UserMessage):
            told.add(event.text)
        elif isinstance(event, ToolResult):
            told.add(event.content)
        elif isinstance(event, AgentMessage):
            for fact in stated_facts(event.text or ""):
                if not told.said(fact):
                    found.append(fact)
            for call in event.tool_calls:
                for name, value in call.arguments.items():
                    if isinstance(value, float) and abs(value) not in told.numbers:
                        found.append(f"{call.name}.{name}={value:g}")
    return found


def grounding(
    events: list[Event], system: str, composed: Mapping[str, frozenset[str]] | None = None
) -> Grounding:
    """The ungrounded arguments and facts of one conversation whose agent was sent ``system``."""
    arguments = [f"{u.call}.{u.path}={u.value}" for u in untold(events, composed, [system])]
    return Grounding(arguments, unstated(events, [system]))
