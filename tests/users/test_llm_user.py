"""The LLM emotional user: prompt, role flip, structured replies and their fallback parser."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from tau_sim.simulator.core import Condition
from tau_sim.simulator.core.chat import ChatMessage, ChatResponse, ToolSpec, Usage
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import USERS
from tau_sim.simulator.core.roles import EMPTY_TURN, STOP, UNSATISFIED
from tau_sim.simulator.world.views import ConversationContext, user_view
from tau_sim.users.llm import (
    REPLY_RESERVE,
    REPLY_SCHEMA,
    LLMUser,
    canonical_reason,
    flip,
    make_llm_user,
    parse_reply,
)
from tests.helpers.servers import ScriptServer
from tests.helpers.wire import oa_message
from tests.simulator.toy import toy_domain

pytestmark = pytest.mark.anyio


def context(emotion: str = "frustration", intensity: float = 0.8) -> ConversationContext:
    domain = toy_domain()
    return ConversationContext(
        conversation_id="c1",
        run_id="r1",
        task=domain.tasks[1],
        domain=domain,
        condition=Condition(emotion=emotion, intensity=intensity),
        trial=0,
        seed=7,
    )


class CannedModel:
    """A chat model answering a fixed list of texts; records what it was sent."""

    name = "test/canned"
    backend = "test"

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.calls: list[tuple[list[ChatMessage], dict[str, Any] | None]] = []

    async def chat(
        self,
        messages: list[ChatMessage],
        tools: list[ToolSpec],
        *,
        response_format: dict[str, Any] | None = None,
    ) -> ChatResponse:
        self.calls.append((messages, response_format))
        text = self.answers.pop(0)
        return ChatResponse(ChatMessage("assistant", text), Usage(tokens_in=10, tokens_out=5))

    async def aclose(self) -> None:
        pass


def test_prompt_states_the_conditions_levels() -> None:
    levels = Condition(
        emotion="frustration", intensity=0.8, politeness="warm", urgency="low", trust="skeptical"
    )
    ctx = msgspec.structs.replace(context(), condition=levels)
    prompt = LLMUser(CannedModel(), user_view(ctx)).system.content or ""
    assert "politeness is warm" in prompt and "urgency is low" in prompt
    assert "trust in the agent is skeptical" in prompt and "went through" in prompt
    # unset levels are the leaf's own (frustration at 0.8: high urgency, one step colder)
    own = LLMUser(CannedModel(), user_view(context())).system.content or ""
    assert "politeness is cold" in own and "urgency is high" in own


def test_registered() -> None:
    assert USERS["llm"] is make_llm_user


def test_prompt_has_the_scenario_and_emotion_but_never_the_gold() -> None:
    ctx = context()
    user = LLMUser(CannedModel(), user_view(ctx))
    prompt = user.system.content or ""
    scenario = ctx.task.scenario
    assert scenario.goal in prompt and scenario.opening in prompt
    for value in scenario.known_info.values():
        assert value in prompt
    assert "frustration" in prompt and "anger" in prompt and "high" in prompt
    assert "politeness" in prompt.lower() and "urgency" in prompt and "trust" in prompt
    assert "increment" not in prompt  # gold action
    for output in ctx.task.required_outputs:
        assert output not in prompt
    assert all(reason in prompt for reason in ("dismissive tone", "emotional neglect"))


def test_unknown_emotion_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown emotion"):
        LLMUser(CannedModel(), user_view(context("glee")))


def test_flip_swaps_roles_and_drops_tokens() -> None:
    flipped = flip(
        [
            ChatMessage("user", "Add 2 to counter a."),
            ChatMessage("assistant", "Which counter?"),
            ChatMessage("assistant", None),
            ChatMessage("user", "Bye ###STOP###"),
        ]
    )
    assert [(m.role, m.content) for m in flipped[1:]] == [
        ("assistant", "Add 2 to counter a."),
        ("user", "Which counter?"),
        ("assistant", "Bye"),
    ]
    assert flipped[0].role == "user"  # the kickoff: chat APIs want a user message first


def test_parse_json_reply() -> None:
    text = json.dumps(
        {"message": "Still nothing?!", "intensity": 0.9, "dissatisfaction": 0.7, "ends": None}
    )
    reply = parse_reply(text, 0.5, 0.1)
    assert (reply.message, reply.intensity, reply.dissatisfaction, reply.ends) == (
        "Still nothing?!",
        0.9,
        0.7,
        None,
    )
    assert reply.structured


def test_a_raw_line_break_inside_the_message_is_still_the_json_reply() -> None:
    # what SmolLM2-135M wrote for the long-window test: a line break JSON does not allow
    text = '{"message":"Where is order 7569?\nIt is late.","intensity": 0.90, "ends" : null}'
    reply = parse_reply(text, 0.5, 0.1)
    assert reply.structured and reply.message == "Where is order 7569?\nIt is late."
    assert (reply.intensity, reply.dissatisfaction, reply.ends) == (0.9, 0.1, None)


def test_parse_fenced_json_with_scales_and_abandonment() -> None:
    text = (
        "Here you go:\n```json\n"
        '{"message": "Forget it.", "intensity": "8", "dissatisfaction": 95, '
        '"ends": "###UNSATISFIED###", "reason": "the agent kept asking me the same thing"}\n```'
    )
    reply = parse_reply(text, 0.5, 0.1)
    assert reply.message == "Forget it."
    assert (reply.intensity, reply.dissatisfaction) == (0.8, 0.95)
    assert reply.ends == UNSATISFIED
    assert reply.reason == "procedural friction"


def test_parse_plain_text_fallback_keeps_previous_state() -> None:
    reply = parse_reply("Thanks, that's all! ###STOP###", 0.6, 0.2)
    assert (reply.message, reply.ends, reply.structured) == ("Thanks, that's all!", STOP, False)
    assert (reply.intensity, reply.dissatisfaction) == (0.6, 0.2)
    angry = parse_reply("You clearly don't care. ###UNSATISFIED###", 0.6, 0.2)
    assert angry.ends == UNSATISFIED and angry.reason == "procedural friction"
    cold = parse_reply("You ignored that I'm scared. ###UNSATISFIED###", 0.6, 0.2)
    assert cold.reason == "ignored cues"


def test_reason_names() -> None:
    assert canonical_reason("Dismissive tone") == "dismissive tone"
    assert canonical_reason("no empathy at all") == "emotional neglect"
    assert canonical_reason("rude agent") == "dismissive tone"
    assert canonical_reason("weather") == ""


async def test_turns_report_state_and_end() -> None:
    model = CannedModel(
        json.dumps({"message": "Please add 2 to a.", "intensity": 0.8, "dissatisfaction": 0.0}),
        json.dumps(
            {"message": "Great, thanks!", "intensity": 0.3, "dissatisfaction": 0.1, "ends": "STOP"}
        ),
    )
    user = LLMUser(model, user_view(context()))
    first = await user.respond([])
    assert first.text == "Please add 2 to a." and first.ends is None
    assert first.state is not None and first.state.emotion == "frustration"
    assert first.model == "test/canned" and first.usage == Usage(tokens_in=10, tokens_out=5)
    sent, response_format = model.calls[0]
    assert sent[0].role == "system" and sent[-1].role == "user"
    assert response_format == {"type": "json_object", "schema": REPLY_SCHEMA}

    transcript = [
        ChatMessage("user", first.text),
        ChatMessage("assistant", "Done: counter a is 2."),
    ]
    last = await user.respond(transcript)
    assert last.ends == STOP and last.text == f"Great, thanks! {STOP}"
    assert last.state is not None
    assert (last.state.intensity, last.state.dissatisfaction) == (0.3, 0.1)
    roles = [m.role for m in model.calls[1][0]]
    assert roles == ["system", "user", "assistant", "user"]


async def test_an_empty_answer_is_asked_again_once() -> None:
    model = CannedModel('{"intensity": 0.5}', '{"message": "Hello?", "intensity": 0.5}')
    turn = await LLMUser(model, user_view(context())).respond([])
    assert turn.text == "Hello?"
    assert turn.usage is not None and turn.usage.tokens_in == 20  # both calls counted
    assert "JSON" in (model.calls[1][0][-1].content or "")
    assert turn.state is not None and turn.state.triggers == ["repaired_reply"]  # a repair used


async def test_a_turn_without_a_message_even_after_the_repair_is_an_empty_turn() -> None:
    model = CannedModel('{"intensity": 0.5}', "")
    turn = await LLMUser(model, user_view(context())).respond([])
    assert turn.text == EMPTY_TURN and turn.ends is None  # failures.py reads it as user_error
    assert turn.state is not None and "repaired_reply" in turn.state.triggers


async def test_through_the_openai_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    async with ScriptServer() as server:
        reply = {"message": "Hi, add 2 to a please.", "intensity": 0.7, "dissatisfaction": 0.05}
        server.then(oa_message(json.dumps(reply), reasoning_content="I am annoyed."))
        provider = make_llm_user(
            "openai/user-model",
            {"base_url": server.url + "/v1", "temperature": "1.0", "repair": "false"},
        )
        async with provider:
            user = provider.for_conversation(user_view(context()))
            turn = await user.respond([])
        assert turn.text == "Hi, add 2 to a please."
        assert turn.model == "openai/user-model"
        assert turn.state is not None and turn.state.intensity == 0.7
        body = server.bodies()[0]
        assert body["response_format"] == {"type": "json_object"}
        assert body["temperature"] == 1.0
        assert "annoyed" not in msgspec.json.encode(turn).decode()


async def test_a_long_conversation_is_cut_to_the_latest_messages_that_fit_the_window() -> None:
    reply = json.dumps({"message": "Go on.", "intensity": 0.5, "dissatisfaction": 0.1})
    transcript = []
    for i in range(60):
        transcript += [
            ChatMessage("user", f"customer {i}: " + "x" * 300),
            ChatMessage("assistant", f"agent {i}: " + "y" * 300),
        ]
    model = CannedModel(reply, reply)
    await LLMUser(model, user_view(context()), context_tokens=3000).respond(transcript)
    sent = model.calls[0][0]
    assert sent[0].role == "system" and "left out" in (sent[1].content or "")
    assert sent[-1].content == transcript[-1].content  # the agent's last message, as "user"
    kept = [m.content for m in sent[2:]]
    assert kept == [m.content for m in transcript[-len(kept) :]]  # the latest, in order
    chars = sum(len(m.content or "") for m in sent)
    assert chars / 3 + 4 * len(sent) <= 3000 - REPLY_RESERVE
    assert 3 < len(sent) < 40
    await LLMUser(model, user_view(context())).respond(transcript)  # no window: everything
    assert len(model.calls[1][0]) == 2 + len(transcript)
