"""Scripted agents (``scripted/oracle``, ``/over-asker``, ``/sloppy``) as chat models.

Each conversation gets a stateful policy that sees the task (see ``agents.plan``) and answers
``chat`` with the next step of its script: a text for the user, or exactly one tool call. The step
is the number of assistant messages already in the history, so a retried call gives the same
answer and tool-call ids (``call_<step>``) are unique within the conversation.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import anyio
import msgspec

from agents.plan import PROFILES, Call, PlanBuilder, Say, Step
from simulator.chat import ChatMessage, ChatResponse, ToolCallSpec, ToolSpec, Usage
from simulator.conditions import NEUTRAL
from simulator.context import ConversationContext
from simulator.errors import UsageError
from simulator.models.options import convert_options
from simulator.registry import MODELS

FLAG = "--agent-arg"


class ScriptedAgentOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Options of a scripted agent (``--agent-arg key=value`` or a run file).

    Attributes:
        latency: seconds each turn takes, as if a model answered.
        error_rate: how often ``scripted/sloppy`` gets a write's argument wrong (0..1).
    """

    latency: Annotated[float, msgspec.Meta(ge=0.0)] = 0.0
    error_rate: Annotated[float, msgspec.Meta(ge=0.0, le=1.0)] = 0.3


GOODBYE = "Thank you for contacting us. Have a great day!"


class ScriptedAgentModel:
    """The chat model of one scripted agent in one conversation."""

    def __init__(
        self,
        profile: str,
        ctx: ConversationContext,
        *,
        latency: float = 0.0,
        error_rate: float = 0.3,
    ) -> None:
        self.name = f"scripted/{profile}"
        self.profile = profile
        self.latency = latency
        emotional = ctx.emotion.strip().lower() not in ("", NEUTRAL)
        self._builder = PlanBuilder(
            ctx.domain,
            ctx.task,
            profile=profile,
            emotional=emotional,
            rng=ctx.rng(f"agent:{profile}:{ctx.task.id}"),
            error_rate=error_rate,
        )
        self._plan: list[Step] | None = None

    @property
    def backend(self) -> str:
        """Always ``scripted``."""
        return "scripted"

    def plan(self, history: list[ChatMessage]) -> list[Step]:
        """The script, built on first use from the user's first message."""
        if self._plan is None:
            opening = next((m.content or "" for m in history if m.role == "user"), "")
            self._plan = self._builder.build(opening)
        return self._plan

    async def chat(
        self,
        messages: list[ChatMessage],
        tools: list[ToolSpec],
        *,
        response_format: dict[str, Any] | None = None,
    ) -> ChatResponse:
        """The next step of the script for this history (system message ignored)."""
        if self.latency > 0:
            await anyio.sleep(self.latency)
        history = [m for m in messages if m.role != "system"]
        plan = self.plan(history)
        index = sum(1 for m in history if m.role == "assistant")
        step = plan[index] if index < len(plan) else Say(GOODBYE)
        if isinstance(step, Call):
            call = ToolCallSpec(f"call_{index}", step.action.name, dict(step.action.arguments))
            message = ChatMessage(role="assistant", content=None, tool_calls=[call])
            out = len(call.name) + len(json.dumps(call.arguments))
        else:
            message = ChatMessage(role="assistant", content=step.text)
            out = len(step.text)
        seen = sum(len(m.content or "") for m in messages)
        usage = Usage(tokens_in=seen // 4 + 1, tokens_out=out // 4 + 1, latency_s=self.latency)
        return ChatResponse(message, usage)

    async def aclose(self) -> None:
        """Nothing to release."""


class ScriptedModelProvider:
    """Hands out one scripted agent model per conversation."""

    def __init__(self, model: str, args: dict[str, Any]) -> None:
        profile = model or "oracle"
        if profile not in PROFILES:
            known = ", ".join(f"scripted/{p}" for p in PROFILES)
            raise UsageError(f"--agent: unknown scripted agent {model!r} (known: {known})")
        self.profile = profile
        self.name = f"scripted/{profile}"
        options = convert_options(args, ScriptedAgentOptions, FLAG)
        self.latency = options.latency
        self.error_rate = options.error_rate

    async def start(self) -> None:
        """Nothing to start."""

    def for_conversation(self, ctx: ConversationContext, role: str) -> ScriptedAgentModel:
        """A fresh scripted policy for one conversation; scripted models only play the agent."""
        if role == "user":
            raise UsageError(f"--user: {self.name} can only play the agent (use --user scripted)")
        return ScriptedAgentModel(
            self.profile, ctx, latency=self.latency, error_rate=self.error_rate
        )

    async def aclose(self) -> None:
        """Nothing to release."""


@MODELS.register("scripted")
def make_scripted_model(model: str, args: dict[str, Any]) -> ScriptedModelProvider:
    """The ``scripted`` provider: profiles ``oracle``, ``over-asker`` and ``sloppy``."""
    return ScriptedModelProvider(model, args)
