"""Sampling tasks: an intent that has given all its distinct tasks leaves the round."""

from __future__ import annotations

import pytest

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.world import Intent
from tests.agents.toy_domain import gym


def test_a_domain_says_how_many_distinct_tasks_it_has_instead_of_looping() -> None:
    domain = gym()  # one customer, two bookings: few distinct tasks
    every = domain.generate_tasks(count=3, seed=0)
    assert [t.id for t in every] == ["gym-000", "gym-001", "gym-002"]
    with pytest.raises(UsageError) as refused:
        domain.generate_tasks(count=500, seed=0)
    message = str(refused.value)
    assert (
        message.startswith("domain 'gym' has ") and "distinct tasks for seed 0, not 500" in message
    )
    most = int(message.split()[3])
    assert 3 <= most < 500
    assert len(domain.generate_tasks(count=most, seed=0)) == most  # the figure it names is true


def test_the_same_seed_samples_the_same_tasks_whatever_the_count() -> None:
    domain = gym()
    few, more = domain.generate_tasks(count=2, seed=3), domain.generate_tasks(count=3, seed=3)
    assert more[:2] == few


def test_an_intent_is_described_by_its_docstring_unless_it_sets_a_description() -> None:
    class Refund(Intent):
        """Refund a late order
        in full.

        The long story: what the intent samples and why.
        """

        name = "refund"

    class Named(Refund):
        """A docstring the catalog does not show."""

        description = "The user asks for a refund."

    class Quiet(Refund):
        name = "quiet"

    assert Refund.description == "Refund a late order in full."
    assert Named.description == "The user asks for a refund."
    assert Quiet.description == Refund.description  # no docstring of its own: the parent's
