"""A tiny domain and scripted roles for engine tests (the product's scripted actors live in
agents/ and users/; these exist so engine tests control every turn)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import anyio
import msgspec

from simulator.chat import (
    ChatMessage,
    ChatModel,
    ChatResponse,
    ModelError,
    ToolCallSpec,
    ToolSpec,
    Usage,
)
from simulator.context import ConversationContext
from simulator.database import Database
from simulator.domain import Action, Domain, InfoSlot, Task, UserScenario
from simulator.registry import DOMAINS, MODELS, USERS, NothingToStart
from simulator.roles import STOP, UNSATISFIED, EmotionState, UserTurn
from simulator.tools import ToolError, ToolKind, Toolkit, tool


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


@tool(ToolKind.READ)
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
            known_info=[InfoSlot("name", "a", ["counter"], "the counter's name")],
        ),
        auth_slots=[],
        actions=[
            Action("get_counter", {"name": "a"}),
            Action("increment", {"name": "a", "by": by}),
        ],
        required_outputs=[f"counter a is now {by}"],
    )


class ToyDomain(Domain):
    name = "toy"
    title = "Counters"
    toolkit = Toolkit([get_counter, increment, transfer_to_human_agents])

    def __init__(self) -> None:
        self._tasks = [_task(i, i + 1) for i in range(4)]

    def build_base(self) -> Any:
        return {"counters": {"a": Counter(0), "b": Counter(10)}}, {}

    @property  # type: ignore[override]
    def policy(self) -> str:
        return "Be a counter clerk."

    @property  # type: ignore[override]
    def tasks(self) -> list[Task]:
        return self._tasks


Step = Callable[[ConversationContext, list[ChatMessage]], ChatMessage]


def gold_agent(ctx: ConversationContext, messages: list[ChatMessage]) -> ChatMessage:
    """Plays the task's gold actions one per turn, then states the outputs."""
    done = sum(1 for m in messages if m.role == "tool")
    actions = ctx.task.actions
    if done < len(actions):
        a = actions[done]
        return ChatMessage(
            role="assistant", tool_calls=[ToolCallSpec(f"c{done}", a.name, dict(a.arguments))]
        )
    return ChatMessage(role="assistant", content=" ".join(ctx.task.required_outputs) + ".")


class StepModel:
    """A ChatModel whose turns are computed by a function; optional latency or failure."""

    backend = "toy"

    def __init__(self, ctx: ConversationContext, step: Step, latency: float, fail: bool) -> None:
        self.name = "toy/agent"
        self.ctx, self.step, self.latency, self.fail = ctx, step, latency, fail

    async def chat(
        self, messages: list[ChatMessage], tools: list[ToolSpec], *, response_format: Any = None
    ) -> ChatResponse:
        if self.latency:
            await anyio.sleep(self.latency)
        if self.fail:
            raise ModelError("toy model is down (HTTP 500 after 3 retries)")
        return ChatResponse(self.step(self.ctx, messages), Usage(10, 5, self.latency))

    async def aclose(self) -> None:
        return None


class StepProvider(NothingToStart):
    def __init__(self, model: str, args: dict[str, Any]) -> None:
        self.name = f"toy/{model}"
        self.latency = float(args.get("latency", 0))
        self.fail = model == "broken"
        self.step: Step = STEPS.get(model, gold_agent)

    def for_conversation(self, ctx: ConversationContext, role: str) -> ChatModel:
        return StepModel(ctx, self.step, self.latency, self.fail)


def silent_agent(ctx: ConversationContext, messages: list[ChatMessage]) -> ChatMessage:
    return ChatMessage(role="assistant", content="Hmm, tell me more?")


def bad_tool_agent(ctx: ConversationContext, messages: list[ChatMessage]) -> ChatMessage:
    n = len(messages)
    return ChatMessage(
        role="assistant", tool_calls=[ToolCallSpec(f"c{n}", "increment", {"name": 42})]
    )


def transfer_agent(ctx: ConversationContext, messages: list[ChatMessage]) -> ChatMessage:
    return ChatMessage(
        role="assistant",
        tool_calls=[ToolCallSpec("t", "transfer_to_human_agents", {"summary": "help"})],
    )


STEPS: dict[str, Step] = {
    "gold": gold_agent,
    "silent": silent_agent,
    "bad-tool": bad_tool_agent,
    "transfer": transfer_agent,
}


class PatientUser:
    """Opens with the task, stops when the agent says something, abandons if ``angry``."""

    def __init__(self, ctx: ConversationContext, angry: bool, latency: float) -> None:
        self.ctx, self.angry, self.latency = ctx, angry, latency
        self.turns = itertools.count()

    async def respond(self, transcript: list[ChatMessage]) -> UserTurn:
        if self.latency:
            await anyio.sleep(self.latency)
        n = next(self.turns)
        usage = Usage(3, 4, self.latency)
        if n == 0:
            return UserTurn(self.ctx.task.scenario.opening, usage=usage)
        if self.angry:
            state = EmotionState("frustration", 0.9, 1.0, "procedural friction", ["friction"])
            return UserTurn(f"Forget it. {UNSATISFIED}", UNSATISFIED, state, usage=usage)
        state = EmotionState(self.ctx.emotion, self.ctx.intensity, 0.1, "", ["progress"])
        return UserTurn(f"Thanks! {STOP}", STOP, state, usage=usage)


class PatientUsers(NothingToStart):
    def __init__(self, name: str, args: dict[str, Any]) -> None:
        self.name = name
        self.latency = float(args.get("latency", 0))

    def for_conversation(self, ctx: ConversationContext) -> PatientUser:
        return PatientUser(ctx, ctx.emotion == "outrage", self.latency)


def install() -> None:
    """Register the toy domain, the ``toy/*`` models and the ``patient`` user."""
    from simulator import registry

    registry.load_plugins()
    DOMAINS.add("toy", ToyDomain)
    MODELS.add("toy", StepProvider)
    USERS.add("patient", PatientUsers)
