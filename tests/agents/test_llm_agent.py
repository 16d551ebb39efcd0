"""The LLM agent: system prompt, tools, a real tool call, and the answer key kept from models."""

from __future__ import annotations

from typing import Any

import anyio
import msgspec
import pytest

from tau_sim.agents.llm import LLMAgentProvider, ToolCallingAgent, make_llm_agent, system_prompt
from tau_sim.simulator.core.chat import ChatMessage, ChatResponse, ToolSpec, Usage
from tau_sim.simulator.core.registry import (
    AGENTS,
    MODELS,
    NothingToStart,
    get_domain,
    make_agent_provider,
)
from tau_sim.simulator.grid import RunConfig
from tau_sim.simulator.models.openai_provider import OpenAIChatModel
from tau_sim.simulator.results.metrics import run_report
from tau_sim.simulator.run import Runner
from tau_sim.simulator.store import Store, get_run
from tau_sim.simulator.world.domain import Task
from tau_sim.simulator.world.views import ConversationContext, agent_view
from tests.helpers.servers import ScriptServer
from tests.helpers.wire import oa_message
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
    assert AGENTS["llm"] is make_llm_agent


def test_prompt_is_preamble_then_policy() -> None:
    ctx = context()
    prompt = system_prompt(agent_view(ctx))
    assert prompt.startswith("You are a customer-service agent of Counters")
    assert prompt.endswith(ctx.domain.policy)
    assert "`transfer_to_human_agents`" in prompt
    assert ctx.task.scenario.goal not in prompt  # the agent never sees the user's scenario


async def test_agent_calls_a_tool_through_the_openai_provider() -> None:
    ctx = context()
    async with ScriptServer() as server:
        server.then(oa_message(tool_calls=[("get_counter", '{"name": "a"}')]))
        model = OpenAIChatModel("openai/m", "m", base_url=server.url + "/v1")
        agent = ToolCallingAgent(model, agent_view(ctx))
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


class Recording:
    """Every call a model provider gets: what ``for_conversation`` and ``chat`` were handed."""

    handed: list[tuple[Any, ...]] = []
    calls: list[tuple[str, list[ChatMessage], list[ToolSpec]]] = []


class RecordingModel:
    """Agent role: one polite text. User role: opens, then stops (a JSON reply as users ask)."""

    backend = "record"

    def __init__(self, role: str) -> None:
        self.name = f"record/{role}"
        self.role = role
        self.turns = 0

    async def chat(
        self, messages: list[ChatMessage], tools: list[ToolSpec], *, response_format: Any = None
    ) -> ChatResponse:
        Recording.calls.append((self.role, list(messages), list(tools)))
        self.turns += 1
        if self.role == "agent":
            text = "I can help with that. What else would you like to tell me?"
        elif self.turns == 1:
            text = '{"message": "Hello, I need help with my order.", "ends": null}'
        else:
            text = '{"message": "Thanks, bye.", "ends": "###STOP###"}'
        return ChatResponse(ChatMessage(role="assistant", content=text), Usage(1, 1))

    async def aclose(self) -> None:
        return None


class RecordingProvider(NothingToStart):
    def __init__(self, model: str, args: dict[str, Any]) -> None:
        self.name = f"record/{model}"

    def for_conversation(self, *handed: Any) -> RecordingModel:
        Recording.handed.append(handed)
        return RecordingModel(handed[1])


def test_no_model_provider_or_agent_prompt_ever_sees_the_answer_key(tmp_path) -> None:
    domain = get_domain("retail")
    # tasks whose required outputs are secrets: not words of the policy, the tools or the scenario
    public = msgspec.json.encode([domain.policy, domain.toolkit.specs])

    def secret(task: Task) -> bool:
        said = public + msgspec.json.encode(task.scenario)
        return all(o.encode() not in said for o in task.required_outputs)

    tasks = [t for t in domain.tasks if t.required_outputs and secret(t)][:6]
    assert len(tasks) == 6
    MODELS.add("record", RecordingProvider)
    Recording.handed.clear()
    Recording.calls.clear()
    try:
        config = RunConfig(
            domains=["retail"],
            tasks=[t.id for t in tasks],
            agents=["record/agent"],
            users=["record/user"],
            emotions=["neutral", "anger"],
            intensities=[0.9],
        )
        store = Store(tmp_path / "r.db")
        assert isinstance(make_agent_provider("record/agent", {}), LLMAgentProvider)
        anyio.run(Runner(store, config, "run-r", create=True).run)
    finally:
        MODELS.remove("record")

    # a model-backed agent is a benchmark subject, not a calibration agent
    assert run_report(store.db, get_run(store.db, "run-r"))["calibration_agents"] == []
    # providers are handed a conversation id and a role, nothing else
    assert len(Recording.handed) == 24
    for handed in Recording.handed:
        assert [type(x) for x in handed] == [str, str] and handed[1] in ("agent", "user")

    agent_calls = [(m, t) for role, m, t in Recording.calls if role == "agent"]
    user_calls = [m for role, m, _ in Recording.calls if role == "user"]
    assert len(agent_calls) == 12 and len(user_calls) == 24
    # the agent's prompt and tools are the same bytes for every task: a function of the domain
    prompts = {msgspec.json.encode([m[0], t]) for m, t in agent_calls}
    assert len(prompts) == 1
    everything = b"".join(msgspec.json.encode([m, t]) for m, t in agent_calls)
    everything += b"".join(msgspec.json.encode(m) for m in user_calls)
    for task in tasks:
        for output in task.required_outputs:
            assert output.encode() not in everything, (task.id, output)
        for action in task.actions:
            assert msgspec.json.encode(action.arguments) not in everything, (task.id, action)
            encoded = msgspec.json.encode(action)
            assert encoded not in everything
    # and the user model did see its scenario
    goals = {m[0].content for m in user_calls}
    assert all(any(t.scenario.goal in (g or "") for g in goals) for t in tasks)
