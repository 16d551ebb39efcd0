"""``refusals.Refuses`` over real domains: the agent that gives in stands among a task's
mistakes where the intent's ``own_mistakes`` says, and the task line carries the same list."""

from __future__ import annotations

import pytest

from tau_sim.domains.kit.factory.refusals import Refuses
from tau_sim.simulator.core.registry import get_domain, load_plugins

load_plugins()


@pytest.mark.parametrize(
    ("domain_name", "intent_name", "placement"),
    [
        ("retail", "mixed_return_window", "after"),
        ("banking", "dispute_beside_expired", "before"),
        ("hotel", "never_cleaned_claim", "none"),
    ],
)
def test_the_agent_that_gives_in_stands_where_own_mistakes_says(
    domain_name: str, intent_name: str, placement: str
) -> None:
    domain = get_domain(domain_name)
    intent = domain.intent(intent_name)
    assert isinstance(intent, Refuses) and intent.own_mistakes == placement
    tasks = [t for t in domain.tasks if t.intent == intent_name]
    assert tasks
    for task in tasks:
        mistakes = intent.mistakes(domain, task)
        gave_in = intent.gave_in(domain, task)
        assert task.mistakes == mistakes, task.id
        assert all(v in gave_in for v in task.violations) and task.violations, task.id
        if placement == "after":
            assert mistakes[0] == gave_in, task.id
        elif placement == "before":
            assert gave_in in mistakes[1:], task.id
        else:
            assert mistakes == [gave_in], task.id
