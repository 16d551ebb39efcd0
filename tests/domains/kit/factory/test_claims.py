"""The claim combinators of ``domains/kit/factory/claims.py`` in the domains built on them.

Every ``DisprovenClaim`` is a hard, forbidden intent; every intent over ``refusals.Refuses``
lists the agent that gives in (the refused writes made) among its mistakes, and those writes
are the task line's violations; the late cancellation claim of
hotel and car_rental refuses the full refund, and its second mistake (cancelled with the fee
kept) refunds exactly the amount the gold path states.
"""

from __future__ import annotations

import pytest

from tau_sim.domains.kit.factory.claims import DisprovenClaim, LateCancellation
from tau_sim.domains.kit.factory.refusals import Refuses
from tau_sim.domains.kit.payments import money_text
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.world import Domain

load_plugins()
CLAIMING = ["airline", "banking", "car_rental", "hotel", "insurance", "utilities"]


@pytest.fixture(scope="module", params=CLAIMING)
def domain(request: pytest.FixtureRequest) -> Domain:
    return get_domain(request.param)


def test_a_refused_write_is_the_violation_and_a_mistake(domain: Domain) -> None:
    refusing = {i.name for i in domain.intents if isinstance(i, Refuses)}
    assert refusing, f"{domain.name}: no intent over the kit's claims"
    tasks = [t for t in domain.tasks if t.intent in refusing]
    assert tasks, f"{domain.name}: no task of {sorted(refusing)}"
    for task in tasks:
        intent = domain.intent(task.intent)
        if isinstance(intent, DisprovenClaim):
            assert intent.forbidden and task.tier == "hard", task.id
        if task.violations:
            made = intent.gave_in(domain, task)
            assert all(v in made for v in task.violations), task.id
            assert made in intent.mistakes(domain, task), task.id
            assert task.violations == intent.violations(domain, task), task.id


@pytest.mark.parametrize("name", ["hotel", "car_rental"])
def test_the_late_cancellation_refuses_the_full_refund_and_states_the_fee_kept(name: str) -> None:
    domain = get_domain(name)
    intent = domain.intent("late_cancellation_claim")
    assert isinstance(intent, LateCancellation)
    tasks = [t for t in domain.tasks if t.intent == intent.name]
    assert tasks
    for task in tasks:
        (full,) = task.violations
        assert full.name.startswith("cancel_") and not domain.write_actions(task), task.id
        with_fee = intent.mistakes(domain, task)[1][-1]
        assert with_fee.arguments["refund_amount"] < full.arguments["refund_amount"], task.id
        assert money_text(with_fee.arguments["refund_amount"]) in task.required_outputs, task.id
        record_id = full.arguments[intent.records.key]
        assert record_id not in task.scenario.goal + task.scenario.opening, task.id
        assert money_text(full.arguments["refund_amount"]) in task.scenario.goal, task.id
