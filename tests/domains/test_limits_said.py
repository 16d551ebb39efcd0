"""A limit the user sets on a request is said, so no calibrator picks a branch from the answer key.

Conditional tasks turn on a threshold the user holds ("if that raises my premium by more than
$40, do not add them"; "if the exchange costs more than $20 extra, return it instead"): the gold
agent follows the answer key's path, and it may take the branch the key names only because the
user said what decides it. Over every task of every built-in domain and 60 of Tracer's
constructed tasks per domain, each such amount in the goal is in the opening, the user's demand
or a known fact the user gives when asked.
"""

from __future__ import annotations

import re

import msgspec
import pytest

from tau_sim.simulator.core.registry import DOMAINS, get_domain, load_plugins
from tau_sim.simulator.world import Task
from tau_sim.tracer.construct import construct

load_plugins()
NAMES = [name for name in DOMAINS.names() if "/" not in name]
LIMIT = re.compile(
    r"\b(?:more than|less than|below|above|over|at most|under|up to) (\$\d+(?:,\d{3})*(?:\.\d\d)?)"
)


def unsaid_limits(task: Task) -> list[str]:
    """The goal's limits that the opening, the demand and the known facts never state."""
    scenario = task.scenario
    said = " ".join([scenario.opening, scenario.demand, *map(str, scenario.known_info.values())])
    return [limit for limit in LIMIT.findall(scenario.goal) if limit not in said]


@pytest.mark.parametrize("name", NAMES)
def test_every_limit_in_a_goal_is_said(name: str) -> None:
    domain = get_domain(name)
    tasks = [*domain.tasks, *construct(domain, 60, seed=3).tasks]
    missing = {t.id: unsaid_limits(t) for t in tasks if unsaid_limits(t)}
    assert not missing, missing


def test_the_check_finds_a_limit_left_unsaid() -> None:
    task = next(t for t in get_domain("insurance").tasks if t.intent == "schedule_collection")
    (limit,) = LIMIT.findall(task.scenario.goal)
    assert unsaid_limits(task) == []
    hidden = task.scenario.opening.replace(limit, "a set amount")
    unsaid = msgspec.structs.replace(
        task, scenario=msgspec.structs.replace(task.scenario, opening=hidden)
    )
    assert unsaid_limits(unsaid) == [limit]
