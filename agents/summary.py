"""A write action said in plain words, for the confirmation question and the report of it.

"cancel order #W3956140 since it was ordered by mistake", "refund $4.99 for the Elote on order
#FD1234 because it was missing from your order", not the tool-argument form ("cancel pending
order with the order id #W3956140 and the reason ordered by mistake", "dob 1968-12-28 +
first_name Lucas"). A tool of the ten built-in domains is said by its sentence
(``agents.tool_sentences``), its records by what people call them (``agents.naming``: "your
Mastercard ending in 3511", "the Coffee Maker (8 cups, stainless steel)"), dates as dates, money
as money, a reason as its clause; any other tool by its name and its arguments in words, field
names written out ("dob" as "date of birth"), lists said as lists ("A, B and C").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tau_sim.agents.naming import address_words, day, money
from tau_sim.agents.tool_sentences import ID_KINDS, REASONS, SENTENCES, VALUE_WORDS
from tau_sim.simulator.world import Action

WORDS = {"dob": "date of birth", "qty": "quantity", "num": "number", "amt": "amount"}
"""Abbreviated field names and the words a person says for them."""

EMPTY = "\0"
"""What an empty argument fills its place with, until the part holding it is left out."""

ADDRESS = ("address1", "address2", "city", "state", "zip", "country")
"""The flat address arguments, said together as one ``address``."""

_FLAG = re.compile(r"\{(\w+)\?((?:[^{}|]|\{\w+\})*)\|((?:[^{}]|\{\w+\})*)\}")
_COUNT = re.compile(r"\{(\w+)#([^{}]+)\}")
_FIELD = re.compile(r"\{(\w+)\}")
_OPTIONAL = re.compile(r"\[([^\[\]]*)\]")
_AN = re.compile(r"\ba (?=(?!one|uni|use|eu)[aeiou]|SUV|FAQ)")
_ENUM = re.compile(r"[a-z0-9_ ]+")


def _field(name: str) -> str:
    return " ".join(WORDS.get(part, part) for part in name.split("_") if part)


def listing(items: list[str]) -> str:
    """``items`` as a person lists them: "A", "A and B", "A, B and C"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _noun(key: str) -> str:
    """The record an id argument names: "order" for ``order_id``, "slot" for ``new_slot_id``."""
    words = _field(key.removesuffix("_ids").removesuffix("_id")).split()
    while len(words) > 1 and words[0] in ("from", "to", "new", "refund"):
        words = words[1:]
    return " ".join(words)


def _record(value: Mapping[str, Any]) -> str:
    if "first_name" in value and "last_name" in value:
        born = value.get("dob") or value.get("birth_date")
        extra = [f"born {day(str(born)) or born}"] if born else []
        if value.get("license_number"):
            extra.append(f"licence {value['license_number']}")
        details = f" ({', '.join(extra)})" if extra else ""
        return f"{value['first_name']} {value['last_name']}{details}"
    if "flight_number" in value and "date" in value:
        return f"flight {value['flight_number']} on {day(str(value['date'])) or value['date']}"
    fields = [
        f"{_field(str(k))} {say(str(k), v, {})}" for k, v in value.items() if v not in ("", None)
    ]
    return f"({', '.join(fields)})"


def say(key: str, value: Any, names: Mapping[str, str]) -> str:
    """The argument ``key`` = ``value`` in words (``EMPTY`` where there is nothing to say)."""
    if value in ("", None, [], {}):
        return EMPTY
    if isinstance(value, list | tuple):
        return listing([say(key, v, names) for v in value])
    if isinstance(value, dict):
        return _record(value)
    if isinstance(value, bool):
        return f"with {_field(key)}" if value else f"without {_field(key)}"
    if isinstance(value, float):
        return money(value)
    if isinstance(value, int):
        return f"{value:,}"
    text = str(value)
    if key.endswith("reason") and text in REASONS:
        return REASONS[text] or EMPTY
    if text in names:
        return names[text]
    kind, _, number = text.rpartition("_")
    if kind in ID_KINDS:
        return ID_KINDS[kind].format(number=number, last4=number[-4:])
    if key.endswith(("_id", "_ids")):
        return f"{_noun(key)} {text.replace('_', ' ')}"
    if text in VALUE_WORDS or day(text):
        return VALUE_WORDS.get(text) or str(day(text))
    return text.replace("_", " ") if _ENUM.fullmatch(text) else text


def _arguments(action: Action) -> dict[str, Any]:
    """The action's arguments, its flat address fields said as one ``address``."""
    args = dict(action.arguments)
    if "address1" in args:
        args["address"] = address_words({k: args.pop(k, "") for k in ADDRESS})
    return args


def fill(sentence: str, arguments: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """``sentence`` (see ``agents.tool_sentences``) with the ``arguments`` said in words."""

    def flag(match: re.Match[str]) -> str:
        value = arguments.get(match[1])
        return match[2] if value is True else match[3] if value is False else EMPTY

    def count(match: re.Match[str]) -> str:
        value = arguments.get(match[1])
        if not isinstance(value, int):
            return EMPTY
        return f"{f'{value:,}' if value else 'no'} {match[2]}{'' if value == 1 else 's'}"

    text = _FLAG.sub(flag, sentence)
    text = _COUNT.sub(count, text)
    text = _FIELD.sub(lambda m: say(m[1], arguments.get(m[1]), names), text)
    while (inner := _OPTIONAL.sub(lambda m: "" if EMPTY in m[1] else m[1], text)) != text:
        text = inner
    text = text.replace(EMPTY, "")
    text = _AN.sub("an ", re.sub(r"\s+([,.)])", r"\1", text))
    return re.sub(r"\s{2,}", " ", text).strip()


def describe(action: Action, names: Mapping[str, str] | None = None) -> str:
    """A plain-words summary of a write action, for the confirmation question.

    ``names`` maps record ids to what people call them (``agents.naming.names_in`` of the tool
    results read so far); an id it lacks is said as "order #W1".
    """
    names = names or {}
    args = _arguments(action)
    sentence = SENTENCES.get(action.name)
    if sentence is not None:
        return fill(sentence, args, names)
    said = [
        say(k, v, names)
        if isinstance(v, bool) or k.endswith(("_id", "_ids"))
        else f"the {_field(k)} {say(k, v, names)}"
        for k, v in args.items()
        if v not in ("", None, [], {})
    ]
    what = action.name.replace("_", " ")
    return f"{what} with {listing(said)}" if said else what


def confirmation(actions: list[Action], names: Mapping[str, str]) -> str:
    """What the agent is about to do, as one sentence: "I'll A, and then B."."""
    return f"I'll {', and then '.join(describe(a, names) for a in actions)}."
