"""Required outputs said in sentences that carry their meaning, never as bare words.

A task's required outputs are short strings the agent must say ("belong", "scheduled",
"$50.00"). Said alone ("Here are the details: belong.") they tell a person nothing. ``sentence``
finds where the output comes from and says it there:

- an error a tool returned that holds it: the error's own words;
- a refusal ("cannot be filed", "does not qualify"): "I'm afraid it cannot be filed.";
- a field of a tool result whose value is the output ("status": "scheduled", "patient_cost":
  15.0 for "$15.00", "delay_minutes": 135 for "135 minutes", "estimated_restoration":
  "2025-11-14T13:00" for "13:00"): "The status is scheduled.";
- a figure worked out by a call (``calculate``, ``days_between``): what was worked out and how;
- a sentence of the policy that holds it (the rule the refusal rests on): "Our policy says: …",
  with the policy's markdown and its instructions to the agent taken out;
- else a sentence naming the figure or the answer found.

``bare`` tells a text whose output stands alone in its clause, or only after "That is", for
the measuring script.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

_MONEY = re.compile(r"^-?\$([\d,]+\.\d\d)$")
_COUNT = re.compile(r"^(?:at least |about )?(-?\$?[\d,]*\.?\d+)(?: ([a-zA-Z][\w-]*))?$")
_CLOCK = re.compile(r"^\d\d:\d\d$|^\d{4}-\d\d-\d\d$|^\d{4}-\d\d-\d\d \d\d:\d\d$")
_REFUSAL = re.compile(r"^(cannot|can't|can not|does not|doesn't|is not|isn't|not)\b")
FIELD_WORDS = {
    "expires": "expiry date",
    "delivered on": "delivery date",
    "promised by": "promised delivery time",
    "check in": "check-in date",
    "check out": "check-out date",
    "kind": "type",
    "dob": "date of birth",
}
"""Field names whose words read badly in a sentence, and what a person says instead."""
_AGENT_WORDS = re.compile(
    r"^(policy|rule|note)\s*:\s*|^(refuse|say|tell|explain|state|answer)\w*"
    r"( plainly| politely| the \w+| them| the customer| the user)*( and explain)?( that)?\s*",
    re.IGNORECASE,
)
_CLAUSES = re.compile(r"[;!?\n]+|[.:](?=\s|$)")
_SENTENCES = re.compile(r"(?<=[.!?])\s+")
_ITEMS = re.compile(r"\n\s*\n|\n(?=\s*(?:[-*#]|\d+\.)\s)")
_INSTRUCTION = re.compile(
    r"[:;]\s+(do not|don't|say|tell|refuse|explain|give|offer|never|ask|transfer|still)\b.*$",
    re.IGNORECASE,
)


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w$.,%-]+", " ", text.lower()).split()).strip(" .,")


def _leaves(tree: Any, keys: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    if isinstance(tree, dict):
        for key, value in tree.items():
            yield from _leaves(value, (*keys, str(key)))
    elif isinstance(tree, list):
        for value in tree:
            yield from _leaves(value, keys)
    else:
        yield keys, tree


def _matches(output: str, value: Any) -> bool:
    if isinstance(value, bool) or value is None:
        return False
    money = _MONEY.match(output)
    if money is not None and isinstance(value, int | float) and isinstance(value, float):
        sign = -1.0 if output.startswith("-") else 1.0
        return abs(sign * float(money.group(1).replace(",", "")) - value) < 0.005
    count = _COUNT.match(output)
    if count is not None and isinstance(value, int | float) and not isinstance(value, bool):
        number = count.group(1).replace(",", "").replace("$", "")
        try:
            return abs(float(number) - value) < 0.0005
        except ValueError:
            return False
    if isinstance(value, str) and _CLOCK.match(output) and _norm(value) != _norm(output):
        stamp = value.replace("T", " ")
        return stamp.startswith(output) or stamp.endswith(f" {output}")
    return isinstance(value, str) and _norm(value) == _norm(output)


def _field_words(keys: tuple[str, ...], output: str) -> str:
    """The field a value sits in, in words: "delay minutes" for 135 minutes is "delay"."""
    words = [w for w in keys[-1].split("_") if w]
    unit = output.split()[-1].lower() if " " in output and output[:1].isdigit() else ""
    kept = [w for w in words if not (unit and unit.startswith(w.lower()[:4]))]
    if not kept and len(keys) > 1:
        return _field_words(keys[:-1], output)
    field = " ".join(kept)
    return FIELD_WORDS.get(field, field)


def _field_sentence(keys: tuple[str, ...], value: Any, output: str) -> str:
    """The sentence for a field's value, worded for a count left, a time stamp, a past event."""
    field = _field_words(keys, output)
    if not field:
        return f"Our records show {output}."
    if isinstance(value, str) and _CLOCK.match(output):
        stamp = value.replace("T", " ")
        day, _, hour = stamp.partition(" ")
        said = f"{day} at {hour}" if hour else day
        if field.endswith("ed"):
            return f"It was {field} on {said}."
        return f"The {field} is {said}."
    if field.endswith(" left") or field == "left":
        return (
            f"There are {output} left."
            if not output.startswith("1 ")
            else f"There is {output} left."
        )
    if field.endswith("ed") and not field.endswith("need"):
        return f"The amount {field} is {output}."
    verb = "include" if field.endswith("s") and not field.endswith("us") else "is"
    return f"The {field} {verb} {output}."


