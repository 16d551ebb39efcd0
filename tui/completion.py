"""Completion of tool arguments from what a conversation has shown so far.

``IdBook`` keeps the values seen in this conversation's tool calls, tool results and dialogue
(order ids, item ids, user ids, names, zip codes, ...), each under the key it was seen with
(``order_id``; a list's items under its singular, ``orders`` -> ``order``; an ``id`` inside a
``payment_methods`` entry as ``payment_method_id``; a tool's bare answer under the ``..._id`` in
its name). ``IdBook.candidates`` ranks them for one parameter: seen under the same key first,
then under a key with the same last word, then shaped like the example in the parameter's
description (``#W1234567``, not a plain word), then the rest, the newest first within each. It
reads only the events it is given: a screen passes the events its player sees, so nothing of
the user's condition is ever offered.

``CommandSuggester`` completes a command line (tool names, parameter names, and values after
``key=``, the last call of a ``;`` line); ``ListSuggester`` completes the last item of a
comma-separated list. Both are Textual suggesters: the input shows the rest dimmed and
the right arrow accepts it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from textual.suggester import Suggester

from tau_sim.simulator.core import (
    AgentMessage,
    Event,
    ToolCall,
    ToolResult,
    ToolSpec,
    UserMessage,
    UserToolCall,
    UserToolResult,
)
from tau_sim.tui.tool_lines import CALL_SEPARATOR, KEY

_WORD = re.compile(r"[#\w][\w.@+-]*\w|\w")
_EXAMPLE = re.compile(r'e\.g\. "([^"]+)"')
_NAMED_ID = re.compile(r"([a-z]+_id)")
MAX_VALUE = 80
"""A longer value (an address line, a description) is not offered."""


def _singular(key: str) -> str:
    return key[:-1] if key.endswith("s") and not key.endswith("ss") else key


def _stem(name: str) -> str:
    """A key or parameter name without plural or ``_id``: ``item_ids`` -> ``item``."""
    parts = (_singular(part) for part in name.lower().split("_"))
    return "_".join(part for part in parts if part != "id")


def _shape(value: str) -> str:
    """A value's shape: a run of letters as ``a``, each digit as ``9`` (``#W12`` -> ``#a99``)."""
    return re.sub(r"[^\W\d_]+", "a", re.sub(r"\d", "9", value))


def _interesting(word: str) -> bool:
    """Whether a word of the dialogue may be an argument (a digit, ``@``, ``#``, ``_``, a name)."""
    return bool(re.search(r"[\d@#_]", word)) or (len(word) > 1 and word[0].isupper())


