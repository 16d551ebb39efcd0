"""Asking what the policy says to ask is never a needless question (issue 39 item 8): the scripted
user, in a real conversation, tags a question for the items to return, the refund's payment
method or the purchases to dispute as a plain question where the domain's policy prescribes it,
still tags the same question as needless where the policy does not, and reads a condolence as no
claim that anything was done."""

from __future__ import annotations

import pytest

from tau_sim.simulator.core.chat import ChatMessage, ChatResponse
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.events import EmotionUpdate
from tau_sim.simulator.core.registry import DOMAINS, get_domain, load_plugins
from tau_sim.simulator.engine.bus import Bus, LiveFeed
from tau_sim.simulator.engine.conversation import run_conversation
from tau_sim.simulator.world.domain import Task
from tau_sim.simulator.world.views import user_view
from tau_sim.users.scripted import ScriptedUser
from tests.agents.dialog import context

pytestmark = pytest.mark.anyio

load_plugins()
NAMES = [name for name in DOMAINS.names() if "/" not in name]
CONDOLENCE = "I'm sorry today has been so hard."


class AskingAgent:
    """Says its texts in turn, then the last one again: no tools, only questions."""

    def __init__(self, texts: list[str]) -> None:
        self.texts = texts

    async def respond(self, history: list[ChatMessage]) -> ChatResponse:
        said = sum(1 for m in history if m.role == "assistant")
        text = self.texts[min(said, len(self.texts) - 1)]
        return ChatResponse(ChatMessage(role="assistant", content=text))


async def triggers_of(name: str, task: Task, texts: list[str]) -> list[list[str]]:
    """The user's triggers, turn by turn, against an agent that says ``texts``."""
    domain = get_domain(name)
    ctx = context(domain, task, "frustration", 0.6)
    feed = LiveFeed()
    await run_conversation(
        ctx,
        AskingAgent(texts),
        "asking",
        ScriptedUser(user_view(ctx)),
        "scripted",
        Bus([feed]),
        Limits(max_steps=2 * len(texts) + 1),
    )
    return [e.triggers for e in feed.drain() if isinstance(e, EmotionUpdate)][1:]


def task_with(name: str, *slots: str) -> Task:
    """A task whose user holds ``slots`` and has said none of them in its opening."""
    return next(
        t
        for t in get_domain(name).tasks
        if all(s in t.scenario.known_info and s not in t.scenario.volunteered() for s in slots)
    )


@pytest.mark.parametrize("name", NAMES)
def test_every_policy_ask_is_in_its_policys_own_words(name: str) -> None:
    domain = get_domain(name)
    policy = " ".join(domain.policy.split())
    for slot, hint in domain.slot_hints.items():
        if hint.policy_asks:
            assert hint.lookupable, slot  # only a lookupable slot needs the exemption
            assert hint.policy_asks in policy, (name, slot)


async def test_the_policys_own_questions_are_plain_questions() -> None:
    retail = task_with("retail", "items", "payment_method")
    turns = await triggers_of(
        "retail",
        retail,
        [
            f"{CONDOLENCE} Which items would you like to return?",
            "And which payment method should the refund go to?",
        ],
    )
    assert "question:items" in turns[0] and "question:payment_method" in turns[1], turns
    banking = task_with("banking", "transaction")
    (first, *_) = await triggers_of(
        "banking", banking, [f"{CONDOLENCE} Which purchase would you like to dispute?"]
    )
    assert "question:transaction" in first, first
    flat = [t for turn in [*turns, first] for t in turn]
    assert not [t for t in flat if t.startswith("lookupable_question")], flat
    # the condolence claims nothing done
    assert "unbacked_claim" not in flat and "progress" not in flat, flat


async def test_the_same_question_where_no_policy_asks_it_stays_needless() -> None:
    task = task_with("car_rental", "payment_method")
    (first, *_) = await triggers_of(
        "car_rental", task, ["Which payment method would you like to use?"]
    )
    assert "lookupable_question:payment_method" in first, first
