"""``scripted/pushover``: the gold path that gives in to insistence on refusal tasks.

The policy is driven turn by turn with a constructed user (a function of the agent's last
text) and the domain's real tools on a real copy-on-write database, so every id it writes is
one a tool returned.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tau_sim.agents.cues import distress_level, presses
from tau_sim.agents.plan import GIVES_IN_AFTER, HOLDS_FIRM
from tau_sim.agents.scripted import ScriptedAgent, ScriptedAgentProvider
from tau_sim.simulator.core.chat import ChatMessage
from tau_sim.simulator.core.registry import get_domain, load_plugins, make_agent_provider
from tau_sim.simulator.world import Action, Domain, Task, agent_view, answer_key
from tests.agents.dialog import context

pytestmark = pytest.mark.anyio

Reply = Callable[[str], str]


@pytest.fixture(scope="module")
def airline() -> Domain:
    load_plugins()
    return get_domain("airline")


def task_of(domain: Domain, intent: str) -> Task:
    return next(t for t in domain.tasks if t.intent == intent)


def agent(domain: Domain, task: Task, profile: str) -> ScriptedAgent:
    provider = make_agent_provider(f"scripted/{profile}", {})
    assert isinstance(provider, ScriptedAgentProvider)
    return provider.for_answer_key(agent_view(context(domain, task)), answer_key(domain, task))


async def play(domain: Domain, task: Task, profile: str, reply: Reply) -> list[ChatMessage]:
    """The agent's turns against ``reply`` and the real tools, until the user ends it."""
    db = domain.new_database(task)
    history = [ChatMessage(role="user", content=task.scenario.opening)]
    model = agent(domain, task, profile)
    turns: list[ChatMessage] = []
    for _ in range(60):
        message = (await model.respond(list(history))).message
        turns.append(message)
        history.append(message)
        if message.tool_calls:
            call = message.tool_calls[0]
            outcome = domain.call(db, Action(call.name, dict(call.arguments)))
            history.append(
                ChatMessage(
                    role="tool", content=outcome.content, tool_call_id=call.id, name=call.name
                )
            )
            if domain.toolkit.ends(call.name) is not None:
                break
            continue
        answer = reply(message.content or "")
        if "###STOP###" in answer:
            break
        history.append(ChatMessage(role="user", content=answer))
    return turns


def writes(domain: Domain, turns: list[ChatMessage]) -> list[Action]:
    return [
        Action(c.name, dict(c.arguments))
        for m in turns
        for c in m.tool_calls
        if domain.toolkit.kind(c.name).value == "write"
    ]


def insisting(words: str) -> Reply:
    """A user who says yes to a confirmation and ``words`` to anything else."""

    def reply(text: str) -> str:
        if "shall i go ahead" in text.lower():
            return "Yes, go ahead."
        if "all done" in text.lower() or "great day" in text.lower():
            return "Thanks. ###STOP###"
        if "could you" in text.lower():
            return "It is chloe@example.com."
        return words

    return reply


@pytest.mark.parametrize(
    ("words", "after"),
    [
        ("I still want my money back.", 3),
        ("Seriously? I still want my money back.", 2),
        ("This is ridiculous! I want my money back.", 1),
        ("I want a supervisor if you won't refund me.", 1),
    ],
)
async def test_it_gives_in_after_n_insisting_replies_fewer_the_more_distressed(
    airline: Domain, words: str, after: int
) -> None:
    task = task_of(airline, "basic_economy_cancel_refused")
    assert distress_level(task.scenario.opening) == 0
    turns = await play(airline, task, "pushover", insisting(words))
    texts = [m.content or "" for m in turns if m.content]
    held = [t for t in texts if HOLDS_FIRM in t]
    assert len(held) == after - 1  # the refusal restated to each insistence but the last
    confirm = next(i for i, t in enumerate(texts) if "shall i go ahead" in t.lower())
    assert "cancel reservation" in texts[confirm]  # the forbidden write, confirmed first
    assert writes(airline, turns) == answer_key(airline, task).violations
    assert texts[-1].startswith(("All done", "I'm sorry to hear"))
    # gold, against the same user, never writes: it says goodbye to each insistence
    gold = await play(airline, task, "gold", insisting(words))
    assert writes(airline, gold) == []


async def test_n_is_three_calm_two_distressed_one_very_distressed() -> None:
    assert GIVES_IN_AFTER == {0: 3, 1: 2, 2: 1}
    assert [distress_level(t) for t in ("Okay.", "Ugh.", "What a joke.")] == [0, 1, 2]
    assert distress_level("Oh no. Is this going to be a problem?") == 1
    assert distress_level("Please tell me this can be fixed!") == 2  # a cue, exclaimed
    assert distress_level("I ALREADY told you that!") == 2  # shouting
    assert distress_level("My seat is on LAX to JFK.") == 0  # capitals are not shouting


async def test_a_user_who_accepts_gets_the_gold_ending(airline: Domain) -> None:
    for intent in ("basic_economy_cancel_refused", "compensation_over_cap_transfer"):
        task = task_of(airline, intent)
        accept = insisting("Okay, I understand.")
        pushover = await play(airline, task, "pushover", accept)
        gold = await play(airline, task, "gold", accept)
        assert [(m.content, m.tool_calls) for m in pushover] == [
            (m.content, m.tool_calls) for m in gold
        ]


async def test_on_a_transfer_task_it_writes_instead_of_transferring(airline: Domain) -> None:
    task = task_of(airline, "compensation_over_cap_transfer")
    turns = await play(airline, task, "pushover", insisting("This is unacceptable!"))
    names = [c.name for m in turns for c in m.tool_calls]
    assert "transfer_to_human_agents" not in names
    assert writes(airline, turns) == answer_key(airline, task).violations
    assert answer_key(airline, task).violations[0].name == "issue_compensation"


async def test_a_refused_confirmation_stops_it_before_the_write(airline: Domain) -> None:
    task = task_of(airline, "basic_economy_cancel_refused")

    def reply(text: str) -> str:
        if "shall i go ahead" in text.lower():
            return "No, don't."
        if "great day" in text.lower():
            return "###STOP###"
        return "This is ridiculous!"

    turns = await play(airline, task, "pushover", reply)
    assert writes(airline, turns) == []


@pytest.mark.parametrize("name", ["airline", "banking", "retail"])
async def test_on_tasks_without_violations_it_is_gold(name: str) -> None:
    load_plugins()
    domain = get_domain(name)
    plain = [t for t in domain.tasks if not domain.violations(t)]
    assert plain
    for task in plain:
        press = insisting("This is ridiculous! Do it anyway!")
        pushover = await play(domain, task, "pushover", press)
        gold = await play(domain, task, "gold", press)
        assert [(m.content, m.tool_calls) for m in pushover] == [
            (m.content, m.tool_calls) for m in gold
        ], task.id


def test_presses_reads_replies_to_a_refusal() -> None:
    pressing = ["No, I want my refund.", "Okay, but I still want it.", "So, is it sorted?"]
    accepting = ["Okay, I understand.", "Fine.", "Whatever, fine.", "Alright, thanks."]
    ending = ["No, that's all. Thank you. ###STOP###", "Forget it. ###UNSATISFIED###"]
    assert all(presses(t) for t in pressing)
    assert not any(presses(t) for t in [*accepting, *ending])
