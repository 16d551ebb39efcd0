"""One conversation end to end on the toy domain: routing, referee reasons, rewards."""

import pytest

from tau_sim.simulator.core import Condition
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.events import (
    AgentMessage,
    ConversationEnded,
    EmotionUpdate,
    EnvironmentState,
    ModelUsage,
    ToolCall,
    ToolResult,
    UserMessage,
)
from tau_sim.simulator.core.registry import USERS, make_agent_provider
from tau_sim.simulator.engine.bus import Bus, LiveFeed
from tau_sim.simulator.engine.conversation import run_conversation
from tau_sim.simulator.run import make_agent
from tau_sim.simulator.world.domain import Task
from tau_sim.simulator.world.views import AnswerKey, ConversationContext, answer_key, user_view
from tests.simulator.toy import install, toy_domain

pytestmark = pytest.mark.anyio
DEFAULT_LIMITS = Limits()


def key_of(task: Task) -> AnswerKey:
    return answer_key(toy_domain(), task)


async def play(
    agent: str = "gold", emotion: str = "neutral", limits: Limits = DEFAULT_LIMITS, task: int = 1
):
    install()
    domain = toy_domain()
    ctx = ConversationContext(
        conversation_id="c1",
        run_id="r",
        task=domain.tasks[task],
        domain=domain,
        condition=Condition(emotion=emotion, intensity=0.9),
        trial=0,
        seed=1,
    )
    feed = LiveFeed()
    toy = make_agent_provider(f"toy/{agent}", {})
    user = USERS["patient"]("patient", {}).for_conversation(user_view(ctx))
    ended = await run_conversation(
        ctx, make_agent(toy, ctx, key_of), f"toy/{agent}", user, "patient", Bus([feed]), limits
    )
    return ended, feed.drain()


async def test_gold_agent_succeeds_and_events_flow_in_order() -> None:
    ended, events = await play()
    assert ended.reason == "user_stop" and ended.reward == 1.0
    assert [e.seq for e in events] == list(range(len(events)))
    kinds = [type(e).__name__ for e in events]
    assert kinds[:3] == ["ConversationStarted", "ModelUsage", "UserMessage"]
    assert kinds[-1] == "ConversationEnded"
    calls = [e for e in events if isinstance(e, ToolCall)]
    results = [e for e in events if isinstance(e, ToolResult)]
    assert [c.call.name for c in calls] == ["get_counter", "increment"]
    assert [r.call_id for r in results] == [c.call.id for c in calls]
    assert results[1].content == '{"value":2}'
    assert ended.tool_calls == 2 and ended.turns == 5
    assert sum(isinstance(e, ModelUsage) for e in events) == 5
    assert any(isinstance(e, EmotionUpdate) for e in events)
    # reasoning and tool traffic never reach the user: the user saw only texts
    texts_to_user = [e for e in events if isinstance(e, AgentMessage) and not e.tool_calls]
    assert len(texts_to_user) == 1


async def test_abandonment_is_a_failure_even_with_correct_state() -> None:
    ended, events = await play(emotion="outrage")
    assert ended.reason == "user_abandoned" and ended.reward == 0.0
    assert ended.breakdown is not None and ended.breakdown.db_match
    assert isinstance(events[-3], UserMessage) and events[-3].ends == "###UNSATISFIED###"
    assert isinstance(events[-2], EnvironmentState)  # the environment's final state


async def test_transfer_ends_the_conversation() -> None:
    ended, _ = await play(agent="transfer", task=0)
    assert ended.reason == "transfer"
    assert ended.reward == 0.0  # the task needed an increment and outputs


async def test_max_steps() -> None:
    ended, _ = await play(agent="silent", limits=Limits(max_steps=6))
    # the patient user stops after the first agent text; silent agent loses nothing here
    assert ended.reason == "user_stop"
    ended, _ = await play(agent="bad-tool", limits=Limits(max_steps=6))
    assert ended.reason == "max_steps" and ended.turns == 6 and ended.reward == 0.0


async def test_too_many_tool_errors() -> None:
    ended, events = await play(agent="bad-tool", limits=Limits(max_tool_errors=3))
    assert ended.reason == "too_many_tool_errors"
    errors = [e for e in events if isinstance(e, ToolResult) and e.error]
    assert len(errors) == 4 and "`name` must be a string, got 42" in errors[0].content


async def test_model_error_ends_with_reason() -> None:
    ended, _ = await play(agent="broken")
    assert ended.reason == "model_error" and "HTTP 500" in ended.detail


async def test_endpoint_error_is_an_infrastructure_ending() -> None:
    ended, events = await play(agent="unreachable")
    assert (ended.reason, ended.reward) == ("infra_error", 0.0)
    assert ended.detail == "agent: [connection error] connection error: refused"
    assert isinstance(events[-1], ConversationEnded) and events[-1].reason == "infra_error"


async def test_timeout() -> None:
    install()
    domain = toy_domain()
    ctx = ConversationContext(
        conversation_id="c",
        run_id="r",
        task=domain.tasks[0],
        domain=domain,
        condition=Condition(emotion="neutral", intensity=0),
        trial=0,
        seed=1,
    )
    toy = make_agent_provider("toy/gold", {"latency": "5"})
    user = USERS["patient"]("patient", {}).for_conversation(user_view(ctx))
    agent = make_agent(toy, ctx, key_of)
    ended = await run_conversation(
        ctx, agent, "toy/gold", user, "patient", Bus(), Limits(timeout_s=0.2)
    )
    # the deadline passed while the agent's model call was still out: the endpoint's failure
    assert ended.reason == "infra_error" and ended.reward == 0.0
    assert ended.detail.startswith("agent: [timeout]") and "0.2 s deadline" in ended.detail
