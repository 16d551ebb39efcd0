"""A write action said in plain words, for the confirmation question and the report of it.

"cancel pending order with the order id #W3956140 and the reason ordered by mistake", not the
tool-argument form ("(order id: #W3956140; reason: ordered by mistake)", "dob 1968-12-28 +
first_name Lucas"): field names written out as words ("dob" as "date of birth"), lists said
as lists ("A, B and C"), a record as its fields in words.
"""

from __future__ import annotations

from typing import Any

from tau_sim.simulator.world import Action

WORDS = {"dob": "date of birth", "qty": "quantity", "num": "number", "amt": "amount"}
"""Abbreviated field names and the words a person says for them."""


def _field(name: str) -> str:
    return " ".join(WORDS.get(part, part) for part in name.split("_"))


def listing(items: list[str]) -> str:
    """``items`` as a person lists them: "A", "A and B", "A, B and C"."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _value(value: Any) -> str:
    if isinstance(value, list | tuple):
        return listing([_value(v) for v in value])
    if isinstance(value, dict):
        fields = [f"{_field(str(k))} {_value(v)}" for k, v in value.items() if v not in ("", None)]
        return f"({', '.join(fields)})"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def describe(action: Action) -> str:
    """A plain-words summary of a write action, for the confirmation question."""
    args = [
        f"the {_field(k)} {_value(v)}"
        for k, v in action.arguments.items()
        if v not in ("", None, [], {})
    ]
    what = action.name.replace("_", " ")
    return f"{what} with {listing(args)}" if args else what
