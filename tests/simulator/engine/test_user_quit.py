"""A user that gives up on its own pushback against a correct agent is reported apart, never as
the agent's failure (issue 39 item 7): diagnosed from a real gold conversation's events through
the real scorer, left out of the figures, and its quit line says what happened."""

from __future__ import annotations

import msgspec
import pytest

from tau_sim.simulator.core.events import EmotionUpdate
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.engine.failures import diagnose_task
from tau_sim.simulator.results.metrics import summarize
from tau_sim.simulator.world.evaluation import make_evaluator
from tau_sim.users.tone import refused_grievance
from tests.agents.dialog import Outcome, play
from tests.domains.test_supervisor_policy import LADDER, mixed_task

pytestmark = pytest.mark.anyio

load_plugins()


async def gold_with_pushback() -> tuple[Outcome, str]:
    domain = get_domain("airline")
    task = mixed_task(domain)
    outcome = await play(
        domain, task, "scripted/gold", emotion=LADDER[0], intensity=LADDER[1], max_steps=80
    )
    assert outcome.reward == 1.0
    return outcome, task.id


def quit_of(outcome: Outcome, task_id: str, **changes: object) -> tuple[str, str]:
    domain = get_domain("airline")
    evaluator = make_evaluator(domain)
    task = next(t for t in domain.tasks if t.id == task_id)
    events = list(changes.pop("events", outcome.events))  # type: ignore[call-overload]
    breakdown = msgspec.structs.replace(outcome.breakdown, **changes)
    failure = diagnose_task(
        evaluator,
        task,
        reason="user_abandoned",
        detail="I'm done with this conversation. ###UNSATISFIED###",
        reward=0.0,
        breakdown=breakdown,
        events=events,
    )
    assert failure is not None
    return failure.kind, failure.detail


async def test_quitting_on_its_own_ladder_is_no_failure_of_a_correct_agent() -> None:
    outcome, task_id = await gold_with_pushback()
    kind, detail = quit_of(outcome, task_id)
    assert kind == "user_quit"
    assert "insisting 5x (repeat, repeat, exception, threaten, supervisor)" in detail
    assert "every required output was said" in detail


async def test_a_wrong_state_or_the_agents_conduct_stays_the_agents_failure() -> None:
    outcome, task_id = await gold_with_pushback()
    assert quit_of(outcome, task_id, db_match=False)[0] == "abandoned"
    assert quit_of(outcome, task_id, missing_outputs=["$100"])[0] == "abandoned"
    last = outcome.states[-1]
    curt = msgspec.structs.replace(last, triggers=[*last.triggers, "dismissive"])
    events = [curt if e is last else e for e in outcome.events]
    assert any(isinstance(e, EmotionUpdate) and "dismissive" in e.triggers for e in events)
    assert quit_of(outcome, task_id, events=events)[0] == "abandoned"


def test_the_figures_leave_a_user_quit_out_and_count_it_apart() -> None:
    base = {
        **dict.fromkeys(("domain", "agent", "user"), "x"),
        **{"emotion": "anger", "intensity": 0.9, "politeness": "cold", "urgency": "high"},
        **{"trust": "skeptical", "turns": 4, "tool_calls": 2, "questions": 1},
        **{"status": "completed", "reward": 0.0, "tokens_in": 0, "tokens_out": 0},
    }
    rows = [
        {**base, "task_id": "t1", "reason": "user_abandoned", "failure": "user_quit"},
        {**base, "task_id": "t2", "reason": "user_abandoned", "failure": "abandoned"},
        {**base, "task_id": "t3", "reason": "user_stop", "failure": None, "reward": 1.0},
    ]
    figures = summarize(rows, 1)
    assert figures["user_quits"] == 1 and figures["n"] == 2
    assert figures["abandonment_rate"] == 0.5 and figures["success_rate"] == 0.5


def test_the_quit_line_names_the_refusal_it_gave_up_on() -> None:
    line = refused_grievance("$250.00 in compensation for reservation FM3RWJ", 3)
    assert line == (
        "I've asked four times for $250.00 in compensation for reservation FM3RWJ and you still "
        "won't do it."
    )
