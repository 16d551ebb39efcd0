import msgspec
import pytest

from tau_sim.simulator.core import ToolCallSpec
from tau_sim.simulator.core.events import (
    EVENT_TYPES,
    AgentMessage,
    AssertionJudged,
    ChangedRecord,
    ConversationEnded,
    ConversationStarted,
    EmotionUpdate,
    EnvironmentState,
    ModelUsage,
    RewardBreakdown,
    ToolCall,
    ToolResult,
    UserMessage,
    UserToolCall,
    UserToolResult,
    decode,
    encode,
    kind_of,
)

SAMPLES = [
    ConversationStarted(
        conversation="c",
        run_id="r",
        task_id="t",
        domain="d",
        agent="a",
        user="u",
        emotion="anxiety",
        intensity=0.9,
        trial=1,
        seed=7,
    ),
    UserMessage(conversation="c", seq=1, ts=1.5, text="hi ###STOP###", ends="###STOP###"),
    AgentMessage(
        conversation="c",
        text=None,
        reasoning="<think>hm</think>",
        tool_calls=[ToolCallSpec("1", "get", {"x": [1, {"y": None}]})],
    ),
    ToolCall(conversation="c", call=ToolCallSpec("1", "get", {})),
    ToolResult(conversation="c", call_id="1", name="get", content="{}", error=True),
    UserToolCall(conversation="c", call=ToolCallSpec("u1", "restart_device", {"phone": "1"})),
    UserToolResult(conversation="c", call_id="u1", name="restart_device", content="Restarted."),
    EmotionUpdate(
        conversation="c",
        emotion="frustration",
        intensity=0.5,
        dissatisfaction=0.2,
        reason="friction",
        triggers=["lookupable_question:order_id"],
    ),
    ModelUsage(
        conversation="c",
        role="agent",
        backend="openai",
        model="openai/gpt",
        tokens_in=3,
        tokens_out=4,
        latency_s=0.2,
        retries=2,
        cost_usd=0.001,
    ),
    EnvironmentState(
        conversation="c",
        state_hash="ab12",
        changes=[
            ChangedRecord("orders", "#W1", {"status": "cancelled", "items": [1, 2]}),
            ChangedRecord("users", "u9", None),
        ],
    ),
    AssertionJudged(
        conversation="c",
        judge="openai/judge",
        assertion="The agent refuses the refund.",
        met=False,
        reason="it refunded",
    ),
    ConversationEnded(
        conversation="c",
        reason="user_stop",
        reward=1.0,
        breakdown=RewardBreakdown(True, 1.0, [], "a", "a"),
        turns=3,
        tool_calls=1,
        questions=1,
    ),
]


def test_every_kind_has_a_sample() -> None:
    assert {type(e) for e in SAMPLES} == set(EVENT_TYPES)


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: kind_of(e))
def test_round_trip(event) -> None:
    data = encode(event)
    assert msgspec.json.decode(data)["kind"] == kind_of(event)
    assert decode(data) == event


def test_events_are_frozen() -> None:
    with pytest.raises(AttributeError):
        SAMPLES[1].text = "changed"  # type: ignore[misc]


def test_unknown_kind_is_rejected() -> None:
    with pytest.raises(msgspec.ValidationError):
        decode(b'{"kind": "telepathy", "conversation": "c"}')


STORED_STARTS = [
    (
        ConversationStarted(
            conversation="c",
            seq=3,
            ts=1.25,
            run_id="r",
            task_id="t",
            domain="d",
            agent="a",
            user="u",
            emotion="anxiety",
            intensity=0.9,
            trial=1,
            seed=7,
            politeness="cold",
            urgency="high",
            trust="skeptical",
            refusal=True,
        ),
        b'{"kind":"conversation_started","run_id":"r","task_id":"t","domain":"d","agent":"a",'
        b'"user":"u","emotion":"anxiety","intensity":0.9,"trial":1,"seed":7,"politeness":"cold",'
        b'"urgency":"high","trust":"skeptical","refusal":true,"conversation":"c","seq":3,'
        b'"ts":1.25}',
    ),
    (
        ConversationStarted(
            conversation="c",
            run_id="r",
            task_id="t",
            domain="d",
            agent="a",
            user="u",
            emotion="neutral",
            intensity=0.0,
            trial=0,
            seed=7,
            trust="trusting",
        ),
        b'{"kind":"conversation_started","run_id":"r","task_id":"t","domain":"d","agent":"a",'
        b'"user":"u","emotion":"neutral","intensity":0.0,"trial":0,"seed":7,"trust":"trusting",'
        b'"conversation":"c"}',
    ),
]
"""Starts with the bytes the code before ``Condition`` (commit 5bff4b5) wrote for them."""


@pytest.mark.parametrize(("event", "stored"), STORED_STARTS)
def test_a_start_encodes_as_stores_before_condition_hold_it(
    event: ConversationStarted, stored: bytes
) -> None:
    assert encode(event) == stored
    assert decode(stored) == event
    condition = event.condition
    assert (condition.emotion, condition.intensity) == (event.emotion, event.intensity)
    assert condition.levels == {
        "politeness": event.politeness,
        "urgency": event.urgency,
        "trust": event.trust,
    }