class IdBook:
    """The values seen so far in one conversation, by the key each was seen under."""

    def __init__(self) -> None:
        self._seen: dict[tuple[str, str], int] = {}
        """(key, value) -> when it was last seen (a counter); key "" for the dialogue's words."""
        self._clock = 0

    def clear(self) -> None:
        """Forget everything (a new conversation starts)."""
        self._seen.clear()

    def add(self, key: str, value: object) -> None:
        """Note ``value`` seen under ``key`` (texts and numbers only, short ones)."""
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            return
        text = str(value).strip()
        if text and len(text) <= MAX_VALUE and "\n" not in text:
            self._clock += 1
            self._seen[(key, text)] = self._clock

    def add_events(self, events: Iterable[Event]) -> None:
        """Note the values of the tool calls, tool results and messages among ``events``."""
        for event in events:
            if isinstance(event, ToolCall | UserToolCall):
                for key, value in event.call.arguments.items():
                    self._walk(key, value)
            elif isinstance(event, ToolResult | UserToolResult) and not event.error:
                self._add_result(event.name, event.content)
            elif isinstance(event, UserMessage | AgentMessage) and event.text:
                for word in _WORD.findall(event.text):
                    if _interesting(word):
                        self.add("", word)

    def _add_result(self, tool: str, content: str) -> None:
        try:
            value = json.loads(content)
        except json.JSONDecodeError:
            value = content
        if isinstance(value, dict | list):
            self._walk("", value)
        else:
            named = _NAMED_ID.search(tool)
            self.add(named.group(1) if named else "", value)

    def _walk(self, key: str, value: Any) -> None:
        if isinstance(value, dict):
            for inner, item in value.items():
                self._walk(f"{_singular(key)}_id" if inner == "id" and key else inner, item)
        elif isinstance(value, list):
            for item in value:
                self._walk(_singular(key) if isinstance(item, str | int) else key, item)
        else:
            self.add(key, value)

    def candidates(
        self, parameter: str, schema: dict[str, Any] | None = None, *, matching: bool = False
    ) -> list[str]:
        """The values to offer for ``parameter``, best first (its enum's values if it has one).

        Seen under the parameter's own key first (``order_id`` for ``order_id``, ``orders``'
        items too), then under a key ending like it (``item_id`` for ``new_item_ids``), then
        shaped like the example of its description (unless it is plain words), then (unless
        ``matching``) the rest; the newest first in each.
        """
        schema = schema or {}
        if "enum" in schema:
            return [str(choice) for choice in schema["enum"]]
        stem = _stem(parameter)
        last = stem.rpartition("_")[2]
        example = _EXAMPLE.search(str(schema.get("description", "")))
        shape = _shape(example.group(1)) if example else None
        if shape is not None and not re.search(r"[^a ]", shape):
            shape = None  # a plain word ("Ava") is shaped like every word: it tells nothing

        def rank(item: tuple[tuple[str, str], int]) -> tuple[int, int]:
            (key, value), when = item
            seen = _stem(key) if key else ""
            if seen and seen == stem:
                score = 3
            elif seen and seen.rpartition("_")[2] == last:
                score = 2
            elif shape is not None and _shape(value) == shape:
                score = 1
            else:
                score = 0
            return score, when

        ranked = sorted(((rank(item), item[0][1]) for item in self._seen.items()), reverse=True)
        kept = (value for (score, _), value in ranked if score > 0 or not matching)
        return list(dict.fromkeys(kept))


def _completion(value: str, typed: str, candidates: Iterable[str]) -> str | None:
    """``value`` completed by the first candidate that starts with its last part ``typed``."""
    for candidate in candidates:
        if candidate.startswith(typed) and candidate != typed:
            return value + candidate[len(typed) :]
    return None


class ListSuggester(Suggester):
    """Completes the last item of a comma-separated list (or the one value) from ``candidates``."""

    def __init__(self, candidates: list[str]) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.candidates = candidates

    async def get_suggestion(self, value: str) -> str | None:
        """The value with its last item completed, or None."""
        typed = re.split(r'[\[,"]\s*', value)[-1].lstrip()
        return _completion(value, typed, self.candidates)


class CommandSuggester(Suggester):
    """Completes a tool command line: the tool's name, a parameter's name, a value after ``=``.

    ``tools`` are the tools of the turn being answered (the screen sets them); values come from
    ``book``. Only the last call of a line is completed.
    """

    def __init__(self, book: IdBook) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.book = book
        self.tools: list[ToolSpec] = []

    async def get_suggestion(self, value: str) -> str | None:
        """The line completed, or None."""
        if not value.startswith("/"):
            return None
        call = CALL_SEPARATOR.split(value)[-1]
        name, space, rest = call[1:].partition(" ")
        if not space:
            return _completion(value, name, (f"{t.name} " for t in self.tools))
        tool = next((t for t in self.tools if t.name == name), None)
        if tool is None or rest.lstrip().startswith("{"):
            return None
        properties: dict[str, Any] = tool.parameters.get("properties", {})
        keys = list(KEY.finditer(rest))
        if keys:
            field, typed = keys[-1].group(1), rest[keys[-1].end() :]
            schema = properties.get(field, {})
            if schema.get("type") == "array":
                typed = re.split(r'[\[,"]\s*', typed)[-1]
            words = typed.split(" ")
            if len(words) > 1 and words[-1] and "=" not in words[-1]:
                free = (f"{p}=" for p in properties if p not in {k.group(1) for k in keys})
                named = _completion(value, words[-1], free)
                if named is not None:
                    return named
            return _completion(value, typed, self.book.candidates(field, schema))
        typed = rest.rpartition(" ")[2]
        return _completion(value, typed, (f"{p}=" for p in properties))
