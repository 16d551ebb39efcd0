"""One conversation: three actors and a referee around one task, under one condition."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import anyio

from simulator.actors import AgentActor, EnvActor, UserActor
from simulator.bus import Bus
from simulator.context import ConversationContext
from simulator.events import ConversationEnded, ConversationStarted
from simulator.models.base import ModelError
from simulator.referee import SUCCESSFUL_ENDINGS, Limits, Referee, TerminationReason
from simulator.roles import Agent, UserSimulator

log = logging.getLogger(__name__)


async def run_conversation(
    ctx: ConversationContext,
    agent: Agent,
    agent_model: str,
    user: UserSimulator,
    user_model: str,
    bus: Bus,
    limits: Limits,
) -> ConversationEnded:
    """Play one conversation to its end and publish ``ConversationEnded`` with the reward."""
    domain = ctx.domain
    scope = anyio.CancelScope()
    referee = Referee(limits, domain.transfer_tool, scope.cancel)
    channel = bus.channel(ctx.conversation_id, referee.observe)
    db = domain.new_database()
    agent_actor = AgentActor(agent, agent_model, channel)
    user_actor = UserActor(user, user_model, channel)
    env_actor = EnvActor(domain.toolkit, db, channel)

    await channel.publish(
        ConversationStarted(
            conversation=ctx.conversation_id,
            run_id=ctx.run_id,
            task_id=ctx.task.id,
            domain=domain.name,
            agent=agent_model,
            user=user_model,
            emotion=ctx.emotion,
            intensity=ctx.intensity,
            trial=ctx.trial,
            seed=ctx.seed,
        )
    )

    async def guarded(role: str, body: Callable[[], Awaitable[None]]) -> None:
        try:
            await body()
        except ModelError as exc:
            referee.end(TerminationReason.MODEL_ERROR, f"{role}: {exc}")
        except Exception as exc:  # stored as data; the run goes on
            log.exception("conversation %s: %s actor failed", ctx.conversation_id, role)
            referee.end(TerminationReason.ERROR, f"{role}: {type(exc).__name__}: {exc}")

    with anyio.move_on_after(limits.timeout_s) as deadline, scope:
        async with anyio.create_task_group() as tg:
            tg.start_soon(guarded, "env", env_actor.run)
            tg.start_soon(guarded, "agent", agent_actor.run)
            tg.start_soon(guarded, "user", user_actor.run)
    if referee.reason is None:
        detail = f"no end after {limits.timeout_s:g} s" if deadline.cancelled_caught else ""
        referee.end(TerminationReason.TIMEOUT, detail)
    reason = referee.reason or TerminationReason.ERROR

    score, breakdown = domain.evaluate(ctx.task, db, agent_actor.texts)
    reward = score if reason in SUCCESSFUL_ENDINGS else 0.0
    ended = ConversationEnded(
        conversation=ctx.conversation_id,
        reason=reason.value,
        reward=reward,
        breakdown=breakdown,
        detail=referee.detail,
        turns=referee.steps,
        tool_calls=referee.tool_calls,
        questions=referee.questions,
    )
    await channel.publish(ended)
    return ended
