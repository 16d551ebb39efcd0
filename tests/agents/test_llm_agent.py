"""The LLM agent: system prompt, tools, and a real tool call through the openai provider."""

from __future__ import annotations

import pytest

from agents.llm import ToolCallingAgent, make_agent, system_prompt
from simulator.chat import ChatMessage
from simulator.context import ConversationContext
from simulator.models.openai_provider import OpenAIChatModel
from simulator.registry import AGENTS
from tests.simulator.models.wire import ScriptServer, oa_message
from tests.simulator.toy import toy_domain

pytestmark = pytest.mark.anyio


def context() -> ConversationContext:
    domain = toy_domain()
    return ConversationContext(
        conversation_id="c1",
        run_id="r1",
        task=domain.tasks[0],
        domain=domain,
        emotion="neutral",
        intensity=0.5,
        trial=0,
        seed=1,
    )


def test_registered() -> None:
    assert AGENTS["llm"] is make_agent


def test_prompt_is_preamble_then_policy() -> None:
    ctx = context()
    prompt = system_prompt(ctx)
    assert prompt.startswith("You are a customer-service agent of Counters")
    assert prompt.endswith(ctx.domain.policy)
    assert "`transfer_to_human_agents`" in prompt
    assert ctx.task.scenario.goal not in prompt  # the agent never sees the user's scenario


async def test_agent_calls_a_tool_through_the_openai_provider() -> None:
    ctx = context()
    async with ScriptServer() as server:
        server.then(oa_message(tool_calls=[("get_counter", '{"name": "a"}')]))
        model = OpenAIChatModel("openai/m", "m", base_url=server.url + "/v1")
        agent = make_agent(model, ctx)
        assert isinstance(agent, ToolCallingAgent)
        response = await agent.respond([ChatMessage("user", "What is counter a?")])
        await model.aclose()
    call = response.message.tool_calls[0]
    outcome = ctx.domain.toolkit.call(ctx.domain.new_database(), call.name, call.arguments)
    assert not outcome.error and '"value":0' in outcome.content
    body = server.bodies()[0]
    assert [t["function"]["name"] for t in body["tools"]] == [
        "get_counter",
        "increment",
        "transfer_to_human_agents",
    ]
    assert body["messages"][0]["role"] == "system"
    assert body["messages"][0]["content"].endswith("Be a counter clerk.")
