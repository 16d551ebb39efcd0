"""The chain-of-writes combinator: slips declared on an intent become its mistakes, in order."""

from __future__ import annotations

import msgspec

from tau_sim.domains.kit.factory.chains import (
    Chain,
    changed,
    flipped,
    last_write,
    later_left_out,
    left_out,
    less,
    links,
    more,
)
from tau_sim.domains.kit.tasks import ELSEWHERE, CustomerIntent, replaced
from tau_sim.domains.kit.tools import address_tool, calculate
from tau_sim.simulator.world.database import Base
from tau_sim.simulator.world.domain import Action, Domain, Task, UserScenario
from tau_sim.simulator.world.tools import Toolkit

DOMAIN = Domain(
    name="t",
    title="t",
    policy="",
    toolkit=Toolkit([address_tool("move", "Move."), calculate]),
    build_base=lambda: Base({}),
)
PROFILE = Action("get_user_details", {"user_id": "ana_1"})
PAY = Action("pay", {"amount": 25.0})
FREEZE_A = Action("freeze", {"card_id": "a"})
FREEZE_B = Action("freeze", {"card_id": "b"})


def _task(*actions: Action, later_at: int | None = None) -> Task:
    return Task(
        id="t-0",
        domain="t",
        intent="chain",
        scenario=UserScenario(goal="", opening="", known_info={}, unknown_info=[]),
        auth_slots=[],
        actions=[Action("find_user_id_by_email", {"email": "ana@example.com"}), *actions],
        later_at=later_at,
    )


class _Base(CustomerIntent):
    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        return [task.actions[:1]]


class _Cleanup(Chain, _Base):
    name = "chain"
    slips = (
        left_out("freeze", -1),
        changed("pay", less(10.0)),
        later_left_out,
        left_out("transfer"),
    )


def test_slips_follow_the_base_mistakes_in_their_declared_order() -> None:
    task = _task(PROFILE, PAY, FREEZE_A, FREEZE_B, later_at=3)
    head = task.actions[0]
    paths = _Cleanup().mistakes(DOMAIN, task)
    assert paths == [
        [head],  # the base class's
        [head, PROFILE, PAY, FREEZE_A],  # the last freeze left out
        [head, PROFILE, Action("pay", {"amount": 15.0}), FREEZE_A, FREEZE_B],
        [head, PROFILE, PAY],  # the need raised later never served
    ]


def test_a_slip_that_does_not_apply_or_gives_the_gold_path_is_no_mistake() -> None:
    small = Action("pay", {"amount": 10.0})
    task = _task(PROFILE, small)
    assert changed("pay", less(10.0))(DOMAIN, task) is None  # nothing left to pay
    assert left_out("freeze")(DOMAIN, task) is None
    assert later_left_out(DOMAIN, task) is None
    same = changed("pay", lambda a: replaced(a, amount=10.0))
    assert same(DOMAIN, task) == task.actions

    class _Same(Chain, CustomerIntent):
        name = "same"
        slips = (same,)

    assert _Same().mistakes(DOMAIN, task) == []


def test_changed_reaches_one_call_or_every_call_of_a_tool() -> None:
    task = _task(FREEZE_A, PAY, FREEZE_B)
    unfreeze = changed("freeze", lambda a: Action("unfreeze", a.arguments), None)
    path = unfreeze(DOMAIN, task)
    assert path is not None and [a.name for a in path[1:]] == ["unfreeze", "pay", "unfreeze"]
    second = changed("freeze", lambda a: replaced(a, card_id="c"), 1)(DOMAIN, task)
    assert second is not None and second[1:] == [FREEZE_A, PAY, replaced(FREEZE_B, card_id="c")]
    assert changed("freeze", lambda a: a, 2)(DOMAIN, task) is None
    assert links(task, "freeze") == [FREEZE_A, FREEZE_B]


def test_left_out_takes_that_very_call_when_two_are_equal() -> None:
    first = Action("move", {"user_id": "ana_1", **ELSEWHERE})
    again = Action("move", {"user_id": "ana_1", **ELSEWHERE})
    task = msgspec.structs.replace(_task(), actions=[first, PAY, again])
    kept = left_out("move", 1)(DOMAIN, task)
    assert kept == [first, PAY] and kept[0] is first


def test_last_write_changes_only_the_last_write_as_told() -> None:
    first = Action("move", {"user_id": "ana_1", **ELSEWHERE, "urgent": False, "floor": 2})
    second = replaced(first, user_id="ana_2")
    task = _task(PAY, first, second, FREEZE_A)  # pay and freeze are no tools of DOMAIN's
    urgent = last_write(flipped("urgent"))(DOMAIN, task)
    assert urgent == [*task.actions[:3], replaced(second, urgent=True), FREEZE_A]
    higher = last_write(more("floor", 1.5))(DOMAIN, task)
    assert higher is not None and higher[3] == replaced(second, floor=3.5)
    assert last_write(more("floor", 1))(DOMAIN, _task(PAY)) is None  # no write at all
