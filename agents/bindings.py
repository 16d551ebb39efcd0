"""Where the ids of a task's gold calls come from, and which record the user must name.

The scripted agents play a task's gold path closed-loop: an id a later call needs is taken from
the live result of the call that returned it, found by where it sits in the gold result
(``Bindings``). Where that id was picked from a list of several candidates (cards, lines,
payment methods), ``Bindings.which`` names the slot that says which one the user means
(``identifying``), so the agent asks for it instead of knowing it; a table of records keyed by
id (a product's variants) offers several as a list does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from tau_sim.simulator.world import Action, AnswerKey, Heard, InfoSlot

Path = tuple[str | int, ...]
"""Where a value sits in a decoded JSON tree: keys and list indexes."""


def _parse(text: str) -> Any:
    try:
        return msgspec.json.decode(text)
    except msgspec.DecodeError:
        return text


def locate(tree: Any, value: Any) -> Path | None:
    """The first path (keys and indexes) at which ``value`` sits in a decoded JSON ``tree``."""
    if tree == value and not isinstance(tree, dict | list):
        return ()
    if isinstance(tree, dict):
        items: list[tuple[str | int, Any]] = list(tree.items())
    elif isinstance(tree, list):
        items = list(enumerate(tree))
    else:
        return None
    for key, child in items:
        found = locate(child, value)
        if found is not None:
            return (key, *found)
    return None


def follow(tree: Any, path: Path) -> Any:
    """The value at ``path`` in ``tree``; ``KeyError`` when the live tree has no such place."""
    for key in path:
        if isinstance(tree, list) and isinstance(key, int) and 0 <= key < len(tree):
            tree = tree[key]
            continue
        if not (isinstance(tree, dict) and isinstance(key, str) and key in tree):
            raise KeyError(key)
        tree = tree[key]
    return tree


_Leaf = tuple[Path, list[tuple[int, Path]]]


def _string_leaves(value: Any, at: Path) -> Iterator[tuple[Path, str]]:
    """(path, string) for every string inside nested lists and dicts."""
    if isinstance(value, list):
        for n, item in enumerate(value):
            yield from _string_leaves(item, (*at, n))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _string_leaves(item, (*at, key))
    elif isinstance(value, str):
        yield at, value


def _facts(tree: Any) -> set[str]:
    """The normalised strings and numbers of a record (three characters or more)."""
    out: set[str] = set()
    if isinstance(tree, dict):
        for item in tree.values():
            out |= _facts(item)
    elif isinstance(tree, list):
        for item in tree:
            out |= _facts(item)
    elif isinstance(tree, str | int | float) and not isinstance(tree, bool):
        text = tree if isinstance(tree, str) else f"{tree}"
        if len(text) >= 3:
            out.add(text)
    return out


def _picked(tree: Any, path: Path, details: Any) -> tuple[Any, list[Any]] | None:
    """The record a gold id was picked from and its siblings, where several were offered.

    The id sits at ``path`` in ``tree``; the first list on the way, or the first table (a
    dict of two or more records keyed by id, such as a product's variants), holds the
    candidates. A list of bare ids says nothing about them: the record is then ``details``,
    what the call taking the id returned, and there are no siblings to tell it from.
    """
    current = tree
    for key in path:
        if isinstance(current, list) and isinstance(key, int):
            if len(current) < 2:
                return None
            record = current[key]
            if isinstance(record, str):
                return (details, []) if isinstance(details, dict) else None
            return record, [c for n, c in enumerate(current) if n != key]
        if not isinstance(current, dict):
            return None
        if len(current) >= 2 and all(isinstance(v, dict) for v in current.values()):
            return current[key], [v for k, v in current.items() if k != key]
        current = current[key]
    return None


def identifying(slots: list[InfoSlot], record: Any, siblings: list[Any]) -> str | None:
    """The slot whose value tells ``record`` from its siblings, if any.

    A slot tells it apart when the facts of ``record`` its value names are not all facts of
    one sibling: a fact no sibling shares ("ending in 8389"), or a combination none has
    ("frame: tortoise, lens: polarized" where other variants are tortoise or polarized). The
    slot naming the most facts no sibling shares wins, then the one naming the most facts,
    then the longer value (the fuller description).
    """
    others = [_facts(sibling) for sibling in siblings]
    shared = set().union(*others)
    facts = _facts(record)
    best: tuple[int, int, int, str] | None = None
    for slot in slots:
        heard = Heard()
        heard.add(slot.value)
        said = {f for f in facts if heard.said(f)}
        if not said or any(said <= other for other in others):
            continue
        score = (len(said - shared), len(said), len(slot.value))
        if best is None or score > best[:3]:
            best = (*score, slot.name)
    return best[3] if best else None


class Bindings:
    """Where the ids of a task's gold calls come from, worked out once per task.

    For every gold action, each string argument (an id, not a value the user gives) that also
    sits in the gold result of an earlier action is listed with those sources: (action, path in
    its result). ``sources`` holds, per action, the result paths a conversation must read from
    its live result, so a conversation keeps a few strings, never whole decoded results.

    ``which`` holds, per action, the slots that say which record the user means where an id it
    needs was picked from a list of several candidates (cards, lines, payment methods...): the
    slot whose value names the most facts of the picked record that its siblings do not share
    (``identifying``).
    """

    def __init__(self, answer_key: AnswerKey) -> None:
        user_values = {slot.value for slot in answer_key.known_info}
        endings = set(answer_key.endings)
        expected = [_parse(r) for r in answer_key.results]
        self.leaves: dict[int, list[_Leaf]] = {}
        self.sources: dict[int, set[Path]] = {}
        self.which: dict[int, list[str]] = {}
        auth = set(answer_key.auth_slots)
        candidates = [s for s in answer_key.known_info if s.name not in auth]

        for index, action in enumerate(answer_key.actions):
            for at, value in _string_leaves(action.arguments, ()):
                if len(value) < 3 or value in user_values:
                    continue
                found = [
                    (j, path)
                    for j in range(index)
                    if j not in endings and (path := locate(expected[j], value)) is not None
                ]
                if found:
                    self.leaves.setdefault(index, []).append((at, found))
                    for j, path in found:
                        self.sources.setdefault(j, set()).add(path)
                    picked = _picked(expected[found[0][0]], found[0][1], expected[index])
                    slot = identifying(candidates, *picked) if picked else None
                    if slot is not None and slot not in self.which.get(index, []):
                        self.which.setdefault(index, []).append(slot)

    def read(self, index: int, content: str) -> dict[tuple[int, Path], str]:
        """The values a later call needs from action ``index``'s live result ``content``."""
        paths = self.sources.get(index)
        if not paths:
            return {}
        tree = _parse(content)
        out: dict[tuple[int, Path], str] = {}
        for path in paths:
            try:
                value = follow(tree, path)
            except KeyError:
                continue
            if isinstance(value, str):
                out[(index, path)] = value
        return out

    def bind(self, index: int, action: Action, live: dict[tuple[int, Path], str]) -> Action:
        """``action`` (gold action ``index``) with each id taken from the first live source."""
        leaves = self.leaves.get(index)
        if not leaves:
            return action
        arguments: Any = None
        for at, found in leaves:
            value = next((live[src] for src in found if src in live), None)
            if value is None:
                continue
            if arguments is None:  # copy only when a live id differs from the gold one
                current: Any = action.arguments
                for key in at:
                    current = current[key]
                if current == value:
                    continue
                arguments = msgspec.json.decode(msgspec.json.encode(action.arguments))
            parent = arguments
            for key in at[:-1]:
                parent = parent[key]
            parent[at[-1]] = value
        if arguments is None:
            return action
        return Action(action.name, arguments)
