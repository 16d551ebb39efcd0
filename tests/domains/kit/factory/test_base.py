"""The kit's shared base-intent pieces: ``one_of`` draws as ``rng.choice`` does; ``Refuses`` puts
the refused write where ``done_at`` says and keeps the domain's generic mistakes where
``own_mistakes`` says; ``OtherChoice`` picks another of the user's choices."""

from __future__ import annotations

import random

from tau_sim.domains.kit import tools as kit_tools
from tau_sim.domains.kit.factory.base import OtherChoice, listing, one_of
from tau_sim.domains.kit.factory.refusals import Refuses
from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.simulator.world.database import Base
from tau_sim.simulator.world.domain import Action, Domain, Task, UserScenario
from tau_sim.simulator.world.tools import Toolkit

LOOKUP = Action("find_user_id_by_email", {"email": "ana@example.com"})
CANCEL = Action("cancel", {"order_id": "O1", "reason": "ordered by mistake"})
TRANSFER = Action("transfer_to_human_agents", {"summary": "s"})
REFUND = Action("refund", {"order_id": "O1"})


def _domain() -> Domain:
    tools = Toolkit([kit_tools.address_tool("cancel", "Cancel."), kit_tools.calculate])
    return Domain(name="t", title="t", policy="", toolkit=tools, build_base=lambda: Base({}))


def _task(*actions: Action) -> Task:
    scenario = UserScenario(goal="", opening="", known_info={}, unknown_info=[])
    return Task(
        id="t-0", domain="t", intent="x", scenario=scenario, auth_slots=[], actions=list(actions)
    )


class _Shop(CustomerIntent):
    """A domain's base intent: its one generic mistake is the gold path without its last step."""

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        return [task.actions[:-1]]


class _Refund(Refuses, _Shop):
    own_mistakes = "before"

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        return [REFUND]


class _RefundInstead(_Refund):
    done_at = "instead"


class _RefundBefore(_Refund):
    done_at = "before"


class _OnlyRefund(Refuses, _Shop):
    done_at = "instead"
    own_mistakes = "none"

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        return [REFUND]


class _NothingRefused(Refuses, _Shop):
    """Its task names no refused write (``refusing``): the tools refuse the request themselves."""


class _Cancel(OtherChoice, _Shop):
    choice, choices = "reason", ("no longer needed", "ordered by mistake")


def test_one_of_draws_what_rng_choice_of_the_list_draws() -> None:
    words = ["Hi, cancel it.", "Hello, please cancel my order.", "Cancel it, please."]
    for seed in range(20):
        a, b = random.Random(seed), random.Random(seed)
        assert one_of(a, *words) == b.choice(words)
        assert a.random() == b.random()  # the same number of draws


def test_listing_joins_as_a_sentence_lists() -> None:
    assert listing(["the Satay"]) == "the Satay"
    assert listing(["a", "b"]) == "a and b"
    assert listing(("a", "b", "c")) == "a, b and c"


def test_refuses_keeps_the_generic_mistakes_and_puts_the_refused_write_where_told() -> None:
    domain, task = _domain(), _task(LOOKUP, TRANSFER)
    assert _Refund().mistakes(domain, task) == [[LOOKUP], [LOOKUP, TRANSFER, REFUND]]
    assert _RefundInstead().mistakes(domain, task) == [[LOOKUP], [LOOKUP, REFUND]]
    assert _RefundBefore().mistakes(domain, task) == [[LOOKUP], [LOOKUP, REFUND, TRANSFER]]
    assert _OnlyRefund().mistakes(domain, task) == [[LOOKUP, REFUND]]
    assert _NothingRefused().mistakes(domain, task) == [[LOOKUP]]  # no gold path as a mistake


def test_other_choice_changes_the_last_write_to_the_first_other_value() -> None:
    domain, task = _domain(), _task(LOOKUP, CANCEL)
    generic, other = _Cancel().mistakes(domain, task)
    assert generic == [LOOKUP]
    assert other == [LOOKUP, Action("cancel", {"order_id": "O1", "reason": "no longer needed"})]
