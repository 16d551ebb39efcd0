"""Plays one conversation through the engine (``run_conversation``), read back from events."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from tau_sim.simulator.core import Condition
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.events import (
    AgentMessage,
    ConversationEnded,
    EmotionUpdate,
    Event,
    RewardBreakdown,
    ToolCall,
    UserMessage,
)
from tau_sim.simulator.core.registry import make_agent_provider, make_user_provider
from tau_sim.simulator.engine.bus import Bus, LiveFeed
from tau_sim.simulator.engine.conversation import run_conversation
from tau_sim.simulator.run import make_agent
from tau_sim.simulator.world.domain import Domain, Task
from tau_sim.simulator.world.views import AnswerKey, ConversationContext, answer_key, user_view


class Outcome(msgspec.Struct):
    reward: float
    ended: str  # a TerminationReason value: user_stop, user_abandoned, transfer, max_steps …
    breakdown: RewardBreakdown
    tool_calls: list[str]
    agent_texts: list[str]
    user_texts: list[str]
    states: list[EmotionUpdate]
    events: list[Event] = []

    @property
    def abandoned(self) -> bool:
        return self.ended == "user_abandoned"

    @property
    def triggers(self) -> list[str]:
        return [t for s in self.states for t in s.triggers]


def context(
    domain: Domain, task: Task, emotion: str = "neutral", intensity: float = 0.6, seed: int = 0
) -> ConversationContext:
    return ConversationContext(
        conversation_id=f"{task.id}-{emotion}-{seed}",
        run_id="test",
        task=task,
        domain=domain,
        condition=Condition(emotion=emotion, intensity=intensity),
        trial=0,
        seed=seed,
    )


async def play(
    domain: Domain,
    task: Task,
    agent: str,
    *,
    emotion: str = "neutral",
    intensity: float = 0.6,
    seed: int = 0,
    agent_args: dict[str, Any] | None = None,
    user: str = "scripted",
    max_steps: int = Limits().max_steps,  # the runner's default, as a run plays
    providers: tuple[Any, Any] | None = None,
    key: Callable[[Task], AnswerKey] | None = None,
) -> Outcome:
    """One conversation of ``agent`` (a ``--agent`` name) with ``user``, as the runner plays it.

    ``providers`` (agent, user) are built from the names unless given (a run builds them once);
    ``key`` hands a calibration agent its answer key (default: the task's own).
    """
    ctx = context(domain, task, emotion, intensity, seed)
    agent_provider, user_provider = providers or (
        make_agent_provider(agent, dict(agent_args or {})),
        make_user_provider(user, {}),
    )
    feed = LiveFeed(capacity=100_000)
    returned = await run_conversation(
        ctx,
        make_agent(agent_provider, ctx, key or (lambda t: answer_key(domain, t))),
        agent,
        user_provider.for_conversation(user_view(ctx)),
        user,
        Bus([feed]),
        Limits(max_steps=max_steps, timeout_s=30),
    )
    events = feed.drain()
    ended = events[-1]
    assert isinstance(ended, ConversationEnded) and ended.reward == returned.reward
    assert ended.breakdown is not None
    return Outcome(
        reward=ended.reward,
        ended=ended.reason,
        breakdown=ended.breakdown,
        tool_calls=[e.call.name for e in events if isinstance(e, ToolCall)],
        agent_texts=[e.text for e in events if isinstance(e, AgentMessage) and e.text],
        user_texts=[e.text for e in events if isinstance(e, UserMessage)],
        states=[e for e in events if isinstance(e, EmotionUpdate)],
        events=list(events),
    )
