"""Issue 22's bar in every domain: a hard tier, refusal rules with tasks, variety, personas.

Parametrised over the built-in domains like ``test_every_domain``. Each policy marks its
refusal rules ``[rule ID]`` and every rule is the reason of some task; at least 40 % of the
tasks are ``hard`` and together their intents exercise every challenge (``CHALLENGES``), each
measured on every task of an intent that declares it where the task data can show it; long
horizons and varied paths and openings reach the figures the issue sets (``domains stats``);
every task has a persona and every persona plays somewhere.
"""

from __future__ import annotations

import pytest

from tau_sim.simulator.core.registry import DOMAINS, get_domain, load_plugins
from tau_sim.simulator.world import CHALLENGES, PERSONAS, Domain, Task, task_stats
from tau_sim.simulator.world.taskstats import is_conditional, record_ids

load_plugins()
NAMES = [name for name in DOMAINS.names() if "/" not in name]

HARD_SHARE = 0.4
LONG_SHARE = 0.15
LONGEST_PATH = 12
VARIETY = 0.6


@pytest.fixture(scope="module", params=NAMES)
def domain(request: pytest.FixtureRequest) -> Domain:
    return get_domain(request.param)


def _hands_over_an_id(task: Task) -> bool:
    scenario = task.scenario
    text = "\n".join([scenario.opening, scenario.goal, *scenario.known_info.values()]).lower()
    return any(len(v.lstrip("#")) >= 3 and v.lower().lstrip("#") in text for v in record_ids(task))


def test_every_refusal_rule_of_the_policy_is_the_reason_of_a_task(domain: Domain) -> None:
    rules = domain.policy_rules
    assert rules, f"{domain.name}: policy.md marks no refusal rule [rule ID]"
    for intent in domain.intents:
        unknown = sorted(set(intent.rules) - set(rules))
        assert not unknown, f"{intent.name}: rules {unknown} are not in the policy"
        if intent.forbidden or "mixed" in intent.challenges:
            assert intent.rules, f"{intent.name} refuses something: name the rule it tests"
    tested = {rule for task in domain.tasks for rule in domain.rules_of(task)}
    untested = [rule for rule in rules if rule not in tested]
    assert not untested, f"{domain.name}: no task tests {untested}"


def test_the_hard_tier_is_two_fifths_and_exercises_every_challenge(domain: Domain) -> None:
    tasks = domain.tasks
    hard = [t for t in tasks if t.tier == "hard"]
    assert len(hard) >= HARD_SHARE * len(tasks), f"{len(hard)} of {len(tasks)} tasks are hard"
    exercised = {c for t in hard for c in domain.intent(t.intent).challenges}
    missing = [c for c in CHALLENGES if c not in exercised]
    assert not missing, f"{domain.name}: no hard task exercises {missing}"
    for task in tasks:
        assert task.tier == domain.intent(task.intent).tier, task.id


def test_each_declared_challenge_holds_on_every_task_of_its_intent(domain: Domain) -> None:
    for task in domain.tasks:
        intent = domain.intent(task.intent)
        writes = len(domain.write_actions(task))
        violations = domain.violations(task)
        for challenge in intent.challenges:
            where = f"{task.id} ({intent.name}): {challenge}"
            if challenge == "search":
                assert record_ids(task) and not _hands_over_an_id(task), where
            elif challenge == "conditional":
                assert is_conditional(task), where
            elif challenge == "later":
                later = task.scenario.later
                assert later and task.later_at is not None, where
                assert later.lower() not in task.scenario.opening.lower(), where
                assert later.lower() not in task.scenario.goal.lower(), where
            elif challenge == "mixed":
                assert not intent.forbidden and writes and violations, where
                assert task.scenario.demand and task.required_outputs, where
            elif challenge == "long":
                assert 3 <= writes <= 5, f"{where}: {writes} writes"
            elif challenge == "disproven":
                assert intent.forbidden or violations, where
                assert task.required_outputs and intent.rules, where


def test_long_horizons_and_varied_paths_and_openings(domain: Domain) -> None:
    stats = task_stats(domain)
    assert stats.writes_3plus is not None and stats.writes_3plus >= LONG_SHARE, stats
    assert stats.gold_max is not None and stats.gold_max >= LONGEST_PATH, stats
    assert stats.sequences_per_task is not None and stats.sequences_per_task >= VARIETY, stats
    assert stats.openings_per_task is not None and stats.openings_per_task >= VARIETY, stats


def test_every_task_has_a_persona_and_every_persona_plays(domain: Domain) -> None:
    personas = [t.scenario.persona for t in domain.tasks]
    assert set(personas) == set(PERSONAS), sorted(set(personas))
