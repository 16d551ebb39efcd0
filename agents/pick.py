"""Which record the user means: gold reads the candidates, and asks which one when it cannot tell.

A gold call may take an id the agent saw listed among several of its kind (a profile's orders,
an account's lines: a listing, ``simulator.world.picks``). Unless the user said that id, gold
searches in the listing's order: before the call it reads, with the read tool it uses on that
id, every candidate listed before it that it has not read yet, so what the user described is
matched the way a careful person searches, never guessed from the one gold knows is right
(``untold_picks`` counts a pick whose earlier candidates were not read). The reads change
nothing; their results are not the gold call's.

Where what the user said fits several candidates (``singled_out`` fails: "cancel my Taco Loco
order" with three of them, or nothing said at all), gold asks which one before the call that
picks the record (a write, or a read whose ids no later write takes: ``pick_points``): it reads
the candidates it has not read (``which_reads``), then lists those that fit what the user said,
in plain words, and asks which one the user means (``which_question``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime
from typing import Any, NamedTuple

import msgspec

from tau_sim.agents.summary import listing
from tau_sim.simulator.core import (
    AgentMessage,
    ChatMessage,
    Event,
    ToolCallSpec,
    ToolResult,
    UserMessage,
)
from tau_sim.simulator.world import (
    Action,
    AnswerKey,
    Fact,
    Heard,
    described,
    facts,
    id_arguments,
    listings,
    policy_today,
    singled_out,
    untold_picks,
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


def pick_points(key: AnswerKey, index: int, group: list[int] | None) -> list[int]:
    """The gold actions at which gold settles which record it takes, before action ``index``.

    ``group`` is the writes confirmed together from ``index`` (None where ``index`` starts no
    group). A write picks its records, settled with its group before the confirmation, so the
    confirmation names the record the user chose. Where no write follows, the last read of its
    tool picks the record it reports on; the reads before it search. None where the key does not
    have gold ask for what the user holds (``AnswerKey.slotted_facts``: a clairvoyant gold).
    """
    if not key.slotted_facts:
        return []
    if group is not None:
        return group
    actions = key.actions
    if index in key.writes or any(w > index for w in key.writes):
        return []
    if any(a.name == actions[index].name for a in actions[index + 1 :]):
        return []
    return [index]


class _Open(NamedTuple):
    """An id of a call that nobody said, asked for or singled out among its listing's ids."""

    path: str
    value: str
    ids: list[str]
    records: dict[str, Any]
    facts: dict[str, set[Fact]]
    said: Heard
    today: date | None


def _open(
    history: list[ChatMessage], action: Action, policy: str, reads: frozenset[str]
) -> Iterator[_Open]:
    """The ids of ``action`` the user has not told, each with its listing (``untold_picks``).

    An id is told when the user said it, answered a question saying "which" asked after the
    listing, or described a candidate so that its facts fit no other (``singled_out``): that
    one, or another one the read of ``action`` searches past. ``reads`` are the read tools.

    ``policy`` is the agent's policy: the day it says is today (``policy_today``) lets the user
    describe a record as "from tonight" or "from yesterday".
    """
    today = policy_today(policy)
    said = Heard()
    for message in history:
        if message.role == "user":
            said.add(message.content or "")
    by_call = {m.tool_call_id: _decode(m.content or "") for m in history if m.role == "tool"}
    calls = [c for m in history for c in m.tool_calls or []]
    for path, value in id_arguments(action.arguments):
        if said.said(value):
            continue
        at, found = next(
            (
                (n, listing)
                for n, m in enumerate(history)
                if m.role == "tool"
                for listing in listings(_decode(m.content or ""))
                if value in listing[0]
            ),
            (-1, None),
        )
        if found is None or _asked(history[at + 1 :]):
            continue
        ids, records = found
        known: dict[str, set[Fact]] = {v: facts(r) for v, r in records.items()}
        for call in calls:
            for _p, taken in id_arguments(call.arguments):
                if taken in ids:
                    known.setdefault(taken, set()).update(facts(by_call.get(call.id)))
        if not any(singled_out(said, c, known, today) for c in ids):  # else found or searching
            yield _Open(path, value, ids, dict(records), known, said, today)


def _asked(after: list[ChatMessage]) -> bool:
    """Whether the agent asked which one (a question saying "which"), and the user answered."""
    asking = False
    for message in after:
        text = message.content or ""
        if message.role == "assistant" and "?" in text and re.search(r"\bwhich\b", text, re.I):
            asking = True
        elif message.role == "user" and asking:
            return True
    return False


def untold_now(
    history: list[ChatMessage], actions: list[Action], reads: frozenset[str], policy: str
) -> bool:
    """Whether ``actions``, made now, would make an untold record pick (``untold_picks``).

    Gold asks only where the measure it is held to finds a guess: the dialogue so far, as
    events, with ``actions`` as the next calls (a group written together: every meter of an
    account closed is no pick among them).
    """
    events: list[Event] = []
    for message in history:
        if message.role == "user":
            events.append(UserMessage(conversation="", text=message.content or ""))
        elif message.role == "assistant":
            text, calls = message.content, list(message.tool_calls or [])
            events.append(AgentMessage(conversation="", text=text, tool_calls=calls))
        elif message.role == "tool":
            content, call_id = message.content or "", message.tool_call_id or ""
            name = message.name or ""
            events.append(ToolResult(conversation="", call_id=call_id, name=name, content=content))
    first = sum(len(e.tool_calls) for e in events if isinstance(e, AgentMessage))
    for n, action in enumerate(actions):
        pending = ToolCallSpec(f"pending{n}", action.name, dict(action.arguments))
        events.append(AgentMessage(conversation="", tool_calls=[pending]))
    found = untold_picks(events, reads, policy_today(policy))
    return any(p.index >= first for p in found)


