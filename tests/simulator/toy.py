"""A tiny domain and scripted roles for engine tests (the product's scripted actors live in
agents/ and users/; these exist so engine tests control every turn).

The ``toy/*`` agents are calibration agents (like ``scripted/gold``): they read the task's answer
key through an ``AnswerKey``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import anyio
import msgspec

from tau_sim.simulator.core.chat import (
    ChatMessage,
    ChatResponse,
    EndpointError,
    ModelError,
    ToolCallSpec,
    Usage,
)
from tau_sim.simulator.core.endings import TerminationReason
from tau_sim.simulator.core.events import EmotionUpdate
from tau_sim.simulator.core.registry import AGENTS, DOMAINS, USERS, NothingToStart
from tau_sim.simulator.core.roles import STOP, UNSATISFIED, UserTurn
from tau_sim.simulator.grid import RunConfig
from tau_sim.simulator.world.database import Base, Database
from tau_sim.simulator.world.domain import Action, Domain, Task, UserScenario
from tau_sim.simulator.world.slots import SlotHint
from tau_sim.simulator.world.tools import ToolError, ToolKind, Toolkit, tool
from tau_sim.simulator.world.views import AgentView, AnswerKey, UserView


class Counter(msgspec.Struct, frozen=True):
    value: int


@tool(ToolKind.READ)
def get_counter(db: Database, name: str) -> Counter:
    """Read a counter.

    Args:
        name: The counter's name.
    """
    record = db.get("counters", name)
    if record is None:
        raise ToolError(f"no counter {name!r}")
    return record


@tool(ToolKind.WRITE)
def increment(db: Database, name: str, by: int = 1) -> Counter:
    """Add to a counter.

    Args:
        name: The counter's name.
        by: How much to add.
    """
    record = get_counter.fn(db, name)
    new = Counter(record.value + by)
    db.put("counters", name, new)
    return new


@tool(ToolKind.READ, ends=TerminationReason.TRANSFER)
def transfer_to_human_agents(db: Database, summary: str) -> str:
    """Hand the conversation to a human.

    Args:
        summary: What the human should know.
    """
    return "Transfer successful"


def _task(i: int, by: int) -> Task:
    return Task(
        id=f"toy-{i}",
        domain="toy",
        intent="increment",
        scenario=UserScenario(
            goal=f"Add {by} to counter a.",
            opening=f"Please add {by} to counter a.",
            known_info={"name": "a"},
        ),
        auth_slots=[],
        actions=[
            Action("get_counter", {"name": "a"}),
            Action("increment", {"name": "a", "by": by}),
        ],
        required_outputs=[f"counter a is now {by}"],
    )


def toy_domain() -> Domain:
    """Two counters, three tools (one ends the conversation), four increment tasks."""
    return Domain(
        name="toy",
        title="Counters",
        policy="Be a counter clerk.",
        toolkit=Toolkit([get_counter, increment, transfer_to_human_agents]),
        build_base=lambda: Base({"counters": {"a": Counter(0), "b": Counter(10)}}),
        task_source=[_task(i, i + 1) for i in range(4)],
        slot_hints={"name": SlotHint(("counter",), "the counter's name")},
    )


Step = Callable[[AnswerKey, list[ChatMessage]], ChatMessage]


def gold_agent(answer_key: AnswerKey, messages: list[ChatMessage]) -> ChatMessage:
    """Plays the task's gold actions one per turn, then states the outputs."""
    done = sum(1 for m in messages if m.role == "tool")
    actions = answer_key.actions
    if done < len(actions):
        a = actions[done]
        return ChatMessage(
            role="assistant", tool_calls=[ToolCallSpec(f"c{done}", a.name, dict(a.arguments))]
        )
    return ChatMessage(role="assistant", content=" ".join(answer_key.required_outputs) + ".")


class StepAgent:
    """An agent whose turns are computed by a function; optional latency or failure."""

    def __init__(self, answer_key: AnswerKey, step: Step, latency: float, fail: str) -> None:
        self.answer_key, self.step, self.latency, self.fail = answer_key, step, latency, fail

    async def respond(self, messages: list[ChatMessage]) -> ChatResponse:
        if self.latency:
            await anyio.sleep(self.latency)
        if self.fail == "unreachable":
            raise EndpointError("connection error: refused", kind="connection error")
        if self.fail:
            raise ModelError("toy model is down (HTTP 500 after 3 retries)")
        return ChatResponse(self.step(self.answer_key, messages), Usage(10, 5, self.latency))


