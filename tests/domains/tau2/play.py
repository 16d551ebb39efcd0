"""Plays τ²-bench tasks through the engine with a calibration user that follows the task.

The scripted user cannot read τ²-bench's free-text scenarios, and a model is not available
offline, so the harness's own ``FollowingUser`` stands in: it opens with the reason for the
call, agrees to every confirmation, runs the task's gold user steps in order when the agent
asks for one (telecom), and ends with STOP when the agent asks whether there is anything else.
It calibrates the harness (like the scripted agents), it is not a benchmark subject.
"""

from __future__ import annotations

from typing import Any

from tau_sim.simulator.core import Condition
from tau_sim.simulator.core.chat import ChatMessage, ToolCallSpec
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.events import ConversationEnded, Event
from tau_sim.simulator.core.registry import make_agent_provider
from tau_sim.simulator.core.roles import STOP, UserTurn
from tau_sim.simulator.engine.bus import Bus, LiveFeed
from tau_sim.simulator.engine.conversation import run_conversation
from tau_sim.simulator.run import make_agent
from tau_sim.simulator.world.domain import Domain, Task
from tau_sim.simulator.world.views import ConversationContext, UserView, answer_key, user_view


class FollowingUser:
    """A user that does what the gold path needs of it (see the module docstring)."""

    def __init__(self, domain: Domain, task: Task, view: UserView) -> None:
        self.view = view
        self.steps = [a for a in task.actions if domain.is_user_step(a)]
        self.calls = 0

    async def respond(self, transcript: list[ChatMessage]) -> UserTurn:
        if not transcript:
            return UserTurn(self.view.scenario.opening or "Hi, I need some help.")
        last = transcript[-1]
        if last.role == "tool":
            return UserTurn(f"Done. My phone shows: {last.content}")
        text = (last.content or "").lower()
        if "could you please" in text and self.steps:
            step = self.steps.pop(0)
            self.calls += 1
            call = ToolCallSpec(f"u{self.calls}", step.name, dict(step.arguments))
            return UserTurn("", tool_calls=[call])
        if "anything else" in text:
            return UserTurn("No, that's all. Thank you!", ends=STOP)
        return UserTurn("Yes, please go ahead.")


async def play(
    domain: Domain,
    task: Task,
    agent: str = "scripted/gold",
    agent_args: dict[str, Any] | None = None,
) -> list[Event]:
    """Every event of one conversation of ``agent`` with a ``FollowingUser`` on ``task``."""
    ctx = ConversationContext(
        conversation_id=f"{task.id}-{agent}",
        run_id="test",
        task=task,
        domain=domain,
        condition=Condition(emotion="neutral", intensity=0.6),
        trial=0,
        seed=0,
    )
    provider = make_agent_provider(agent, dict(agent_args or {}))
    feed = LiveFeed(capacity=100_000)
    await run_conversation(
        ctx,
        make_agent(provider, ctx, lambda t: answer_key(domain, t)),
        agent,
        FollowingUser(domain, task, user_view(ctx)),
        "following",
        Bus([feed]),
        Limits(max_steps=80, timeout_s=60),
    )
    events = feed.drain()
    assert isinstance(events[-1], ConversationEnded)
    return events
