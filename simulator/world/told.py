"""Facts are told, not known: the string arguments of an agent's tool calls nobody said earlier.

An agent knows only what the user said and what its tools returned. ``untold`` reads a stored
conversation (its events) and lists every string argument of an agent tool call that appears in
no earlier user message and no earlier tool result of the agent. Values are compared as words:
case, ``_``, ``-`` and runs of white space are the same ("one_way" is "One-way"), and a value
must start and end on a word boundary of the earlier text ("W12" is not in "#W123"). Numbers and
booleans are not strings and are not checked; an arithmetic expression (the argument of a
``calculate``-like tool: figures and operators only) is a value derived from earlier figures and
is not checked either. The empty string says nothing and is skipped, and so are the parameters a
tool declares ``composed`` (the agent's own words, a summary for a human: ``Toolkit.composed``).

What the user's own tools returned (their device) is not something the agent saw: only what the
user then said counts. What the agent was handed before the dialogue (its policy: "today is
2025-06-15") is passed as ``given`` and counts as said.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import lru_cache
from typing import Any

import msgspec

from tau_sim.simulator.core.events import AgentMessage, Event, ToolResult, UserMessage

_SEPARATORS = re.compile(r"[\s_\-]+")
_EXPRESSION = re.compile(r"[0-9.\s()+\-*/%]+")
_OPERATOR = re.compile(r"[+*/%()]|\s-\s")


class Untold(msgspec.Struct, frozen=True):
    """A string argument of a tool call that nobody said before the call.

    ``call`` is the tool's name, ``index`` the call's position among the conversation's agent
    tool calls (0-based), ``path`` where the value sits in the arguments ("passengers[1].dob").
    """

    call: str
    index: int
    path: str
    value: str


def normalise(text: str) -> str:
    """``text`` as ``untold`` compares it: lower case, ``_``/``-``/white space as one space."""
    return _SEPARATORS.sub(" ", text.lower()).strip()


def is_expression(value: str) -> bool:
    """Whether ``value`` is arithmetic on figures (``147.00 * 2``), not a fact anyone states."""
    return bool(_EXPRESSION.fullmatch(value)) and bool(_OPERATOR.search(value))


def argument_leaves(arguments: Any, at: str = "") -> Iterator[tuple[str, Any]]:
    """(path, value) for every value inside nested argument lists and objects."""
    if isinstance(arguments, dict):
        for key, item in arguments.items():
            yield from argument_leaves(item, f"{at}.{key}" if at else str(key))
    elif isinstance(arguments, list):
        for n, item in enumerate(arguments):
            yield from argument_leaves(item, f"{at}[{n}]")
    else:
        yield at, arguments


def string_arguments(arguments: Any) -> Iterator[tuple[str, str]]:
    """(path, value) for every string inside nested argument lists and objects."""
    return ((at, v) for at, v in argument_leaves(arguments) if isinstance(v, str))


def number_arguments(arguments: Any) -> Iterator[tuple[str, float]]:
    """(path, value) for every number inside nested argument lists and objects (not booleans)."""
    return (
        (at, float(v))
        for at, v in argument_leaves(arguments)
        if isinstance(v, int | float) and not isinstance(v, bool)
    )


def number_forms(number: float) -> list[str]:
    """How a person writes ``number``: ``100.00`` and ``100`` for 100.0, ``12.50``, ``12.5``."""
    return list(dict.fromkeys((f"{number:.2f}", f"{number:g}")))


class Heard:
    """What an agent has been told so far: the user's texts and its tool results, normalised."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def add(self, text: str) -> None:
        """Hear one more user message or tool result."""
        self.texts.append(f" {normalise(text)} ")

    def said(self, value: str) -> bool:
        """Whether ``value`` appears, as whole words, in something heard."""
        wanted = normalise(value)
        if not wanted:
            return True
        pattern = _whole_words(wanted)
        return any(wanted in text and pattern.search(text) for text in self.texts)


@lru_cache(maxsize=8192)
def _whole_words(wanted: str) -> re.Pattern[str]:
    """``wanted`` as whole words (compiled once: ``re``'s own cache holds only 512)."""
    return re.compile(r"(?<![a-z0-9])" + re.escape(wanted) + r"(?![a-z0-9])")


def untold(
    events: Iterable[Event],
    composed: Mapping[str, frozenset[str]] | None = None,
    given: Iterable[str] = (),
) -> list[Untold]:
    """Every string argument of an agent tool call that appears nowhere earlier (module doc).

    ``composed`` maps a tool to its parameters in the agent's own words (skipped); ``given``
    are the texts the agent starts with (the domain's policy).
    """
    own = composed or {}
    heard = Heard()
    for text in given:
        heard.add(text)
    found: list[Untold] = []
    index = 0
    for event in events:
        if isinstance(event, UserMessage):
            heard.add(event.text)
        elif isinstance(event, ToolResult):
            heard.add(event.content)
        elif isinstance(event, AgentMessage):
            for call in event.tool_calls:
                skip = own.get(call.name, frozenset())
                for path, value in string_arguments(call.arguments):
                    if path.split(".")[0].split("[")[0] in skip:
                        continue
                    if not is_expression(value) and not heard.said(value):
                        found.append(Untold(call.name, index, path, value))
                index += 1
    return found
