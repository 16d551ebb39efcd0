"""The order of independent writes never changes the reward (issue 39 item 1).

For every task of every built-in domain (base and hard tiers) gold's writes are replayed on a
fresh database in a few orders that keep every dependency, and the evaluator must give the
state the full reward. A write depends on an earlier one when it uses an id the earlier one
created (a record key the base lacks), or when the domain's rules make the second read what
the first changed (``ORDER_MATTERS``: a bill needs its reading first, a payment is for the
balance a change left). Everything else the policy leaves in any order.
"""

from __future__ import annotations

import random

import pytest

from tau_sim.simulator.core.events import AgentMessage, Event
from tau_sim.simulator.core.registry import DOMAINS, get_domain, load_plugins
from tau_sim.simulator.world.domain import Action, Domain, Task
from tau_sim.simulator.world.evaluation import Evaluator, state_event
from tau_sim.simulator.world.told import string_arguments

load_plugins()
NAMES = [name for name in DOMAINS.names() if "/" not in name]

ORDER_MATTERS: dict[str, set[tuple[str, str]]] = {
    # a device change takes effect at the next restart
    "telecom": {
        ("reset_apn_settings", "restart_device"),
        ("reseat_sim_card", "restart_device"),
        ("install_software_update", "restart_device"),
        ("grant_messaging_permissions", "restart_device"),
    },
    # an appointment's cost is priced from the insurance on file when it is booked
    "telehealth": {("update_insurance", "book_appointment")},
    # a payment is for the balance a driver change left
    "insurance": {("add_driver", "make_payment")},
    # a night paid with points cannot be upgraded
    "hotel": {("upgrade_room", "redeem_points_for_night")},
    # each change is charged for the days and class the booking has then: the policy sets the
    # order (upgrade, extension, insurance, return branch)
    "car_rental": {
        ("change_vehicle_class", "extend_booking"),
        ("change_vehicle_class", "add_insurance"),
        ("change_vehicle_class", "change_return_location"),
        ("extend_booking", "add_insurance"),
        ("extend_booking", "change_return_location"),
    },
    # a bill needs a reading; payments, plans and transfers are for the balance bills left
    "utilities": {
        ("submit_meter_reading", "create_bill"),
        ("record_final_reading", "close_account"),
        ("record_final_reading", "open_account"),
        ("record_final_reading", "transfer_balance"),
        ("record_final_reading", "make_payment"),
        ("submit_meter_reading", "make_payment"),
        ("create_bill", "make_payment"),
        ("make_payment", "create_payment_plan"),
        ("close_account", "transfer_balance"),
        ("close_account", "make_payment"),
    },
}


def dependencies(domain: Domain, task: Task, writes: list[Action]) -> list[set[int]]:
    """For each write, the earlier writes it must follow (ids they created, ORDER_MATTERS)."""
    db = domain.new_database(task)
    created: list[set[str]] = []
    for action in writes:
        before = {k for _, k, _ in db.changes()}
        domain.call(db, action)
        created.append(
            {
                k
                for t, k, r in db.changes()
                if k not in before and r is not None and db.base_record(t, k) is None
            }
        )
    ordered = ORDER_MATTERS.get(domain.name, set())
    needs: list[set[int]] = []
    for j, action in enumerate(writes):
        values = [v for _, v in string_arguments(dict(action.arguments))]
        needs.append(
            {
                i
                for i in range(j)
                if (writes[i].name, action.name) in ordered
                or any(key in value for key in created[i] for value in values)
            }
        )
    return needs


def orders(count: int, needs: list[set[int]], rng: random.Random) -> list[list[int]]:
    """``count`` random orders of the writes in which each follows the writes it needs."""
    found = []
    for _ in range(count):
        left, order = list(range(len(needs))), []
        while left:
            index = rng.choice([i for i in left if needs[i] <= set(order)])
            order.append(index)
            left.remove(index)
        found.append(order)
    return found


def replayed(domain: Domain, task: Task, writes: list[Action]) -> list[Event]:
    """The evidence of a conversation that made ``writes`` and said every required output."""
    db = domain.new_database(task)
    for action in writes:
        outcome = domain.call(db, action)
        assert not outcome.error, f"{task.id}: {action.name} fails: {outcome.content}"
    text = f"Done. Details: {'; '.join(task.required_outputs)}."
    said = AgentMessage(conversation="order", text=text)
    return [said, state_event("order", db)]


@pytest.mark.parametrize("name", NAMES)
def test_independent_writes_in_any_order_score_full(name: str) -> None:
    domain = get_domain(name)
    evaluator = Evaluator(domain)
    rng = random.Random(39)
    for task in domain.tasks:
        writes = domain.write_actions(task)
        needs = dependencies(domain, task, writes)
        for order in orders(4, needs, rng):
            events = replayed(domain, task, [writes[i] for i in order])
            score, breakdown = evaluator.evaluate(task, events)
            assert breakdown.db_match, f"{task.id}: {[writes[i].name for i in order]}"
            assert score == 1.0, f"{task.id}: {breakdown.missing_outputs}"


def test_the_order_free_hash_still_tells_different_states_apart() -> None:
    domain = get_domain("hotel")
    task = next(t for t in domain.tasks if len(domain.write_actions(t)) >= 2)
    evaluator = Evaluator(domain)
    writes = domain.write_actions(task)
    events = replayed(domain, task, writes[:-1])
    assert not evaluator.evaluate(task, events)[1].db_match
