"""Evaluation from events: the verdict of a conversation is reproduced from its stored events."""

import gc

import msgspec
import pytest

from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.events import AgentMessage, EnvironmentState, decode, encode
from tau_sim.simulator.world.domain import Action
from tau_sim.simulator.world.evaluation import (
    Evaluator,
    MissingStateError,
    evaluate,
    final_reward,
    normalize_text,
)
from tests.simulator.engine.test_conversation import play
from tests.simulator.toy import Counter, toy_domain

pytestmark = pytest.mark.anyio


def stored(events):
    """The events as SQLite gives them back: JSON bytes decoded again."""
    return [decode(encode(e)) for e in events]


@pytest.mark.parametrize(
    ("agent", "emotion", "task", "reward"),
    [
        ("gold", "neutral", 1, 1.0),
        ("gold", "outrage", 1, 0.0),  # right state, but the user abandoned
        ("transfer", "neutral", 0, 0.0),  # transfer without the write
        ("silent", "neutral", 2, 0.0),  # nothing done, nothing said
    ],
)
async def test_stored_events_reproduce_the_verdict(agent, emotion, task, reward) -> None:
    ended, events = await play(agent=agent, emotion=emotion, task=task)
    assert ended.reward == reward
    domain = toy_domain()
    score, breakdown = evaluate(domain, domain.tasks[task], stored(events))
    assert final_reward(ended.reason, score) == ended.reward
    assert breakdown == ended.breakdown


async def test_environment_state_lists_the_changed_records() -> None:
    _, events = await play(task=2)  # the gold path adds 3 to counter a
    [state] = [e for e in events if isinstance(e, EnvironmentState)]
    assert [(c.table, c.key, c.record) for c in state.changes] == [("counters", "a", Counter(3))]
    [back] = [e for e in stored(events) if isinstance(e, EnvironmentState)]
    assert back.changes[0].record == {"value": 3} and back.state_hash == state.state_hash
    db = toy_domain().new_database()
    db.put("counters", "a", Counter(3))
    assert state.state_hash == db.state_hash()


def test_outputs_and_state_both_count() -> None:
    domain = toy_domain()
    task = domain.tasks[1]  # add 2 to counter a; say "counter a is now 2"
    evaluator = Evaluator(domain)
    db = domain.new_database()
    db.put("counters", "a", Counter(2))
    right = EnvironmentState(conversation="c", state_hash=db.state_hash())
    said = AgentMessage(conversation="c", text="Done: Counter A is now 2.")
    score, bd = evaluator.evaluate(task, [said, right])
    assert score == 1.0 and bd.db_match and bd.outputs_communicated == 1.0
    score, bd = evaluator.evaluate(task, [AgentMessage(conversation="c", text="Done."), right])
    assert score == 0.0 and bd.missing_outputs == ["counter a is now 2"]
    wrong = EnvironmentState(conversation="c", state_hash=domain.new_database().state_hash())
    score, bd = evaluator.evaluate(task, [said, wrong])
    assert score == 0.0 and not bd.db_match
    with pytest.raises(MissingStateError):
        evaluator.evaluate(task, [said])


def test_a_changed_task_under_the_same_id_is_replayed_again() -> None:
    domain = toy_domain()
    task = domain.tasks[1]
    evaluator = Evaluator(domain)
    before = evaluator.gold_hash(task)
    assert evaluator.gold_hash(task) == before
    changed = msgspec.structs.replace(task, actions=[Action("increment", {"name": "b"})])
    assert evaluator.gold_hash(changed) != before


async def test_a_normal_ending_leaves_no_garbage_cycles() -> None:
    await play()  # warm every cache first
    gc.collect()
    gc.disable()
    try:
        for emotion in ("neutral", "outrage"):
            await play(emotion=emotion)
        await play(agent="bad-tool", limits=Limits(max_steps=6))
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_a_refusal_output_matches_with_or_without_a_contraction() -> None:
    for said, output in [
        ("Sorry, a basic economy ticket can't be changed.", "cannot be changed"),
        ("That cannot be refunded.", "can't be refunded"),
        ("It isn\u2019t eligible, and the fee won't apply.", "is not eligible"),
        ("The total is $1,234.50.", "$1234.50"),
    ]:
        assert normalize_text(output) in normalize_text(said), (said, output)
    assert normalize_text("cannot be changed") not in normalize_text("can be changed")
