"""One conversation: three actors and a referee around one task, under one condition.

The reward and, for a failure, its reason (``simulator.engine.failures``) are computed from the
conversation's events (the agent's texts, the user's turns, the tool results and the
environment's final state), exactly as ``tau-sim rescore`` computes them from the stored ones.
An actor's ``EndpointError`` (its model's endpoint failed for good) ends the conversation with
``infra_error``, a ``RequestRejected`` (the endpoint refused the request as invalid, e.g. too
long for the context window) with ``model_error`` and the detail ``"<role>: [<kind>] ..."``,
any other ``ModelError`` with ``model_error``, anything else with ``error``.
A conversation whose deadline passes while the agent's or the user's model call is still out
has waited on an endpoint: ``infra_error`` too (``timeout`` is left for a conversation in which
nobody was waiting on a model).
With a judge (``simulator.engine.judging``), a conversation that ended well and whose task has
natural-language assertions has them judged after the final state; the verdicts and the judge's
usage are published before ``ConversationEnded``. A judge whose endpoint gives no verdict ends
the conversation with ``infra_error`` (detail ``"judge: [<kind>] ..."``); one that answers empty
or unreadable text leaves the assertions unjudged (not evaluated, never passed) and its grading
warning in ``ConversationEnded.warnings`` (``simulator.core.grading``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from tau_sim.simulator.core.chat import EndpointError, ModelError, RequestRejected
from tau_sim.simulator.core.endings import SUCCESSFUL_ENDINGS, Limits, TerminationReason
from tau_sim.simulator.core.events import ConversationEnded, ConversationStarted
from tau_sim.simulator.core.grading import grading_warnings
from tau_sim.simulator.core.infra import infra_detail
from tau_sim.simulator.core.roles import Agent, UserSimulator
from tau_sim.simulator.engine.actors import AgentActor, EnvActor, UserActor
from tau_sim.simulator.engine.bus import AGENT, ENV, USER, Bus
from tau_sim.simulator.engine.failures import FAILURE_EVIDENCE, diagnose_task
from tau_sim.simulator.engine.judging import UNANSWERED, AssertionJudge, JudgeFailed
from tau_sim.simulator.engine.referee import Referee
from tau_sim.simulator.world.evaluation import EVIDENCE, Evaluator, final_reward, make_evaluator
from tau_sim.simulator.world.views import ConversationContext

log = logging.getLogger(__name__)


async def run_conversation(
    ctx: ConversationContext,
    agent: Agent,
    agent_model: str,
    user: UserSimulator,
    user_model: str,
    bus: Bus,
    limits: Limits,
    *,
    evaluator: Evaluator | None = None,
    judge: AssertionJudge | None = None,
) -> ConversationEnded:
    """Play one conversation to its end and publish ``ConversationEnded`` with the reward.

    ``evaluator`` (one per run, it caches gold states) defaults to a fresh one for the domain;
    ``judge`` checks the task's natural-language assertions (``Evaluator.assertions``).
    """
    domain = ctx.domain
    referee = Referee(limits, domain.toolkit.endings)
    with bus.channel(ctx.conversation_id, referee, keep=EVIDENCE + FAILURE_EVIDENCE) as channel:
        agent_actor = AgentActor(agent, agent_model, channel.inbox(AGENT), channel.outbox())
        user_actor = UserActor(user, user_model, channel.inbox(USER), channel.outbox())
        env_actor = EnvActor(
            domain.toolkit,
            domain.new_database(ctx.task),
            channel.inbox(ENV),
            channel.outbox(),
            user_toolkit=domain.user_toolkit,
        )
        await channel.publish(
            ConversationStarted(
                conversation=ctx.conversation_id,
                run_id=ctx.run_id,
                task_id=ctx.task.id,
                domain=domain.name,
                agent=agent_model,
                user=user_model,
                emotion=ctx.condition.emotion,
                intensity=ctx.condition.intensity,
                trial=ctx.trial,
                seed=ctx.seed,
                politeness=ctx.condition.politeness,
                urgency=ctx.condition.urgency,
                trust=ctx.condition.trust,
                refusal=bool(domain.violations(ctx.task)),
            )
        )

        async def guarded(role: str, body: Callable[[], Awaitable[None]]) -> None:
            try:
                await body()
            except EndpointError as exc:  # the endpoint's failure, not the agent's
                channel.end(TerminationReason.INFRA_ERROR, infra_detail(role, exc))
            except RequestRejected as exc:  # e.g. the context window: the model's limit
                channel.end(TerminationReason.MODEL_ERROR, f"{role}: [{exc.kind}] {exc}")
            except ModelError as exc:
                channel.end(TerminationReason.MODEL_ERROR, f"{role}: {exc}")
            except Exception as exc:  # stored as data; the run goes on
                log.exception("conversation %s: %s actor failed", ctx.conversation_id, role)
                channel.end(TerminationReason.ERROR, f"{role}: {type(exc).__name__}: {exc}")

        # asyncio's own TaskGroup and timeout: on this hot path (three tasks per conversation)
        # they cost a third of anyio's task-group machinery; cancellation from outside (Ctrl-C,
        # the runner's scope) still propagates through them.
        timed_out = False
        try:
            async with asyncio.timeout(limits.timeout_s), asyncio.TaskGroup() as tg:
                tg.create_task(guarded("env", env_actor.run))
                tg.create_task(guarded("agent", agent_actor.run))
                tg.create_task(guarded("user", user_actor.run))
        except TimeoutError:
            timed_out = True
        if referee.reason is None:
            stuck = next(
                (
                    role
                    for role, actor in (("agent", agent_actor), ("user", user_actor))
                    if actor.waiting
                ),
                None,
            )
            if timed_out and stuck is not None:  # the deadline passed while an endpoint answered
                channel.end(
                    TerminationReason.INFRA_ERROR,
                    f"{stuck}: [timeout] its model call was still waiting for the endpoint at "
                    f"the conversation's {limits.timeout_s:g} s deadline",
                )
            else:
                detail = f"no end after {limits.timeout_s:g} s" if timed_out else ""
                channel.end(TerminationReason.TIMEOUT, detail)
        reason = referee.reason or TerminationReason.ERROR
        detail = referee.detail

        await env_actor.publish_state()
        evaluator = evaluator or make_evaluator(domain)
        assertions = evaluator.assertions(ctx.task) if judge is not None else []
        judge_warnings: list[str] = []
        if judge is not None and assertions and reason.value in SUCCESSFUL_ENDINGS:
            try:
                verdicts, usages = await judge.judge(ctx.conversation_id, channel.kept, assertions)
            except JudgeFailed as exc:
                verdicts, usages = [], exc.usages
                if exc.kind in UNANSWERED:
                    judge_warnings.append(UNANSWERED[exc.kind])
                else:
                    reason = TerminationReason.INFRA_ERROR
                    detail = f"judge: [{exc.kind}] {exc}"
            for usage in usages:
                await channel.publish(usage, final=True)
            for verdict in verdicts:
                await channel.publish(verdict, final=True)
        score, breakdown = evaluator.evaluate(ctx.task, channel.kept)
        reward = final_reward(reason, score)
        failure = diagnose_task(
            evaluator,
            ctx.task,
            reason=reason.value,
            detail=detail,
            reward=reward,
            breakdown=breakdown,
            events=channel.kept,
        )
        ended = ConversationEnded(
            conversation=ctx.conversation_id,
            reason=reason.value,
            reward=reward,
            breakdown=breakdown,
            detail=detail,
            turns=referee.steps,
            tool_calls=referee.tool_calls,
            questions=referee.questions,
            failure=failure.kind if failure else None,
            failure_detail=failure.detail if failure else "",
            warnings=grading_warnings(breakdown, judge_warnings),
        )
        await channel.publish(ended, final=True)
    return ended
