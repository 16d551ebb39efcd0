"""End-to-end checks of the scripted agents and user on the retail benchmark tasks."""

import pytest

from tau_sim.simulator.core.registry import get_domain, make_agent_provider, make_user_provider
from tests.agents.dialog import Outcome, play

pytestmark = pytest.mark.anyio


async def run_all(agent: str, emotion: str, intensity: float, **args: str) -> dict[str, Outcome]:
    domain = get_domain("retail")
    assert len(domain.tasks) >= 50
    return {
        task.id: await play(
            domain,
            task,
            f"scripted/{agent}",
            emotion=emotion,
            intensity=intensity,
            seed=3,
            agent_args=dict(args),
        )
        for task in domain.tasks
    }


async def test_gold_scores_one_on_every_task_with_a_neutral_user() -> None:
    outcomes = await run_all("gold", "neutral", 0.6)
    failed = {k: o.breakdown for k, o in outcomes.items() if o.reward != 1.0 or o.abandoned}
    assert not failed


@pytest.mark.parametrize("emotion", ["anger", "fear", "sadness", "disgust", "enjoyment"])
async def test_gold_is_never_abandoned_by_high_intensity_users(emotion: str) -> None:
    outcomes = await run_all("gold", emotion, 0.9)
    assert not [k for k, o in outcomes.items() if o.abandoned]
    assert all(o.reward == 1.0 for o in outcomes.values())


async def test_angry_users_abandon_the_over_asker_on_most_tasks() -> None:
    outcomes = await run_all("over-asker", "anger", 0.9)
    abandoned = sum(o.abandoned for o in outcomes.values()) / len(outcomes)
    assert abandoned >= 0.7
    low = await run_all("over-asker", "anger", 0.3)
    assert sum(o.abandoned for o in low.values()) / len(low) < abandoned
    neutral = await run_all("over-asker", "neutral", 0.6)
    assert not any(o.abandoned for o in neutral.values())


async def test_sloppy_scores_visibly_lower() -> None:
    outcomes = await run_all("sloppy", "neutral", 0.6)
    mean = sum(o.reward for o in outcomes.values()) / len(outcomes)
    assert mean < 0.85


async def test_scripted_conversations_leave_no_garbage_cycles() -> None:
    """A cycle would keep each conversation's whole history alive until a full collection."""
    import gc

    domain = get_domain("retail")
    task = domain.tasks[0]
    names = ("scripted/gold", "scripted/over-asker", "scripted/sloppy")
    providers = {n: (make_agent_provider(n, {}), make_user_provider("scripted", {})) for n in names}
    for name in names:  # warm every cache first
        await play(domain, task, name, providers=providers[name])
    gc.collect()
    gc.disable()
    try:
        for name in names:
            for emotion in ("neutral", "anger"):
                outcome = await play(
                    domain, task, name, emotion=emotion, intensity=0.9, providers=providers[name]
                )
                assert outcome.ended in ("user_stop", "user_abandoned", "transfer")
        assert gc.collect() == 0
    finally:
        gc.enable()
