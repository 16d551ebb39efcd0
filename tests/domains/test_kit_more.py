"""The kit pieces the second consolidation added: record codes, refund checks, caps, month
arithmetic, minute counts, the mistake and figure helpers of intents, and address tools on
orders."""

from __future__ import annotations

import datetime
import random

import msgspec
import pytest

from tau_sim.domains.kit import tools as kit_tools
from tau_sim.domains.kit.calc import add_months, minutes_from
from tau_sim.domains.kit.codes import CODE_ALPHABET, drawn_code, new_code
from tau_sim.domains.kit.lookup import order_key, require_status
from tau_sim.domains.kit.payments import Payment, capped, check_refund, net_paid, share_of
from tau_sim.domains.kit.people import Address, Customer, Name
from tau_sim.domains.kit.tasks import ELSEWHERE, replaced, replay_actions, swapped
from tau_sim.simulator.world.database import Base, Database
from tau_sim.simulator.world.domain import Action, Domain, Task, UserScenario
from tau_sim.simulator.world.tools import ToolError, Toolkit

HOME = Address("1 Main Street", "", "Austin", "TX", "USA", "78701")


def test_new_code_is_deterministic_and_skips_codes_in_use() -> None:
    db = Base({"bookings": {}}).database()
    first = new_code(db, "bookings", "seed-1", prefix="CR")
    assert first == new_code(db, "bookings", "seed-1", prefix="CR")
    assert first.startswith("CR") and len(first) == 8
    assert all(c in CODE_ALPHABET for c in first[2:])
    assert new_code(db, "bookings", "seed-2", prefix="CR") != first
    db.put("bookings", first, {"taken": True})
    second = new_code(db, "bookings", "seed-1", prefix="CR")
    assert second != first and db.get("bookings", second) is None


def test_net_paid_and_check_refund_bound_a_refund_by_what_was_paid() -> None:
    history = [Payment("payment", 120.0, "gift_card_1"), Payment("refund", 20.5, "gift_card_1")]
    paid = net_paid(history)
    assert paid == 99.5
    check_refund(99.5, paid, "booking CR1")
    with pytest.raises(ToolError, match="must not be negative"):
        check_refund(-1.0, paid, "booking CR1")
    with pytest.raises(ToolError, match=r"\$99\.51 is above the \$99\.50 paid for booking CR1"):
        check_refund(99.51, paid, "booking CR1")


def test_share_of_rounds_down_and_capped_takes_the_smallest_room() -> None:
    assert share_of(33.33, 0.5) == 16.66
    assert share_of(40.0, 0.5) == 20.0
    assert capped(25.0, 30.0, 12.345) == 12.35
    assert capped(25.0, -3.0) == 0.0


def test_add_months_clips_to_the_month_and_minutes_from_counts_both_ways() -> None:
    assert add_months(datetime.date(2026, 1, 31), 1) == datetime.date(2026, 2, 28)
    assert add_months(datetime.date(2025, 11, 15), 14) == datetime.date(2027, 1, 15)
    assert minutes_from("2026-03-01T19:30", "2026-03-01T20:15") == 45
    assert minutes_from("2026-03-01T20:15", "2026-03-01T19:30") == -45


def _task(actions: list[Action]) -> Task:
    scenario = UserScenario(goal="", opening="", known_info={}, unknown_info=[])
    return Task(id="t-0", domain="t", intent="x", scenario=scenario, auth_slots=[], actions=actions)


def test_replaced_and_swapped_change_one_action_of_the_gold_path() -> None:
    first = Action("calculate", {"expression": "1 + 1"})
    again = Action("calculate", {"expression": "1 + 1"})
    task = _task([first, again])
    wrong = replaced(again, expression="2 + 2")
    assert wrong == Action("calculate", {"expression": "2 + 2"})
    assert swapped(task, again, wrong) == [first, wrong]


def test_play_decodes_results_and_stops_at_a_refusal() -> None:
    tools = Toolkit([kit_tools.address_tool("move", "Move."), kit_tools.calculate])
    ana = Customer("ana_1", Name("Ana", "Lopez"), HOME, "ana@example.com", ())
    base = Base({"users": {"ana_1": ana}})
    domain = Domain(name="t", title="t", policy="", toolkit=tools, build_base=lambda: base)
    db = domain.new_database()
    move = Action(
        "move",
        {
            "user_id": "ana_1",
            "address1": "2 Elm Street",
            "address2": "",
            "city": "Reno",
            "state": "NV",
            "country": "USA",
            "zip": "89501",
        },
    )
    results = replay_actions(domain, db, [Action("calculate", {"expression": "2 * 3"}), move])
    assert results is not None
    assert results[0] == 6.0
    assert results[1]["address"]["city"] == "Reno"
    fresh = domain.new_database()
    refused = [Action("calculate", {"expression": "1 / 0"}), move]
    assert replay_actions(domain, fresh, refused) is None
    user = fresh.get("users", "ana_1")
    assert isinstance(user, Customer) and user.address.city == "Austin"


class Parcel(msgspec.Struct, frozen=True):
    order_id: str
    status: str
    address: Address


def test_an_address_tool_on_orders_names_the_order_and_refuses_what_find_refuses() -> None:
    home = HOME
    base = Base({"orders": {"#1": Parcel("#1", "pending", home), "#2": Parcel("#2", "sent", home)}})
    db = base.database()

    def pending(db: Database, order_id: str) -> Parcel:
        order = db.get("orders", order_key(order_id))
        assert isinstance(order, Parcel)
        require_status(order, ("pending",), "modified")
        return order

    move = kit_tools.address_tool(
        "move_order", "Move an order.", table="orders", key=("order_id", "The order."), find=pending
    )
    params = move.spec.parameters
    assert list(params["properties"]) == ["order_id", *ELSEWHERE]
    assert params["properties"]["order_id"]["description"] == "The order."
    assert params["required"] == ["order_id", *ELSEWHERE]
    tools = Toolkit([move])
    assert not tools.call(db, "move_order", {"order_id": "1", **ELSEWHERE}).error
    assert db.get("orders", "#1").address.city == "Reno"
    refused = tools.call(db, "move_order", {"order_id": "#2", **ELSEWHERE})
    assert refused.content == "Error: order #2 is 'sent': only 'pending' orders can be modified"
    assert db.get("orders", "#2").address == home


def test_drawn_codes_are_new_and_never_all_digits() -> None:
    rng, taken = random.Random(3), {"AAAAAA"}
    codes = [drawn_code(rng, taken, "CR") for _ in range(200)]
    assert len(set(codes)) == 200 and taken == {"AAAAAA", *codes}
    assert all(c.startswith("CR") and len(c) == 8 for c in codes)
    plain = [drawn_code(random.Random(n), set()) for n in range(500)]
    assert not any(c.isdigit() for c in plain)
