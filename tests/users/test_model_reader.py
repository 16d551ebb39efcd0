"""The model reader: a chat model (an OpenAI endpoint on 127.0.0.1) reads agent texts into acts."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tau_sim.simulator.core import Condition, get_domain, load_plugins
from tau_sim.simulator.core.chat import ChatMessage
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.roles import UNSTRUCTURED_REPLY, UserTurn
from tau_sim.simulator.world.views import ConversationContext, user_view
from tau_sim.users.model_reader import ReadActs, parsed, schema
from tau_sim.users.scripted import ScriptedUserProvider, make_scripted_user
from tests.helpers.servers import ScriptServer
from tests.helpers.wire import oa_message

pytestmark = pytest.mark.anyio

NOTHING: dict[str, Any] = {
    "asks": [],
    "confirms": False,
    "done": False,
    "refuses": False,
    "closes": False,
    "transfers": False,
    "acknowledges": False,
    "steps": [],
    "asks_other": False,
}


def context() -> ConversationContext:
    load_plugins(["retail"])
    domain = get_domain("retail")
    task = next(t for t in domain.tasks if t.id == "retail-048")
    return ConversationContext(
        conversation_id="c1",
        run_id="r1",
        task=task,
        domain=domain,
        condition=Condition(emotion="neutral", intensity=0.5),
        trial=0,
        seed=3,
    )


async def converse(url: str, agent_text: str) -> tuple[UserTurn, ScriptedUserProvider]:
    """The scripted user's opening, then its answer to ``agent_text``, read by the model."""
    provider = make_scripted_user("scripted", {"reader": "openai/reader", "base_url": url})
    async with provider:
        user = provider.for_conversation(user_view(context()))
        opening = await user.respond([])
        transcript = [
            ChatMessage("user", opening.text),
            ChatMessage("assistant", agent_text),
        ]
        return await user.respond(transcript), provider


async def test_the_users_answer_follows_the_acts_the_model_read() -> None:
    # words the rules place nowhere: only the model's reading makes it a request for the email
    text = "To look you up, the address we write to you at would be the quickest route."
    async with ScriptServer() as server:
        server.then(oa_message(json.dumps({**NOTHING, "asks": ["email"]}), usage=(120, 30)))
        turn, _ = await converse(server.url + "/v1", text)
        body = server.bodies()[0]
    email = context().task.scenario.known_info["email"]
    assert email in turn.text
    assert turn.model == "openai/reader" and turn.usage is not None
    assert (turn.usage.tokens_in, turn.usage.tokens_out) == (120, 30)
    assert turn.state is not None and UNSTRUCTURED_REPLY not in turn.state.triggers
    system, user = body["messages"]
    assert user["content"] == text
    assert "- email: your email address" in system["content"]  # the user's facts, named
    assert body["response_format"]["type"] == "json_object"


@pytest.mark.parametrize(
    "answer",
    [
        "I think it asks for the email.",  # no JSON
        json.dumps({**NOTHING, "asks": ["passport"]}),  # a slot the user does not have
        json.dumps({**NOTHING, "confirms": "yes"}),  # a wrong type
        json.dumps({k: v for k, v in NOTHING.items() if k != "done"}),  # a key missing
    ],
)
async def test_a_malformed_answer_falls_back_to_the_rules_and_is_recorded(answer: str) -> None:
    text = "Could you tell me the email address on your account?"
    async with ScriptServer() as server:
        server.then(oa_message(answer))
        turn, _ = await converse(server.url + "/v1", text)
    email = context().task.scenario.known_info["email"]
    assert email in turn.text  # the rule reader read the question
    assert turn.state is not None and UNSTRUCTURED_REPLY in turn.state.triggers


def test_answers_are_checked_against_the_users_names() -> None:
    slots, steps = ["email", "zip"], ["restart_device"]
    good = parsed(
        json.dumps({**NOTHING, "asks": ["zip"], "steps": ["restart_device"]}), slots, steps
    )
    assert good == ReadActs(**{**NOTHING, "asks": ["zip"], "steps": ["restart_device"]})
    fenced = "```json\n" + json.dumps(NOTHING) + "\n```"
    assert parsed(fenced, slots, steps) is not None
    assert parsed(json.dumps({**NOTHING, "steps": ["reboot"]}), slots, steps) is None
    assert parsed(json.dumps({**NOTHING, "extra": 1}), slots, steps) is None
    shape = schema(slots, steps)
    assert shape["properties"]["asks"]["items"]["enum"] == slots
    assert sorted(shape["required"]) == sorted(NOTHING)


def test_options_of_a_model_go_to_its_provider_and_are_refused_without_one() -> None:
    with pytest.raises(UsageError, match="base_url"):
        make_scripted_user("scripted", {"base_url": "http://127.0.0.1:1/v1"})
    with pytest.raises(UsageError, match="nosuch"):
        make_scripted_user("scripted", {"reader": "nosuch/model"})
