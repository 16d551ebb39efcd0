"""Which record the user means: gold reads the candidates before it picks one.

A gold call may take an id the agent saw listed among several of its kind (a profile's orders,
an account's lines: a listing, ``simulator.world.picks``). Unless the user said that id, gold
searches in the listing's order: before the call it reads, with the read tool it uses on that
id, every candidate listed before it that it has not read yet, so what the user described is
matched the way a careful person searches, never guessed from the one gold knows is right
(``untold_picks`` counts a pick whose earlier candidates were not read). The reads change
nothing; their results are not the gold call's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import msgspec

from tau_sim.simulator.core import ChatMessage
from tau_sim.simulator.world import (
    Action,
    Fact,
    Heard,
    facts,
    id_arguments,
    listings,
    singled_out,
)

_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _decode(text: str) -> Any:
    try:
        return msgspec.json.decode(text)
    except msgspec.DecodeError:
        return None


def _replace(arguments: Any, path: str, value: str) -> Any:
    """A copy of ``arguments`` with the id at ``path`` ("order_id", "ids[1]") set to ``value``."""
    copy = msgspec.json.decode(msgspec.json.encode(arguments))
    steps: list[str | int] = [int(index) if index else name for name, index in _STEP.findall(path)]
    parent: Any = copy
    for key in steps[:-1]:
        parent = parent[key]
    parent[steps[-1]] = value
    return copy


def _called(history: list[ChatMessage]) -> list[tuple[str, dict[str, Any]]]:
    """(tool, arguments) of every agent call so far."""
    out: list[tuple[str, dict[str, Any]]] = []
    for message in history:
        for call in message.tool_calls or []:
            out.append((call.name, dict(call.arguments)))
    return out


def candidate_reads(
    history: list[ChatMessage], action: Action, reads: frozenset[str]
) -> Iterator[Action]:
    """The reads of the candidates gold has not read, before it takes an id of ``action``.

    For each id argument of ``action`` the user has not said, found in a listing of the live
    results with two or more candidates and no records of its own (a list of bare ids), the
    read tool is ``action``'s own when it reads, else the read tool an earlier call took that
    id with; every candidate listed before the id that no earlier call took is read with it,
    in the listing's order.
    """
    said = Heard()
    for message in history:
        if message.role == "user":
            said.add(message.content or "")
    done = _called(history)
    taken = {value for _name, arguments in done for _p, value in id_arguments(arguments)}
    results = [_decode(m.content or "") for m in history if m.role == "tool"]
    for path, value in id_arguments(action.arguments):
        if said.said(value):
            continue
        first = next(
            (listing for tree in results for listing in listings(tree) if value in listing[0]),
            None,
        )
        if first is None or first[1]:
            continue
        found = first[0]
        if action.name in reads:
            tool, arguments, at = action.name, dict(action.arguments), path
        else:
            earlier = next(
                (
                    (name, arguments, p)
                    for name, arguments in done
                    if name in reads
                    for p, v in id_arguments(arguments)
                    if v == value
                ),
                None,
            )
            if earlier is None:
                continue
            tool, arguments, at = earlier
        for candidate in found[: found.index(value)]:
            if candidate not in taken:
                taken.add(candidate)
                yield Action(tool, _replace(arguments, at, candidate))


def survey_reads(
    history: list[ChatMessage], action: Action, reads: frozenset[str]
) -> Iterator[Action]:
    """The reads of the candidates after the one gold just read, where nothing singles it out.

    ``action`` is a read gold just made of an id the user has not said, found in a listing of
    bare ids (as in ``candidate_reads``). When the facts the user said of what gold read for it
    fit another candidate read so far too (``singled_out``), gold cannot tell that record from the
    rest: it reads every candidate it has not read, so what it reports rests on all of them.
    Gold surveys after the last read of its path with that tool (``GoldPolicy._script``).
    """
    if action.name not in reads:
        return
    said = Heard()
    for message in history:
        if message.role == "user":
            said.add(message.content or "")
    done = _called(history)
    contents = [_decode(m.content or "") for m in history if m.role == "tool"]
    calls = [c for m in history for c in m.tool_calls or []]
    by_call = {m.tool_call_id: _decode(m.content or "") for m in history if m.role == "tool"}
    taken = {value for _name, arguments in done for _p, value in id_arguments(arguments)}
    for path, value in id_arguments(action.arguments):
        if said.said(value):
            continue
        first = next(
            (listing for tree in contents for listing in listings(tree) if value in listing[0]),
            None,
        )
        if first is None or first[1]:
            continue
        found = first[0]
        records: dict[str, set[Fact]] = {}
        for call in calls:
            for _p, taken_id in id_arguments(call.arguments):
                if taken_id in found:
                    records.setdefault(taken_id, set()).update(facts(by_call.get(call.id)))
        if singled_out(said, value, records):
            continue
        for candidate in found:
            if candidate not in taken:
                taken.add(candidate)
                yield Action(action.name, _replace(action.arguments, path, candidate))
