"""Required outputs said in sentences that carry their meaning, never as bare words.

A task's required outputs are short strings the agent must say ("belong", "scheduled",
"$50.00"). Said alone ("Here are the details: belong.") they tell a person nothing. ``sentence``
finds where the output comes from and says it there:

- a field of a tool result whose value is the output ("status": "scheduled", "patient_cost":
  15.0 for "$15.00"): "The status is scheduled.";
- an error a tool returned that holds it: the error's own words;
- a sentence of the policy that holds it (the rule the refusal rests on): "Our policy says: …",
  with the policy's markdown taken out;
- else "That is <output>." after the fact it backs (a computed figure no result names).

``bare`` tells a text whose output stands alone in its clause, or only after "That is", for
the measuring script.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

_MONEY = re.compile(r"^\$([\d,]+\.\d\d)$")
_CLAUSES = re.compile(r"[;!?\n]+|[.:](?=\s|$)")
_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")


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
    if money is not None and isinstance(value, int | float):
        return abs(float(money.group(1).replace(",", "")) - value) < 0.005
    return isinstance(value, str) and _norm(value) == _norm(output)


def _from_result(output: str, content: str) -> str | None:
    """The sentence naming the field of ``content`` (JSON) whose value is ``output``."""
    try:
        tree = json.loads(content)
    except ValueError:
        return None
    if isinstance(tree, int | float) and _matches(output, tree):
        return f"The amount comes to {output}."
    for keys, value in _leaves(tree):
        if keys and _matches(output, value):
            field = keys[-1].replace("_", " ")
            verb = "include" if field.endswith("s") and not field.endswith("us") else "is"
            return f"The {field} {verb} {output}."
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
    for raw in _SENTENCES.split(policy):
        text = " ".join(re.sub(r"[*`#]+", "", raw).lstrip("-0123456789. ").split())
        if pattern.search(text) and len(text.split()) > len(output.split()) + 2:
            found.append(text)
    if not found:
        return None
    best = min(found, key=len).rstrip(".:;")
    return f"Our policy says: {best[:1].lower()}{best[1:]}."


def _from_calls(output: str, calls: Sequence[tuple[str, dict[str, Any]]]) -> str | None:
    """The sentence naming the argument of a call made whose value is ``output``."""
    for name, arguments in reversed(calls):
        for key, value in arguments.items():
            if _matches(output, value):
                what = name.replace("_", " ")
                return f"The {key.replace('_', ' ')} for the {what} is {output}."
    return None


def sentence(
    output: str,
    contents: Sequence[str],
    policy: str,
    calls: Sequence[tuple[str, dict[str, Any]]] = (),
) -> str:
    """``output`` said in a sentence that carries its meaning (see the module docstring).

    ``contents`` are the tool results the agent has seen, latest last; ``policy`` the domain's;
    ``calls`` the calls made (name and arguments), whose arguments may hold a computed figure.
    """
    for content in reversed(contents):
        said = _from_error(output, content) or _from_result(output, content)
        if said is not None:
            return said
    return _from_calls(output, calls) or _from_policy(output, policy) or f"That is {output}."


def sentences(
    outputs: Sequence[str],
    contents: Sequence[str],
    policy: str,
    calls: Sequence[tuple[str, dict[str, Any]]] = (),
) -> str:
    """Each output in its sentence, one sentence once."""
    said: list[str] = []
    for output in outputs:
        text = sentence(output, contents, policy, calls)
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
