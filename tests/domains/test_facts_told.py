"""Facts are told, not known: every string argument of a gold tool call was said before it.

So was every amount or count of a call that the user holds (a known-info slot states it).

Over every task of every built-in domain, under a neutral user and a high-intensity angry one,
the scripted gold agent plays the scripted user through the engine, and ``told.untold`` finds no
string argument of any tool call that is in no earlier user message and no earlier tool result
(the domain's policy counts as said: it is the agent's system prompt, "today is 2025-06-15";
arithmetic for ``calculate`` and a transfer's summary are the agent's own). Where the gold path
picks an id among several candidates (cards, lines, payment methods), the user said which one
before the call. Tracer's constructed tasks are held to the same, and a clairvoyant gold agent
(one that asks for nothing the user holds) is caught.

τ²-bench's imported domains (``tau2/...``) are not held to it: their scenarios are free text,
with no slot a scripted agent could ask for by name and no scripted user to answer (an LLM user
plays them), so their gold agent asks only for what it needs to authenticate, as τ²-bench's own
tasks leave it.
"""

from __future__ import annotations

from typing import Any

import anyio
import msgspec
import pytest

from tau_sim.agents.bindings import Bindings
from tau_sim.simulator.core.events import AgentMessage, ToolResult, UserMessage
from tau_sim.simulator.core.registry import (
    DOMAINS,
    get_domain,
    load_plugins,
    make_agent_provider,
    make_user_provider,
)
from tau_sim.simulator.world import (
    Domain,
    Heard,
    Task,
    Untold,
    answer_key,
    number_arguments,
    number_forms,
    untold,
)
from tau_sim.tracer.construct import construct
from tests.agents.dialog import Outcome, play

load_plugins()
NAMES = [name for name in DOMAINS.names() if "/" not in name]
CONDITIONS = [("neutral", 0.6), ("anger", 0.9)]


def untold_in(domain: Domain, outcome: Outcome) -> list[Untold]:
    """The string arguments of the conversation's tool calls that nobody said before them."""
    return untold(outcome.events, domain.toolkit.composed, [domain.policy])


def _call_key(name: str, arguments: Any) -> tuple[str, bytes]:
    """A call by tool and arguments: a path may read the same tool on several records."""
    return name, msgspec.json.encode(arguments, order="sorted")


def unsaid_choices(domain: Domain, task: Task, outcome: Outcome) -> list[tuple[str, str]]:
    """(tool, slot) where the gold path picked among several records before the user said which."""
    key = answer_key(domain, task)
    which = {
        _call_key(key.actions[i].name, key.actions[i].arguments): [
            s for s in key.known_info if s.name in names
        ]
        for i, names in Bindings(key).which.items()
    }
    said = Heard()
    missing: list[tuple[str, str]] = []
    for event in outcome.events:
        if isinstance(event, UserMessage):
            said.add(event.text)
        elif isinstance(event, AgentMessage):
            for call in event.tool_calls:
                slots = which.pop(_call_key(call.name, call.arguments), [])
                missing += [(call.name, s.name) for s in slots if not said.said(s.value)]
    return missing


def unsaid_numbers(domain: Domain, task: Task, outcome: Outcome) -> list[tuple[str, float]]:
    """(tool, number) where a call used an amount or count the user holds before anyone said it.

    A number counts as the user's when a known-info slot states it ("$100.00" for 100.0); said
    means in an earlier user message, tool result or the policy, in any of its written forms.
    """
    holders = []
    for slot in task.scenario.known_info.values():
        holder = Heard()
        holder.add(slot)
        holders.append(holder)
    heard = Heard()
    heard.add(domain.policy)
    missing: list[tuple[str, float]] = []
    for event in outcome.events:
        if isinstance(event, UserMessage):
            heard.add(event.text)
        elif isinstance(event, ToolResult):
            heard.add(event.content)
        elif isinstance(event, AgentMessage):
            for call in event.tool_calls:
                for _path, number in number_arguments(call.arguments):
                    forms = number_forms(number)
                    held = any(h.said(f) for h in holders for f in forms)
                    if held and not any(heard.said(f) for f in forms):
                        missing.append((call.name, number))
    return missing


