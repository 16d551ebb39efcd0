"""Records are told, not guessed: the tool calls where an agent picked a record nobody named.

``untold_picks`` reads a stored conversation's events and lists every call that took one of
several listed records (a profile's orders, an account's lines) which the user did not name,
the agent did not ask about, and the user did not describe so that only it fits. What counts
as a listing, an id argument, a pick and telling: docs/worlds.md, "Untold record picks".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from datetime import date
from typing import Any

import msgspec

from tau_sim.simulator.core.events import AgentMessage, Event, ToolResult, UserMessage
from tau_sim.simulator.world.told import Heard, argument_leaves

_ID_PARAMETER = re.compile(r"ids?$", re.IGNORECASE)
_FACT_LENGTH = 4
_CODE = re.compile(r"[A-Z]{3}")
"""A three-letter code people say as it is written (an airport: "ATL to MIA")."""
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_MONTH = re.compile(r"(\d{4})-(\d{2})")
_TODAY = re.compile(
    r"(?:today is|current date and time is|current time is)\W*(?:[A-Za-z]+\s+)?"
    r"(\d{4})-(\d{2})-(\d{2})",
    re.IGNORECASE,
)
_DAYS_AGO = {
    0: ("today", "tonight", "this morning", "this afternoon", "this evening"),
    1: ("yesterday", "last night"),
}
"""What a person calls a day that many days before today."""
_PARTS = re.compile(r"[^A-Za-z0-9]+|(?<=[0-9])T(?=[0-9])")


class UntoldPick(msgspec.Struct, frozen=True):
    """A record an agent call took among several candidates nobody singled out.

    ``call`` is the tool's name, ``index`` the call's position among the conversation's agent
    tool calls (0-based), ``path`` the argument, ``value`` the id, ``candidates`` the ids listed.
    """

    call: str
    index: int
    path: str
    value: str
    candidates: tuple[str, ...]


class _Listing:
    """The candidates of one listing, in order, and the records the listing itself holds."""

    def __init__(self, at: int, ids: list[str], records: dict[str, Any]) -> None:
        self.at = at  # position of the result among the conversation's events
        self.ids = ids
        self.records = records


def _decode(text: str) -> Any:
    try:
        return msgspec.json.decode(text)
    except msgspec.DecodeError:
        return None


def listings(tree: Any) -> Iterator[tuple[list[str], dict[str, Any]]]:
    """(candidate ids, their records) for every listing inside a decoded tool result."""
    if isinstance(tree, list):
        strings = list(dict.fromkeys(x for x in tree if isinstance(x, str) and x))
        if len(strings) >= 2 and len(strings) == len(tree):
            yield strings, {}
        objects = [x for x in tree if isinstance(x, dict)]
        keys = dict.fromkeys(k for o in objects for k in o)
        for key in keys:
            if not _ID_PARAMETER.search(str(key)):
                continue
            held = {o[key]: o for o in objects if isinstance(o.get(key), str) and o[key]}
            if len(held) >= 2:
                yield list(held), held
        for item in tree:
            yield from listings(item)
    elif isinstance(tree, dict):
        values = list(tree.values())
        if len(values) >= 2 and all(isinstance(v, dict) for v in values):
            yield [str(k) for k in tree], {str(k): v for k, v in tree.items()}
        for value in values:
            yield from listings(value)


Fact = tuple[str, str]
"""A fact of a record: the name of the field that holds it (no list indexes) and its text."""


def facts(tree: Any, key: str = "") -> set[Fact]:
    """The facts a user may describe a record by: strings, amounts.

    A string is a fact when it has four characters or more, or is a three-letter code in
    capitals ("ATL"); an amount (a float) is its figure to the cent ("38.01", said as "$38.01").
    """
    if isinstance(tree, dict):
        return {f for k, v in tree.items() for f in facts(v, str(k))}
    if isinstance(tree, list):
        return {f for v in tree for f in facts(v, key)}
    if isinstance(tree, str) and (len(tree) >= _FACT_LENGTH or _CODE.fullmatch(tree)):
        return {(key, tree)}
    if isinstance(tree, float):  # an amount, said as "$38.01"
        return {(key, f"{tree:.2f}")}
    return set()


def id_arguments(arguments: Any) -> Iterator[tuple[str, str]]:
    """(path, id) for every string argument whose parameter name ends in ``id``/``ids``."""
    for path, value in argument_leaves(arguments):
        name = path.split(".")[-1].split("[")[0]
        if isinstance(value, str) and _ID_PARAMETER.search(name):
            yield path, value


class _Call(msgspec.Struct, frozen=True):
    name: str
    index: int
    at: int
    arguments: Any
    call_id: str


def policy_today(policy: str) -> date | None:
    """The day a policy says is today ("Today is **2025-06-16**"), or None where it says none."""
    found = _TODAY.search(policy)
    return date(int(found[1]), int(found[2]), int(found[3])) if found else None


def untold_picks(
    events: Iterable[Event], reads: Iterable[str] = (), today: date | None = None
) -> list[UntoldPick]:
    """Every untold record pick of the agent in ``events`` (module doc).

    ``reads`` names the tools that only read (``ToolKind.READ``); every other tool is a write.
    ``today`` is the day the agent was told is today (``policy_today``), if any.
    """
    read_tools = frozenset(reads)
    timeline = list(events)
    found_listings: list[_Listing] = []
    calls: list[_Call] = []
    results: dict[str, Any] = {}
    index = 0
    for at, event in enumerate(timeline):
        if isinstance(event, AgentMessage):
            for spec in event.tool_calls:
                calls.append(_Call(spec.name, index, at, spec.arguments, spec.id))
                index += 1
        elif isinstance(event, ToolResult) and not event.error:
            tree = _decode(event.content)
            results[event.call_id] = tree
            for ids, records in listings(tree):
                found_listings.append(_Listing(at, ids, records))
    out: list[UntoldPick] = []
    for listing in found_listings:
        uses = [
            (call, path, value)
            for call in calls
            if call.at > listing.at
            for path, value in id_arguments(call.arguments)
            if value in listing.ids and _first_listing(found_listings, value) is listing
        ]
        counted: dict[str, tuple[_Call, str, str]] = {}
        for use in uses:
            if use[0].name not in read_tools:
                counted.setdefault(use[2], use)
        reads_of = [u for u in uses if u[0].name in read_tools]
        surveyed = {u[2] for u in reads_of} >= set(listing.ids)
        if set(counted) >= set(listing.ids):
            continue  # a write on every candidate (each meter of an account closed) picks none
        found = any(
            _told(timeline, listing, calls, results, u[0], u[2], today, read_tools)
            for u in reads_of
        )
        if reads_of and not counted and not surveyed and not found:
            counted[reads_of[-1][2]] = reads_of[-1]  # the last read, after the search
        for call, path, value in counted.values():
            if not _told(timeline, listing, calls, results, call, value, today, read_tools):
                candidates = tuple(listing.ids)
                out.append(UntoldPick(call.name, call.index, path, value, candidates))
    return sorted(out, key=lambda p: p.index)


def _first_listing(found: list[_Listing], value: str) -> _Listing | None:
    return next((x for x in found if value in x.ids), None)


def _told(
    timeline: list[Event],
    listing: _Listing,
    calls: list[_Call],
    results: dict[str, Any],
    pick: _Call,
    value: str,
    today: date | None,
    read_tools: frozenset[str],
) -> bool:
    """Whether the pick of ``value`` by ``pick`` was said, asked or described (module doc).

    Only reads add what they return to a candidate's record: a write's result (an order with
    all its lines, returned by the refund of one) describes every record it holds, not the one
    the write took.
    """
    before = timeline[: pick.at]
    said = Heard()
    for event in before:
        if isinstance(event, UserMessage):
            said.add(event.text)
    if said.said(value):
        return True
    if _asked(before[listing.at + 1 :], listing.ids):
        return True
    earlier = [c for c in calls if c.at <= pick.at and c.name in read_tools]
    records: dict[str, set[Fact]] = {v: facts(r) for v, r in listing.records.items()}
    read: set[str] = set()
    for call in earlier:
        for _path, taken in id_arguments(call.arguments):
            if taken in listing.ids:
                read.add(taken)
                records.setdefault(taken, set()).update(facts(results.get(call.call_id)))
    position = listing.ids.index(value)
    if not listing.records and not all(c in read for c in listing.ids[:position]):
        return False
    return singled_out(said, value, records, today)


def singled_out(
    said: Heard, value: str, records: dict[str, set[Fact]], today: date | None = None
) -> bool:
    """Whether the facts of ``value``'s record the user said fit no other record of ``records``.

    The said facts may single it out together ("Taco Loco" and "Elote") where each alone fits
    another record too. Another record fits a said fact when a fact of it in the same field is
    described by the same words ("Tuesday" fits every order placed on that Tuesday).
    """
    told = {
        (key, words)
        for key, text in records.get(value, set())
        if (words := described(said, text, today)) is not None
    }
    if not told:
        return False
    for other, known in records.items():
        if other == value:
            continue
        theirs = {(key, described(said, text, today)) for key, text in known}
        if told <= theirs:
            return False
    return True


def described(said: Heard, fact: str, today: date | None = None) -> str | None:
    """The words by which the user described ``fact``, or None where it did not.

    The fact itself; a name of three words or more said but its last word ("Taco Loco" for
    "Taco Loco Atlanta"); every word and figure of it in one message ("2026-03-11 at 16:00" for
    a slot starting "2026-03-11T16:00"); its head before a comma ("Directory assistance" for
    "Directory assistance, 172-838-3122"); a month's name ("June 2025" for "2025-06"); else a
    date's weekday or month and day ("Tuesday",
    "June 17" for "2025-06-17T18:57"), and where ``today`` is given, "tonight" or "yesterday"
    for a date that is today or the day before.
    """
    if said.said(fact):
        return fact.lower()
    parts = [p for p in _PARTS.split(fact) if p]
    if len(parts) >= 3 and fact[:1].isupper() and said.said(" ".join(parts[:-1])):
        return " ".join(parts[:-1]).lower()
    if len(parts) >= 2 and any(all(_within(p.lower(), text) for p in parts) for text in said.texts):
        return " ".join(parts).lower()
    head = fact.split(", ")[0]
    if head != fact and len(head) >= _FACT_LENGTH and said.said(head):
        return head.lower()
    month = _MONTH.fullmatch(fact)
    if month is not None:  # a billing period "2025-06": "June 2025", "June"
        name = date(int(month[1]), int(month[2]), 1).strftime("%B")
        for words in (f"{name} {month[1]}", name):
            if said.said(words):
                return words.lower()
    day = _DATE.match(fact)
    if day is not None:
        when = date(int(day[1]), int(day[2]), int(day[3]))
        relative = _DAYS_AGO.get((today - when).days, ()) if today is not None else ()
        for name in (when.strftime("%A"), f"{when.strftime('%B')} {when.day}", *relative):
            if said.said(name):
                return name.lower()
    return None


def _within(part: str, text: str) -> bool:
    return bool(re.search(r"(?<![a-z0-9])" + re.escape(part) + r"(?![a-z0-9])", text))


def _asked(between: list[Event], candidates: list[str]) -> bool:
    """Whether an agent question in ``between`` asked which candidate, and the user answered."""
    asking = False
    for event in between:
        if isinstance(event, AgentMessage) and event.text and "?" in event.text:
            heard = Heard()
            heard.add(event.text)
            named = sum(heard.said(c) for c in candidates)
            if named >= 2 or re.search(r"\bwhich\b", event.text, re.IGNORECASE):
                asking = True
        elif isinstance(event, UserMessage) and asking:
            return True
    return False
