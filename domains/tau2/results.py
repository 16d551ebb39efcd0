"""A tau-sim run of a ``tau2/*`` domain in τ²-bench's results format (their ``Results`` model).

``tau-sim export RUN_ID --format tau2 --out results.json`` writes one ``Results`` (their info,
their tasks, one ``SimulationRun`` per completed conversation) that ``tau2 view`` and their
evaluator read. Messages come from our events: agent turns (text and tool calls), the user's
messages and user-side tool calls, each tool result right after the call that asked for it.
Our ending maps to their ``TerminationReason`` (``TERMINATIONS``); our own fields (ending,
emotion, intensity, levels, abandonment, failure reason, the reward breakdown) go under
``reward_info.info["tau_sim"]``, the one free-form place of their format. Their data model
imports pandas (part of the ``tau2`` extra).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import sqlite_utils
from tau2.data_model.message import (
    AssistantMessage,
    Message,
    ToolCall,
    ToolMessage,
    UserMessage,
)
from tau2.data_model.simulation import (
    AgentInfo,
    CommunicateCheck,
    DBCheck,
    Info,
    NLAssertionCheck,
    Results,
    RewardInfo,
    SimulationRun,
    TerminationReason,
    UserInfo,
)
from tau2.data_model.tasks import RewardType
from tau2.data_model.tasks import Task as Tau2Task
from tau2.environment.environment import EnvironmentInfo

from tau_sim.domains.tau2.adapter import Tau2Base
from tau_sim.domains.tau2.tasks import original_id
from tau_sim.simulator import core as ev
from tau_sim.simulator.core import TerminationReason as Ending
from tau_sim.simulator.core import UsageError
from tau_sim.simulator.grid import RunConfig, decode_config
from tau_sim.simulator.results import open_target
from tau_sim.simulator.store import get_run, iter_events
from tau_sim.simulator.world import Domain

TERMINATIONS: dict[str, TerminationReason] = {
    Ending.USER_STOP.value: TerminationReason.USER_STOP,
    Ending.TRANSFER.value: TerminationReason.USER_STOP,
    Ending.USER_ABANDONED.value: TerminationReason.USER_STOP,
    Ending.MAX_STEPS.value: TerminationReason.MAX_STEPS,
    Ending.TOO_MANY_TOOL_ERRORS.value: TerminationReason.TOO_MANY_ERRORS,
}
"""Our endings as theirs. An abandoned conversation is the user's ending in their terms (their
format has no abandonment: ``info.tau_sim.abandoned`` says it, and our reward is 0); a
timeout or a model or infrastructure failure is the failing role's error (``AGENT_ERROR``
unless the detail names the user)."""


def termination_of(reason: str, detail: str) -> TerminationReason:
    """Their termination reason for our ending ``reason`` (with its ``detail``)."""
    if reason in TERMINATIONS:
        return TERMINATIONS[reason]
    return (
        TerminationReason.USER_ERROR
        if detail.startswith("user:")
        else TerminationReason.AGENT_ERROR
    )


def _time(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


def messages_of(events: Sequence[ev.Event]) -> list[Message]:
    """Their message list of one conversation, each tool result after the call that made it."""
    results: dict[str, ev.ToolResult | ev.UserToolResult] = {
        e.call_id: e for e in events if isinstance(e, ev.ToolResult | ev.UserToolResult)
    }
    out: list[Message] = []

    def answers(calls: Iterable[ToolCall], requestor: str) -> None:
        for call in calls:
            result = results.get(call.id)
            if result is not None:
                out.append(
                    ToolMessage(
                        id=call.id,
                        role="tool",
                        content=result.content,
                        requestor=requestor,
                        error=result.error,
                        turn_idx=len(out),
                        timestamp=_time(result.ts),
                    )
                )

    for e in events:
        if isinstance(e, ev.AgentMessage):
            calls = [ToolCall(id=c.id, name=c.name, arguments=c.arguments) for c in e.tool_calls]
            out.append(
                AssistantMessage(
                    role="assistant",
                    content=e.text or None,
                    tool_calls=calls or None,
                    turn_idx=len(out),
                    timestamp=_time(e.ts),
                )
            )
            answers(calls, "assistant")
        elif isinstance(e, ev.UserMessage):
            out.append(
                UserMessage(role="user", content=e.text, turn_idx=len(out), timestamp=_time(e.ts))
            )
        elif isinstance(e, ev.UserToolCall):
            call = ToolCall(
                id=e.call.id, name=e.call.name, arguments=e.call.arguments, requestor="user"
            )
            out.append(
                UserMessage(
                    role="user", tool_calls=[call], turn_idx=len(out), timestamp=_time(e.ts)
                )
            )
            answers([call], "user")
    return out


def reward_info_of(
    ended: ev.ConversationEnded,
    started: ev.ConversationStarted,
    infos: Sequence[str],
    judged: Sequence[ev.AssertionJudged] = (),
) -> RewardInfo:
    """Their ``RewardInfo`` from our verdict (our extra fields under ``info["tau_sim"]``).

    ``infos`` are the task's ``communicate_info`` texts; ``judged`` the judge's verdicts on its
    natural-language assertions (their ``nl_assertions``; None where nothing was judged).
    """
    b = ended.breakdown
    extra: dict[str, Any] = {
        "reason": ended.reason,
        "detail": ended.detail,
        "abandoned": ended.reason == Ending.USER_ABANDONED.value,
        "failure": ended.failure,
        "emotion": started.emotion,
        "intensity": started.intensity,
        "politeness": started.politeness,
        "urgency": started.urgency,
        "trust": started.trust,
        "agent": started.agent,
        "user": started.user,
        "breakdown": msgspec.to_builtins(b) if b is not None else None,
    }
    if b is None:
        return RewardInfo(reward=ended.reward, reward_basis=None, info={"tau_sim": extra})
    return RewardInfo(
        reward=ended.reward,
        db_check=DBCheck(db_match=b.db_match, db_reward=1.0 if b.db_match else 0.0),
        communicate_checks=[
            CommunicateCheck(info=o, met=o not in b.missing_outputs, justification="")
            for o in infos
        ],
        nl_assertions=[
            NLAssertionCheck(nl_assertion=j.assertion, met=j.met, justification=j.reason)
            for j in judged
        ]
        or None,
        reward_basis=[RewardType(x) for x in b.reward_basis] or None,
        reward_breakdown={RewardType(k): v for k, v in b.checks.items()} or None,
        info={"tau_sim": extra},
    )


def simulation_of(
    domain: Domain,
    events: Sequence[ev.Event],
    costs: tuple[float | None, float | None] = (None, None),
    judge_cost: float | None = None,
) -> SimulationRun:
    """Their ``SimulationRun`` of one finished conversation of ``domain``, from its events.

    ``costs`` are the agent's and the user's dollars; the judge's (their format has no field
    for it) go under ``info["tau_sim"]["judge_cost"]``.
    """
    started = next(e for e in events if isinstance(e, ev.ConversationStarted))
    ended = next(e for e in reversed(events) if isinstance(e, ev.ConversationEnded))
    base = domain.base
    assert isinstance(base, Tau2Base)
    criteria = base.initial[started.task_id].evaluation_criteria
    infos = list(criteria.communicate_info or []) if criteria is not None else []
    reward_info = reward_info_of(
        ended, started, infos, [e for e in events if isinstance(e, ev.AssertionJudged)]
    )
    if reward_info.info is not None:
        reward_info.info["tau_sim"]["judge_cost"] = judge_cost
    return SimulationRun(
        id=started.conversation,
        task_id=original_id(domain.name, started.task_id),
        timestamp=_time(ended.ts),
        start_time=_time(started.ts),
        end_time=_time(ended.ts),
        duration=max(0.0, ended.ts - started.ts),
        termination_reason=termination_of(ended.reason, ended.detail),
        agent_cost=costs[0],
        user_cost=costs[1],
        reward_info=reward_info,
        messages=messages_of(events),
        trial=started.trial,
        seed=started.seed,
    )


def results_of(domain: Domain, config: RunConfig, simulations: list[SimulationRun]) -> Results:
    """Their ``Results`` of a run of ``domain``: info, the tasks played, the simulations."""
    base = domain.base
    assert isinstance(base, Tau2Base)
    tasks: list[Tau2Task] = [base.initial[t] for t in config.tasks if t in base.initial]
    return Results(
        info=Info(
            git_commit="",
            num_trials=config.trials,
            max_steps=config.limits.max_steps,
            max_errors=config.limits.max_tool_errors,
            user_info=UserInfo(implementation=f"tau-sim:{','.join(config.users)}"),
            agent_info=AgentInfo(implementation=f"tau-sim:{','.join(config.agents)}"),
            environment_info=EnvironmentInfo(
                domain_name=domain.name.removeprefix("tau2/"), policy=domain.policy
            ),
            seed=config.seed,
        ),
        tasks=tasks,
        simulations=simulations,
    )


def export_tau2(db: sqlite_utils.Database, run_id: str, out: str, force: bool = False) -> int:
    """Write the run (one ``tau2/*`` domain) as their ``Results`` JSON; returns the count.

    ``out`` is written whole or not at all, an existing file only with ``force``
    (``open_target``).
    """
    from tau_sim.simulator.core import get_domain

    run = get_run(db, run_id)
    config = decode_config(run["config"])
    if len(config.domains) != 1 or not config.domains[0].startswith("tau2/"):
        raise UsageError(
            f"--format tau2: run {run['id']} plays {', '.join(config.domains)}; "
            "τ²-bench's results hold one tau2/* domain"
        )
    domain = get_domain(config.domains[0])
    if config.tasks_file and domain.task_reader is not None:
        domain.task_reader(Path(config.tasks_file))
    rows = db.query(
        "select id, agent_cost_usd, user_cost_usd, judge_cost_usd from conversations "
        "where run_id = ? and status = 'completed' order by cell",
        [run["id"]],
    )
    simulations = [
        simulation_of(
            domain,
            list(iter_events(db, row["id"])),
            (row["agent_cost_usd"], row["user_cost_usd"]),
            row["judge_cost_usd"],
        )
        for row in rows
    ]
    text = results_of(domain, config, simulations).model_dump_json(indent=2)
    with open_target(out, force=force) as handle:
        handle.write(text + "\n")
    return len(simulations)
