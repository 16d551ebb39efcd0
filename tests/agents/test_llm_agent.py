"""The LLM agent: system prompt, tools, a real tool call, and the answer key kept from models."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import anyio
import msgspec
import pytest

from benchmarks.fake_openai_server import HTTPServer, Request, Response
from tau_sim.agents.llm import LLMAgentProvider, ToolCallingAgent, make_llm_agent, system_prompt
from tau_sim.simulator.core import Condition
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
from tests.helpers import cli
from tests.helpers.servers import InThread, ScriptServer
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
        condition=Condition(emotion="neutral", intensity=0.5),
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


def test_an_agent_told_its_arguments_are_not_an_object_fixes_them(tmp_path) -> None:
    """The real ``tau-sim run``: an LLM agent (OpenAI provider, a test endpoint) first sends a
    list as a tool's arguments, reads "must be a JSON object" in its tool message, then sends
    the object and gets the order; the stored call keeps the model's text as it was."""
    task = get_domain("retail").tasks[0]
    order = next(a for a in task.actions if a.name == "get_order_details").arguments["order_id"]
    bad, good = json.dumps([order]), json.dumps({"order_id": order})

    async def agent(request: Request) -> Response:
        if request.method == "GET":  # the preflight's model list
            return Response.json({"object": "list", "data": []})
        tools = [m for m in request.json()["messages"] if m["role"] == "tool"]
        if not tools:
            return oa_message(tool_calls=[("get_order_details", bad)])
        if len(tools) == 1 and "must be a JSON object" in tools[0]["content"]:
            return oa_message(tool_calls=[("get_order_details", good)])
        return oa_message(f"Order {order} is {'found' if len(tools) == 2 else 'unknown'}.")

    db = tmp_path / "fix.db"
    with InThread(HTTPServer(agent)) as server:
        cli.tau_sim(
            *("run", "--domain", "retail", "--tasks", task.id, "--trials", "1"),
            *("--emotions", "neutral", "--max-steps", "8", "--db", str(db), "--quiet"),
            *("--agent", "openai/m", "--agent-arg", f"base_url={server.url}/v1"),
            *("--agent-arg", "max_retries=0"),
            clean=True,
        )
        chats = [r.json() for r in server.requests if r.method == "POST"]
    told = [[m["content"] for m in b["messages"] if m["role"] == "tool"] for b in chats]
    assert told[1] == [
        "Error: arguments of `get_order_details` must be a JSON object (the tool takes: "
        f"order_id); got a JSON array: {bad}"
    ]
    assert f'"order_id":"{order}"' in told[2][1] and not told[2][1].startswith("Error")
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "select kind, payload from events where kind in ('tool_call', 'tool_result') order by seq"
    ).fetchall()
    conn.close()
    events = [(kind, json.loads(payload)) for kind, payload in rows]
    assert [kind for kind, _ in events[:4]] == ["tool_call", "tool_result"] * 2
    assert events[0][1]["call"]["arguments"] == {"__raw__": bad}  # stored as the model wrote it
    assert [e.get("error", False) for _, e in events[1:4:2]] == [True, False]
    assert events[1][1]["content"] == told[1][0]