async def play_all(domain: Domain, tasks: list[Task], emotion: str, intensity: float) -> None:
    providers = (make_agent_provider("scripted/gold", {}), make_user_provider("scripted", {}))
    failures: list[str] = []
    for task in tasks:
        outcome = await play(
            domain,
            task,
            "scripted/gold",
            emotion=emotion,
            intensity=intensity,
            providers=providers,
            max_steps=60,
        )
        if outcome.reward != 1.0:
            failures.append(f"{task.id}: reward {outcome.reward} ({outcome.ended})")
        failures += [f"{task.id}: untold {u}" for u in untold_in(domain, outcome)]
        failures += [
            f"{task.id}: never asked which {s} for {c}"
            for c, s in unsaid_choices(domain, task, outcome)
        ]
        failures += [
            f"{task.id}: {c} used {n} the user holds but never said"
            for c, n in unsaid_numbers(domain, task, outcome)
        ]
    assert not failures, "\n".join(failures[:20])


@pytest.mark.parametrize(("emotion", "intensity"), CONDITIONS)
@pytest.mark.parametrize("name", NAMES)
def test_every_gold_call_argument_was_told(name: str, emotion: str, intensity: float) -> None:
    domain = get_domain(name)
    anyio.run(play_all, domain, list(domain.tasks), emotion, intensity)


@pytest.mark.parametrize("name", NAMES)
def test_tracer_constructed_tasks_are_told_too(name: str) -> None:
    domain = get_domain(name)
    tasks = construct(domain, 12, seed=5).tasks
    assert tasks
    anyio.run(play_all, domain, tasks, "anger", 0.9)


def test_a_clairvoyant_gold_agent_is_caught() -> None:
    """The gold path played without asking for what the user holds uses answer-key values."""
    domain = get_domain("airline")
    task = next(t for t in domain.tasks if t.id == "airline-000")
    key = answer_key(domain, task)
    clairvoyant = msgspec.structs.replace(key, slotted_facts=False)
    outcome = anyio.run(
        lambda: play(domain, task, "scripted/gold", key=lambda _: clairvoyant, max_steps=60)
    )
    assert outcome.reward == 1.0  # the answer key is right: only how it was known is wrong
    found = untold_in(domain, outcome)
    # ("book_reservation", "trip_type") passes: "one_way" is in the policy the agent reads
    assert {(u.call, u.path) for u in found} >= {
        ("search_direct_flights", "date"),
        ("book_reservation", "passengers[1].first_name"),
        ("book_reservation", "passengers[1].dob"),
    }
    held = Heard()
    for slot in key.known_info:
        held.add(slot.value)
    assert all(held.said(u.value) for u in found)  # each one is a value of the answer key
    # the same conversation played by the gold agent that asks is clean
    told = anyio.run(lambda: play(domain, task, "scripted/gold", max_steps=60))
    assert told.reward == 1.0 and untold_in(domain, told) == []


def test_a_gold_agent_that_never_asks_which_card_is_caught() -> None:
    """The user has several cards; the clairvoyant agent picks the right one unasked."""
    domain = get_domain("banking")
    task = next(t for t in domain.tasks if t.id == "banking-001")
    key = answer_key(domain, task)
    clairvoyant = msgspec.structs.replace(key, slotted_facts=False)
    outcome = anyio.run(
        lambda: play(domain, task, "scripted/gold", key=lambda _: clairvoyant, max_steps=60)
    )
    assert outcome.reward == 1.0 and untold_in(domain, outcome) == []  # every id was in a result
    assert unsaid_choices(domain, task, outcome) == [
        ("get_card_details", "card"),
        ("unfreeze_card", "card"),
    ]
    told = anyio.run(lambda: play(domain, task, "scripted/gold", max_steps=60))
    assert unsaid_choices(domain, task, told) == []
    assert any("which one" in text for text in told.agent_texts)
    assert not any(t.startswith("lookupable_question") for t in told.triggers)
