"""Gold's confirmation and report of every write of the ten domains read like a person wrote them.

Each write of each task's answer key (and each forbidden write the pushover may be pressed into)
is confirmed as the scripted agents confirm it (``agents.summary.confirmation``, with the records
named from the tool results read before it) and reported as their closing reports it
(``agents.closing.outcome``); neither text may hold a tool-argument leftover, and the task's
scripted user must read the confirmation as one (not as a report of something done) and the
report as work done (not as a question or a refusal).
"""

from __future__ import annotations

import functools
import re

import pytest

from tau_sim.agents.closing import outcome
from tau_sim.agents.naming import names_in
from tau_sim.agents.summary import confirmation
from tau_sim.simulator.core.registry import get_domain
from tau_sim.simulator.world import Action, AnswerKey, answer_key, user_slots, user_steps
from tau_sim.users.dialogue import AgentTextReader
from tau_sim.users.perception import public

DOMAINS = (
    *("retail", "airline", "banking", "telecom", "telehealth", "insurance", "hotel"),
    *("car_rental", "food_delivery", "utilities"),
)
SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
ENUM = re.compile(r"[a-z0-9_ ]+")
"""A raw enum value ("billing_error", "one_way", "suite")."""
BOOLEAN_WORD = re.compile(r"\b(?:yes|true|false)\b", re.IGNORECASE)


def _words(name: str) -> str:
    return name.replace("_", " ").lower()


def leftovers(text: str, action: Action) -> list[str]:
    """The tool-argument leftovers in ``text``, the confirmation of ``action``."""
    found = [f"snake_case word {w!r}" for w in SNAKE.findall(text)]
    found += [f"ISO date {d!r}" for d in ISO_DATE.findall(text)]
    found += [f"boolean word {w!r}" for w in BOOLEAN_WORD.findall(text)]
    found += ["a '+' join"] * (" + " in text)
    lower = text.lower()
    if f"{_words(action.name)} with" in lower:
        found.append("the tool's name as its verb")
    for key, value in action.arguments.items():
        raw = ("yes" if value else "no") if isinstance(value, bool) else str(value).lower()
        enum = isinstance(value, bool) or (isinstance(value, str) and ENUM.fullmatch(value))
        if enum and any(f"{_words(key)} {said}" in lower for said in {raw, _words(raw)}):
            found.append(f"a field-value pair {_words(key)!r} {raw!r}")
    return found


@functools.cache
def keys(domain_name: str) -> list[tuple[AgentTextReader, AnswerKey]]:
    """(the task's scripted user's reader, the task's answer key) for every task of a domain."""
    domain = get_domain(domain_name)
    steps = user_steps(domain)
    return [
        (
            AgentTextReader(user_slots(domain, task), task.scenario.unknown_info, steps),
            answer_key(domain, task),
        )
        for task in domain.tasks
    ]


def confirmations(domain_name: str) -> list[tuple[AgentTextReader, Action, str]]:
    """(the task's user's reader, write, the confirmation gold says) for every write."""
    said = []
    for reader, key in keys(domain_name):
        writes = [(key.actions[i], key.results[:i]) for i in key.writes]
        for action, results in [*writes, *((a, key.results) for a in key.violations)]:
            text = f"{confirmation([action], names_in(results))} Shall I go ahead?"
            said.append((reader, action, text))
    return said


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_confirmation_is_in_plain_words(domain: str) -> None:
    said = confirmations(domain)
    assert said, f"{domain} has no write to confirm"
    bad = [f"{text}\n    {left}" for _, a, text in said if (left := leftovers(text, a))]
    assert not bad, f"{len(bad)} of {len(said)} confirmations hold leftovers:\n" + "\n".join(bad)


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_scripted_user_reads_every_confirmation_as_one(domain: str) -> None:
    misread = []
    for reader, _action, text in confirmations(domain):
        acts = public(reader.read(text))
        if not acts["confirms"] or acts["done"] or acts["refuses"]:
            misread.append(f"{text}\n    {acts}")
    assert not misread, f"{len(misread)} confirmations misread:\n" + "\n".join(misread[:20])


def reports(domain_name: str) -> list[tuple[AgentTextReader, Action, str]]:
    """(the task's user's reader, write, the closing gold says once it is made) per gold write."""
    said = []
    for reader, key in keys(domain_name):
        for i in key.writes:
            done = outcome([key.actions[i]], [], [], True, names_in(key.results[: i + 1]))
            said.append((reader, key.actions[i], f"{done} Is there anything else I can help with?"))
    return said


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_report_of_a_write_is_in_plain_words(domain: str) -> None:
    said = reports(domain)
    assert said, f"{domain} has no write to report"
    bad = [f"{text}\n    {left}" for _, a, text in said if (left := leftovers(text, a))]
    assert not bad, f"{len(bad)} of {len(said)} reports hold leftovers:\n" + "\n".join(bad[:20])


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_scripted_user_reads_every_report_as_work_done(domain: str) -> None:
    misread = []
    for reader, _action, text in reports(domain):
        acts = public(reader.read(text))
        if not acts["done"] or acts["confirms"] or acts["refuses"]:
            misread.append(f"{text}\n    {acts}")
    assert not misread, f"{len(misread)} reports misread:\n" + "\n".join(misread[:20])


def test_leftovers_are_found() -> None:
    action = Action(
        name="apply_bill_credit",
        arguments={"reason": "billing_error", "complimentary": False, "date": "2025-01-02"},
    )
    text = "apply bill credit with the reason billing_error, the complimentary no, 2025-01-02 + x"
    found = leftovers(text, action)
    assert "snake_case word 'billing_error'" in found
    assert "a field-value pair 'complimentary' 'no'" in found
    assert "ISO date '2025-01-02'" in found
    assert "a '+' join" in found
    assert "the tool's name as its verb" in found
