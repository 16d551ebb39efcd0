"""End-to-end checks of the scripted agents and user on the retail benchmark tasks."""

import os

import pytest

from simulator.registry import get_domain, make_model_provider, make_user_provider
from tests.agents.dialog import Outcome, context, play

pytestmark = pytest.mark.anyio

TASKS_FILE = os.path.join(os.path.dirname(__file__), "..", "..", "domains", "retail", "tasks.jsonl")
if not os.path.exists(TASKS_FILE):
    pytest.skip("domains/retail/tasks.jsonl is not there yet", allow_module_level=True)


async def run_all(agent: str, emotion: str, intensity: float, **args: str) -> dict[str, Outcome]:
    domain = get_domain("retail")
    provider = make_model_provider(f"scripted/{agent}", dict(args))
    users = make_user_provider("scripted", {})
    outcomes = {}
    for task in domain.tasks:
        ctx = context(domain, task, emotion, intensity, seed=3)
        model = provider.for_conversation(ctx, "agent")
        outcomes[task.id] = await play(domain, task, model, users.for_conversation(ctx))
    return outcomes


async def test_oracle_scores_one_on_every_task_with_a_neutral_user() -> None:
    outcomes = await run_all("oracle", "neutral", 0.6)
    failed = {k: o.breakdown for k, o in outcomes.items() if o.reward != 1.0 or o.abandoned}
    assert not failed


@pytest.mark.parametrize("emotion", ["anger", "fear", "sadness", "disgust", "enjoyment"])
async def test_oracle_is_never_abandoned_by_high_intensity_users(emotion: str) -> None:
    outcomes = await run_all("oracle", emotion, 0.9)
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
