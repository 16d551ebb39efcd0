"""Play one task's conversation in this process, through the engine, for the measuring scripts.

``scripts/facts_told.py`` and ``scripts/user_repeats.py`` play every task of the ten built-in
domains with a scripted agent against the scripted user and read the events back; this is the
one way they play them (no store, no runner: a feed keeps the events).
"""

from __future__ import annotations

from tau_sim.simulator.core.condition import Condition
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.events import Event
from tau_sim.simulator.core.registry import AgentProvider, CalibrationAgentProvider, UserProvider
from tau_sim.simulator.engine.bus import Bus, LiveFeed
from tau_sim.simulator.engine.conversation import run_conversation
from tau_sim.simulator.run import make_agent
from tau_sim.simulator.world import AnswerKey, ConversationContext, Domain, Task, user_view

DOMAINS = [
    *("retail", "airline", "banking", "telecom", "telehealth", "insurance", "hotel"),
    *("car_rental", "food_delivery", "utilities"),
]
"""The ten built-in domains."""


async def play(
    domain: Domain,
    task: Task,
    key: AnswerKey,
    agent: tuple[str, AgentProvider | CalibrationAgentProvider],
    users: UserProvider,
    condition: tuple[str, float],
    run_id: str,
) -> list[Event]:
    """The events of ``task`` played by ``agent`` against the user ``users`` makes.

    ``agent`` is its name and provider; ``condition`` the emotion and intensity; seed 0.
    """
    emotion, intensity = condition
    ctx = ConversationContext(
        conversation_id=f"{task.id}-{emotion}",
        run_id=run_id,
        task=task,
        domain=domain,
        condition=Condition(emotion=emotion, intensity=intensity),
        trial=0,
        seed=0,
    )
    feed = LiveFeed(capacity=100_000)
    name, provider = agent
    await run_conversation(
        ctx,
        make_agent(provider, ctx, lambda _task: key),
        name,
        users.for_conversation(user_view(ctx)),
        "scripted",
        Bus([feed]),
        Limits(max_steps=60, timeout_s=30),
    )
    return feed.drain()
