"""What the environment tests share: the skip rule, and the scripted gold agent as a policy.

The gold agent is built here, test-side, with the task's answer key (``answer_key``), from the
episode's ``info`` (its conversation id and seed, as ``tau-sim run`` hands them to an agent):
the environment never holds or hands out an answer key. Scripted agents calibrate the harness.
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

from tests.simulator.gym.needs import require_gym

require_gym()

from tau_sim.simulator.core import Agent, Condition, make_agent_provider  # noqa: E402
from tau_sim.simulator.core.registry import CalibrationAgentProvider, get_domain  # noqa: E402
from tau_sim.simulator.gym import chat_messages, encode_action  # noqa: E402
from tau_sim.simulator.world import (  # noqa: E402
    AnswerKey,
    ConversationContext,
    Domain,
    Task,
    agent_view,
    answer_key,
)
from tests.domains.tau2.needs import require_tau2  # noqa: E402


@cache
def domain_named(name: str) -> Domain:
    """The domain ``name``, built once; a τ²-bench domain skips the test where τ²-bench is
    not installed (fails it where ``TAU_SIM_REQUIRE_TAU2`` is set)."""
    if name.startswith("tau2/"):
        require_tau2()
    return get_domain(name)


@cache
def task_of(domain: str, task_id: str) -> tuple[Task, AnswerKey]:
    """A task of ``domain`` and its answer key (replayed once)."""
    built = domain_named(domain)
    task = next(t for t in built.tasks if t.id == task_id)
    return task, answer_key(built, task)


def gold_agent(info: dict[str, Any]) -> Agent:
    """The scripted gold agent of the episode whose reset ``info`` this is."""
    domain = domain_named(info["domain"])
    task, key = task_of(info["domain"], info["task_id"])
    ctx = ConversationContext(
        conversation_id=info["conversation_id"],
        run_id=info["run_id"],
        task=task,
        domain=domain,
        condition=Condition(
            emotion=info["emotion"],
            intensity=info["intensity"],
            politeness=info["politeness"],
            urgency=info["urgency"],
            trust=info["trust"],
        ),
        trial=info["trial"],
        seed=info["seed"],
    )
    provider = make_agent_provider("scripted/gold", {})
    assert isinstance(provider, CalibrationAgentProvider)
    return provider.for_answer_key(agent_view(ctx), key)


async def gold_action_async(agent: Agent, observation: str) -> str:
    """The gold agent's next turn for ``observation``, as an action."""
    response = await agent.respond(chat_messages(observation)[1:])
    return encode_action(response.message)


def gold_action(agent: Agent, observation: str) -> str:
    """``gold_action_async`` from sync code (the environment's loop is idle between calls)."""
    return asyncio.run(gold_action_async(agent, observation))