def which_reads(
    history: list[ChatMessage], actions: list[Action], reads: frozenset[str], policy: str
) -> Iterator[Action]:
    """The reads of the candidates gold has not read, before it asks which one ``action`` takes.

    For an open id (said by nobody, not singled out by what the user described) of a listing of
    bare ids, gold reads every candidate no call took yet, in the listing's order, with the read
    tool ``candidate_reads`` uses, so that it can say what each one is.
    """
    if not actions or not untold_now(history, actions, reads, policy):
        return
    taken = {v for _n, arguments in _called(history) for _p, v in id_arguments(arguments)}
    for action, gap in ((a, g) for a in actions for g in _open(history, a, policy, reads)):
        if gap.records:
            continue
        tool = _read_tool(history, action, gap, reads)
        if tool is None:
            continue
        name, arguments, at = tool
        for candidate in gap.ids:
            if candidate not in taken:
                taken.add(candidate)
                yield Action(name, _replace(arguments, at, candidate))


def _read_tool(
    history: list[ChatMessage], action: Action, gap: _Open, reads: frozenset[str]
) -> tuple[str, dict[str, Any], str] | None:
    """The read that took ``gap``'s id (``action`` itself when it reads): tool, arguments, path."""
    if action.name in reads:
        return action.name, dict(action.arguments), gap.path
    for name, arguments in _called(history):
        if name in reads:
            for p, v in id_arguments(arguments):
                if v == gap.value:
                    return name, arguments, p
    return None


def which_question(
    history: list[ChatMessage], actions: list[Action], reads: frozenset[str], policy: str
) -> str | None:
    """The question "which one do you mean?" with the candidates that fit, or None.

    ``actions`` are the calls gold is about to make (a group confirmed together). None where
    they would make no untold pick (``untold_now``), or where every id they take
    was said, asked, or singled out by the user's words, or is listed bare and not read yet
    (``action`` reads it: a step of the search).
    The candidates listed are those every fact the user said of ``action``'s record fits too
    (all of them where the user said none), each in plain words (``sketch``).
    """
    if not actions or not untold_now(history, actions, reads, policy):
        return None
    taken = {v for _n, arguments in _called(history) for _p, v in id_arguments(arguments)}
    for gap in (g for a in actions for g in _open(history, a, policy, reads)):
        if not gap.records and gap.value not in taken:
            continue  # a listing of bare ids: the read of the id searches; nothing to ask yet
        said, today = gap.said, gap.today
        told = {
            (k, w) for k, t in gap.facts.get(gap.value, set()) if (w := described(said, t, today))
        }
        fitting = [
            c
            for c in gap.ids
            if told <= {(k, described(said, t, today)) for k, t in gap.facts.get(c, set())}
        ]
        records = _records(history, gap)
        kind = re.sub(r"_?ids?$", "", gap.path.split(".")[-1].split("[")[0]).replace("_", " ")
        lines = "\n".join(f"- {c}: {sketch(records.get(c))}".rstrip(": ") for c in fitting)
        return (
            f"I see {len(fitting)} {kind or 'record'}s that could be the one you mean:\n"
            f"{lines}\nWhich of these {kind or 'record'}s do you mean?"
        )
    return None


def _records(history: list[ChatMessage], gap: _Open) -> dict[str, Any]:
    """Each candidate's fullest record: what a read of it returned, else its listing's record."""
    out: dict[str, Any] = dict(gap.records)
    by_call = {m.tool_call_id: _decode(m.content or "") for m in history if m.role == "tool"}
    for message in history:
        for call in message.tool_calls or []:
            result = by_call.get(call.id)
            for _p, taken in id_arguments(call.arguments):
                if taken in gap.ids and isinstance(result, dict):
                    out[taken] = {**out.get(taken, {}), **result}
    return out


_NAMES = ("restaurant", "name", "title", "product", "plan", "hotel", "description")
_WHEN = re.compile(r"\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2})?")


def sketch(record: Any) -> str:
    """A record in plain words: its name, when, what it holds, its status and total.

    "Olive Tree Portland, placed June 20 at 19:12, with Mint Lemonade and Baklava, status
    preparing, total $18.94" (a status never stands alone: it may be a required output).
    """
    if not isinstance(record, dict):
        return ""
    name = next((record[k] for k in _NAMES if isinstance(record.get(k), str) and record[k]), "")
    parts = [name] if name else []
    when = next((v for v in record.values() if isinstance(v, str) and _WHEN.fullmatch(v)), "")
    if when:
        moment = datetime.fromisoformat(when)
        parts.append(
            f"placed {moment:%B} {moment.day}" + (f" at {moment:%H:%M}" if "T" in when else "")
        )
    things = _things(record.get("items") or record.get("dishes"))
    if things:
        parts.append(f"with {things}")
    status = record.get("status")
    if isinstance(status, str) and status:
        parts.append(f"status {status}")
    total = record.get("total")
    if isinstance(total, int | float) and not isinstance(total, bool):
        parts.append(f"total ${total:.2f}")
    return ", ".join(parts)


def _things(items: Any) -> str:
    """The names in a record's list of items or dishes, "2 Caesar Salad and Garlic Knots"."""
    if not isinstance(items, list):
        return ""
    names: list[str] = []
    for item in items:
        if isinstance(item, str):
            names.append(item)
        elif isinstance(item, dict) and isinstance(item.get("name"), str):
            count = item.get("quantity")
            many = isinstance(count, int) and count > 1
            names.append(f"{count} {item['name']}" if many else item["name"])
    return listing(names)