def _from_result(output: str, content: str) -> str | None:
    """The sentence naming the field of ``content`` (JSON) whose value is ``output``."""
    try:
        tree = json.loads(content)
    except ValueError:
        return None
    if not isinstance(tree, dict | list):
        return None  # a bare figure: what it is comes from the call that worked it out
    for keys, value in _leaves(tree):
        if keys and _matches(output, value):
            return _field_sentence(keys, value, output)
    return None


def _from_error(output: str, content: str) -> str | None:
    """The error's own words, where a tool's error text holds ``output``."""
    if not content.startswith("Error") or _norm(output) not in _norm(content):
        return None
    words = content.removeprefix("Error").lstrip(":, ").rstrip(".")
    return f"{words[:1].upper()}{words[1:]}." if words else None


def _from_policy(output: str, policy: str) -> str | None:
    """The shortest policy sentence holding ``output`` as a word."""
    pattern = re.compile(rf"(?<!\w){re.escape(output)}(?!\w)", re.IGNORECASE)
    found = []
    items = (" ".join(item.split()) for item in _ITEMS.split(policy))
    for raw in (sentence for item in items for sentence in _SENTENCES.split(item)):
        text = " ".join(re.sub(r"[*`#]+", "", raw).lstrip("-0123456789. ").split())
        if pattern.search(text) and len(text.split()) > len(output.split()) + 2:
            found.append(text)
    if not found:
        return None
    best = min(found, key=len).rstrip(".:;")
    cut = _INSTRUCTION.sub("", best)
    best = cut if pattern.search(cut) else best
    best = re.sub(r"\s*\[rule [\w-]+\]", "", best)
    best = _AGENT_WORDS.sub("", best)
    best = _AGENT_WORDS.sub("", best)
    head, colon, tail = best.rpartition(":")
    if colon and _norm(tail) == _norm(output):  # a list item, "late 45 minutes: $10.00"
        best = f"{output} when {head.strip()}"
    return f"Our policy says: {best[:1].lower()}{best[1:]}."


def _refusal(output: str, phrasings: Mapping[str, Sequence[str]]) -> str | None:
    """A refusal output ("cannot be filed") said of what was asked, with the policy's words."""
    if not _REFUSAL.match(output.lower()):
        return None
    low = output.lower()
    subject = "I" if re.match(r"^(cannot|can't|can not) (?!be\b)", low) else "it"
    subject += " is" if re.match(r"^not\b", low) else ""
    output = f"{output} do that" if low in ("cannot", "can't") else output
    reason = max(phrasings.get(output, ()), key=len, default="")
    because = f": {reason}" if reason and _norm(output) not in _norm(reason) else ""
    return f"I'm afraid {subject} {output}{because}."


def _worked_out(output: str, calls: Sequence[Worked]) -> str | None:
    """What a call worked out (a sum, days between dates), where its result is ``output``."""
    for name, arguments, content in reversed(calls):
        try:
            figure = json.loads(content)
        except ValueError:
            continue
        if not _matches(output, figure):
            continue
        if name == "calculate" and "expression" in arguments:
            return f"Working it out ({arguments['expression']}), it comes to {output}."
        if name == "days_between":
            start, end = arguments.get("start_date"), arguments.get("end_date")
            return f"From {start} to {end} is {output}."
    return None


def _from_calls(output: str, calls: Sequence[Worked]) -> str | None:
    """The sentence naming the argument of a call made whose value is ``output``."""
    for name, arguments, _content in reversed(calls):
        for key, value in arguments.items():
            if _matches(output, value):
                what = name.replace("_", " ")
                return f"The {key.replace('_', ' ')} for the {what} is {output}."
    return None


def _last_resort(output: str) -> str:
    """A sentence for an output nothing seen explains: the figure or the answer, named so."""
    if re.search(r"\d", output):
        return f"The figure I have for you is {output}."
    return f"The answer I found is: {output}, as our records show."


Worked = tuple[str, Mapping[str, Any], str]
"""A call made: its tool name, its arguments and the result it returned."""


def sentence(
    output: str,
    contents: Sequence[str],
    policy: str,
    calls: Sequence[Worked] = (),
    phrasings: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """``output`` said in a sentence that carries its meaning (see the module docstring).

    ``contents`` are the tool results the agent has seen, latest last; ``policy`` the domain's;
    ``calls`` the calls made (name, arguments and result), whose arguments or results may hold a
    computed figure; ``phrasings`` the domain's ways of saying an output (``Domain.phrasings``).
    """
    for content in reversed(contents):
        said = _from_error(output, content)
        if said is not None:
            return said
    said = _refusal(output, phrasings or {})
    if said is not None:
        return said
    for content in reversed(contents):
        said = _from_result(output, content)
        if said is not None:
            return said
    return (
        _worked_out(output, calls)
        or _from_calls(output, calls)
        or _from_policy(output, policy)
        or _last_resort(output)
    )


def sentences(
    outputs: Sequence[str],
    contents: Sequence[str],
    policy: str,
    calls: Sequence[Worked] = (),
    phrasings: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """Each output in its sentence, one sentence once."""
    said: list[str] = []
    for output in outputs:
        text = sentence(output, contents, policy, calls, phrasings)
        if text not in said:
            said.append(text)
    return " ".join(said)


def bare(text: str, outputs: Sequence[str]) -> bool:
    """Whether an output stands alone in a clause of ``text`` ("details: belong;")."""
    wanted = {_norm(o) for o in outputs}
    return any(
        _norm(clause).removeprefix("that is ") in wanted
        for clause in _CLAUSES.split(text)
        if clause.strip()
    )
