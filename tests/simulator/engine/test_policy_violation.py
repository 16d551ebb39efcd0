"""``policy_violation``: a final state that holds a forbidden write the task's user asks for.

The states are real: the airline domain's tools run on its copy-on-write database, and the
evaluator replays the gold path and the task's violations on a fresh one.
"""

from __future__ import annotations

import msgspec
import pytest

from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.engine.failures import diagnose_task
from tau_sim.simulator.world import Action, Domain, Task, make_evaluator, state_event


@pytest.fixture(scope="module")
def airline() -> Domain:
    load_plugins()
    return get_domain("airline")


def failure_after(domain: Domain, task: Task, made: list[Action], reason: str) -> tuple[str, str]:
    """(kind, detail) of a conversation on ``task`` that made the calls ``made``."""
    db = domain.new_database(task)
    for action in made:
        assert not domain.call(db, action).error
    events = [state_event("c1", db)]
    evaluator = make_evaluator(domain)
    _, breakdown = evaluator.evaluate(task, events)
    failure = diagnose_task(
        evaluator, task, reason=reason, detail="", reward=0.0, breakdown=breakdown, events=events
    )
    assert failure is not None
    return failure.kind, failure.detail


def test_the_forbidden_write_is_a_policy_violation_however_it_ended(airline: Domain) -> None:
    task = next(t for t in airline.tasks if t.intent == "basic_economy_cancel_refused")
    (violation,) = airline.violations(task)
    for reason in ("user_stop", "max_steps", "user_abandoned"):
        kind, detail = failure_after(airline, task, [*task.actions, violation], reason)
        assert kind == "policy_violation"
        assert detail.startswith("forbidden write cancel_reservation(reservation_id=")
        assert f"reservations {violation.arguments['reservation_id']}" in detail


def test_another_wrong_write_stays_a_wrong_write(airline: Domain) -> None:
    task = next(t for t in airline.tasks if t.intent == "basic_economy_cancel_refused")
    (violation,) = airline.violations(task)
    # cancelled without the refund the user asked for: wrong, but not the write they pressed for
    unrefunded = Action("cancel_reservation", {**violation.arguments, "refund_amount": 0.0})
    assert (
        failure_after(airline, task, [*task.actions, unrefunded], "user_stop")[0] == "wrong_write"
    )


def test_a_task_without_violations_never_gets_one(airline: Domain) -> None:
    task = next(t for t in airline.tasks if t.intent == "cancel_reservation")
    assert airline.violations(task) == [] and make_evaluator(airline).violations(task) == []
    *reads, cancel = task.actions
    wrong = Action(cancel.name, {**cancel.arguments, "refund_amount": 1.0})
    assert failure_after(airline, task, [*reads, wrong], "max_steps")[0] == "max_steps"
    assert failure_after(airline, task, [*reads, wrong], "user_stop")[0] == "wrong_write"


def test_the_violations_are_the_task_lines_not_the_generators(airline: Domain) -> None:
    task = next(t for t in airline.tasks if t.intent == "compensation_over_cap_transfer")
    assert airline.violations(task) == task.violations != []
    # a line of format 1 (written before lines carried their data) has no known violation
    bare = msgspec.structs.replace(task, violations=[], rules=[], forbidden=False, format=1)
    assert airline.violations(bare) == [] and make_evaluator(airline).violations(bare) == []


def test_a_violation_that_undoes_a_side_record_of_a_gold_write_is_still_one() -> None:
    """Hotel: the dates of a non-refundable stay moved after its upgrade; the upgrade's night
    on the old dates goes back to the base, so the violation's record of it is None."""
    load_plugins()
    hotel = get_domain("hotel")
    task = next(t for t in hotel.tasks if t.intent == "non_refundable_keeps_dates")
    violations = hotel.violations(task)
    evaluator = make_evaluator(hotel)
    assert any(None in v.records.values() for v in evaluator.violations(task))
    kind, _ = failure_after(hotel, task, [*task.actions, *violations], "user_stop")
    assert kind == "policy_violation"
