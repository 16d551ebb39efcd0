"""Gold asks which record the user means, and what was wrong with a dish, instead of guessing.

food_delivery-009: the user says only that its food came late; three of its four orders were
delivered. food_delivery-007: the user says only that its food "isn't right"; the refund's
reason ("missing item" or "wrong item") is the user's to tell. food_delivery-017: the user names
both missing dishes of one order.
"""

from __future__ import annotations

import anyio

from tau_sim.agents.pick import sketch
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.world import ToolKind, policy_today, untold, untold_picks
from tests.agents.dialog import Outcome, play

load_plugins()


def _play(task_id: str, emotion: str, intensity: float) -> Outcome:
    domain = get_domain("food_delivery")
    task = next(t for t in domain.tasks if t.id == task_id)
    return anyio.run(
        lambda: play(domain, task, "scripted/gold", emotion=emotion, intensity=intensity)
    )


def test_gold_lists_the_orders_and_asks_which_one_then_succeeds() -> None:
    domain = get_domain("food_delivery")
    reads = [t.name for t in domain.toolkit.tools.values() if t.kind is ToolKind.READ]
    for emotion, intensity in (("neutral", 0.6), ("anger", 0.9)):
        outcome = _play("food_delivery-009", emotion, intensity)
        assert outcome.reward == 1.0
        [question] = [t for t in outcome.agent_texts if "Which of these orders do you mean?" in t]
        for order in ("#FD9128743", "#FD4303979", "#FD3792616", "#FD8816306"):
            assert order in question  # every candidate, in plain words
        assert "Baklava" in question and "status delivered" in question
        answer = outcome.user_texts[outcome.agent_texts.index(question) + 1]
        assert "#FD3792616" in answer  # the user names the order it holds
        assert untold_picks(outcome.events, reads, policy_today(domain.policy)) == []


def test_gold_asks_what_was_wrong_and_the_user_says_it() -> None:
    domain = get_domain("food_delivery")
    outcome = _play("food_delivery-007", "neutral", 0.6)
    assert outcome.reward == 1.0
    [asked] = [t for t in outcome.agent_texts if "what was wrong" in t]
    assert "missing item" in outcome.user_texts[outcome.agent_texts.index(asked) + 1]
    assert untold(outcome.events, domain.toolkit.composed, []) == []  # the policy told nothing


def test_a_user_who_described_tonight_s_order_is_not_asked_again() -> None:
    outcome = _play("food_delivery-021", "neutral", 0.6)
    assert outcome.reward == 1.0
    assert not any("do you mean?" in t for t in outcome.agent_texts)


def test_dishes_the_user_named_are_refunded_without_a_question() -> None:
    domain = get_domain("food_delivery")
    reads = [t.name for t in domain.toolkit.tools.values() if t.kind is ToolKind.READ]
    outcome = _play("food_delivery-017", "neutral", 0.6)
    assert outcome.reward == 1.0
    assert not any("do you mean?" in t for t in outcome.agent_texts)
    assert untold_picks(outcome.events, reads, policy_today(domain.policy)) == []


def test_sketch_says_a_record_in_plain_words() -> None:
    record = {
        "order_id": "#FD1",
        "restaurant": "Olive Tree Portland",
        "placed_at": "2025-06-20T19:12",
        "status": "preparing",
        "items": [{"name": "Mint Lemonade", "quantity": 2}, {"name": "Baklava", "quantity": 1}],
        "total": 18.9,
    }
    assert sketch(record) == (
        "Olive Tree Portland, placed June 20 at 19:12, with 2 Mint Lemonade and Baklava, "
        "status preparing, total $18.90"
    )
