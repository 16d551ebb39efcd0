"""The mixed challenge's combinator over real domains: the refused writes a task is built with,
the agent that gives in, and the friend's record that ``CancelOwnAndOthers`` refuses."""

from __future__ import annotations

import random

import pytest

from tau_sim.domains.kit.factory.mixed import CancelOwnAndOthers
from tau_sim.domains.kit.factory.refusals import Refuses
from tau_sim.domains.kit.lookup import record
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.world import Domain, Task

load_plugins()


def _tasks(domain: Domain, name: str) -> list[Task]:
    tasks = [t for t in domain.tasks if t.intent == name]
    assert tasks, f"{domain.name} has no {name} task"
    return tasks


@pytest.mark.parametrize(
    ("domain_name", "table"), [("hotel", "reservations"), ("car_rental", "bookings")]
)
def test_the_friends_record_is_refused_and_the_tools_would_cancel_it(
    domain_name: str, table: str
) -> None:
    domain = get_domain(domain_name)
    intent = domain.intent("cancel_mine_and_friends")
    assert isinstance(intent, CancelOwnAndOthers)
    for task in _tasks(domain, intent.name):
        db = domain.new_database(task)
        (refused,) = task.violations
        (field,) = [k for k in refused.arguments if k.endswith("_id")]
        theirs = record(db, table, refused.arguments[field])
        own = record(db, table, task.actions[-1].arguments[field])
        assert refused.arguments[field] in task.scenario.known_info.values(), task.id
        assert theirs.user_id != own.user_id, task.id
        for action in [*task.actions, refused]:
            assert not domain.call(db, action).error, (task.id, action.name)


def test_a_refusing_intent_names_its_refused_writes_when_it_samples() -> None:
    domain = get_domain("car_rental")
    intent = domain.intent("late_return_and_big_damage")
    assert isinstance(intent, Refuses) and intent.done_at == "instead"
    rng = random.Random(7)
    task = next(t for _ in range(200) if (t := intent.sample(domain, domain.new_database(), rng)))
    assert [a.name for a in task.violations] == ["file_damage_report"]
    assert intent.violations(domain, task) == task.violations
    gave_in = intent.mistakes(domain, task)[0]
    # the agent that gives in files the damage instead of transferring the user
    assert gave_in == [*task.actions[:-1], *task.violations]
    assert task.actions[-1].name == "transfer_to_human_agents"