class StepProvider(NothingToStart):
    def __init__(self, model: str, args: dict[str, Any]) -> None:
        self.name = f"toy/{model}"
        self.latency = float(args.get("latency", 0))
        self.fail = model if model in ("broken", "unreachable") else ""
        self.step: Step = STEPS.get(model, gold_agent)

    def for_answer_key(self, view: AgentView, answer_key: AnswerKey) -> StepAgent:
        return StepAgent(answer_key, self.step, self.latency, self.fail)


def silent_agent(answer_key: AnswerKey, messages: list[ChatMessage]) -> ChatMessage:
    return ChatMessage(role="assistant", content="Hmm, tell me more?")


def bad_tool_agent(answer_key: AnswerKey, messages: list[ChatMessage]) -> ChatMessage:
    n = len(messages)
    return ChatMessage(
        role="assistant", tool_calls=[ToolCallSpec(f"c{n}", "increment", {"name": 42})]
    )


def transfer_agent(answer_key: AnswerKey, messages: list[ChatMessage]) -> ChatMessage:
    return ChatMessage(
        role="assistant",
        tool_calls=[ToolCallSpec("t", "transfer_to_human_agents", {"summary": "help"})],
    )


def wrong_counter_agent(answer_key: AnswerKey, messages: list[ChatMessage]) -> ChatMessage:
    """The gold path with every write sent to counter b instead of a (a wrong write)."""
    message = gold_agent(answer_key, messages)
    calls = [
        ToolCallSpec(c.id, c.name, {**c.arguments, "name": "b"}) if c.name == "increment" else c
        for c in message.tool_calls
    ]
    return ChatMessage(role="assistant", content=message.content, tool_calls=calls)


def wrong_amount_agent(answer_key: AnswerKey, messages: list[ChatMessage]) -> ChatMessage:
    """The gold path with every increment one too large (the right record, a wrong value)."""
    message = gold_agent(answer_key, messages)
    calls = [
        ToolCallSpec(c.id, c.name, {**c.arguments, "by": c.arguments["by"] + 1})
        if c.name == "increment"
        else c
        for c in message.tool_calls
    ]
    return ChatMessage(role="assistant", content=message.content, tool_calls=calls)


STEPS: dict[str, Step] = {
    "gold": gold_agent,
    "wrong-counter": wrong_counter_agent,
    "wrong-amount": wrong_amount_agent,
    "silent": silent_agent,
    "bad-tool": bad_tool_agent,
    "transfer": transfer_agent,
}


class PatientUser:
    """Opens with the task, stops when the agent says something, abandons if ``angry``."""

    def __init__(self, view: UserView, angry: bool, latency: float) -> None:
        self.view, self.angry, self.latency = view, angry, latency
        self.turns = itertools.count()

    async def respond(self, transcript: list[ChatMessage]) -> UserTurn:
        if self.latency:
            await anyio.sleep(self.latency)
        n = next(self.turns)
        usage = Usage(3, 4, self.latency)
        if n == 0:
            return UserTurn(self.view.scenario.opening, usage=usage)
        if self.angry:
            state = EmotionUpdate(
                conversation=self.view.conversation_id,
                emotion="frustration",
                intensity=0.9,
                dissatisfaction=1.0,
                reason="procedural friction",
                triggers=["friction"],
            )
            return UserTurn(f"Forget it. {UNSATISFIED}", UNSATISFIED, state, usage=usage)
        state = EmotionUpdate(
            conversation=self.view.conversation_id,
            emotion=self.view.condition.emotion,
            intensity=self.view.condition.intensity,
            dissatisfaction=0.1,
            triggers=["progress"],
        )
        return UserTurn(f"Thanks! {STOP}", STOP, state, usage=usage)


class PatientUsers(NothingToStart):
    def __init__(self, name: str, args: dict[str, Any]) -> None:
        self.name = name
        self.latency = float(args.get("latency", 0))

    def for_conversation(self, view: UserView) -> PatientUser:
        return PatientUser(view, view.condition.emotion == "outrage", self.latency)


def install() -> None:
    """Register the toy domain, the ``toy/*`` agents and the ``patient`` user."""
    from tau_sim.simulator.core import registry

    registry.load_plugins()
    DOMAINS.add("toy", toy_domain)
    AGENTS.add("toy", StepProvider)
    USERS.add("patient", PatientUsers)


def toy_config(**changes: Any) -> RunConfig:
    """The toy grid the engine tests play: 3 tasks x (neutral + frustration at 2 levels) x 2."""
    base: dict[str, Any] = dict(
        domains=["toy"],
        tasks=["toy-0", "toy-1", "toy-2"],
        agents=["toy/gold"],
        users=["patient"],
        emotions=["neutral", "frustration"],
        intensities=[0.3, 0.9],
        trials=2,
        seed=5,
        concurrency=4,
    )
    base.update(changes)
    return RunConfig(**base)
