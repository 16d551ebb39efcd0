import pytest

from tests.agents.dialog import play
from tests.agents.toy_domain import TASKS, gym

pytestmark = pytest.mark.anyio

DOMAIN = gym()
EMOTIONS = ["neutral", "anger", "fear", "sadness", "disgust", "enjoyment"]


async def run(agent: str, task_index: int, emotion: str, intensity: float, **args: str):  # type: ignore[no-untyped-def]
    return await play(
        DOMAIN,
        TASKS[task_index],
        f"scripted/{agent}",
        emotion=emotion,
        intensity=intensity,
        seed=7,
        agent_args=dict(args),
    )


@pytest.mark.parametrize("emotion", EMOTIONS)
@pytest.mark.parametrize("task_index", range(len(TASKS)))
async def test_gold_succeeds_whatever_the_emotion(emotion: str, task_index: int) -> None:
    for intensity in (0.3, 0.9):
        outcome = await run("gold", task_index, emotion, intensity)
        assert outcome.reward == 1.0, outcome.breakdown
        assert not outcome.abandoned
        assert outcome.ended in ("user_stop", "transfer")
        assert not any(
            t.startswith(("lookupable_question", "repeated_question")) for t in outcome.triggers
        )


async def test_over_asker_is_abandoned_by_an_angry_user_but_not_by_neutral() -> None:
    angry = await run("over-asker", 0, "anger", 0.9)
    assert angry.abandoned and angry.reward == 0.0
    assert any(t.startswith("lookupable_question") for t in angry.triggers)
    neutral = await run("over-asker", 0, "neutral", 0.9)
    assert not neutral.abandoned and neutral.reward == 1.0


async def test_sloppy_fails_when_it_errs() -> None:
    outcome = await run("sloppy", 0, "neutral", 0.6, error_rate="1")
    assert outcome.reward == 0.0
    assert not outcome.breakdown.db_match
    assert outcome.breakdown.missing_outputs == ["$40.00"]
