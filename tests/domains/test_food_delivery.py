"""The food-delivery domain's rules: what its tools enforce, what its tasks hold to the policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from tau_sim.domains.food_delivery import food_delivery as make_food_delivery
from tau_sim.domains.food_delivery.data import (
    CANCELLED,
    DELIVERED,
    NOW,
    OUT_FOR_DELIVERY,
    PLACED,
    PREPARING,
    Order,
    Promotion,
    Refund,
    Restaurant,
    User,
)
from tau_sim.domains.food_delivery.factory.common import order_in
from tau_sim.domains.food_delivery.rules import (
    CLAIM_WINDOW_DAYS,
    ITEM_REFUND_MONTHLY_CAP,
    ITEM_REFUND_ORDER_SHARE,
    LATE_CREDIT,
    LATE_CREDIT_MONTHLY_CAP,
    LATE_MINUTES,
    VERY_LATE_CREDIT,
    VERY_LATE_MINUTES,
    in_claim_window,
    item_refunds,
    minutes_late,
)
from tau_sim.domains.kit.payments import PaymentMethod, money_text
from tau_sim.simulator.world.database import Database
from tau_sim.simulator.world.domain import Domain
from tests.domains.calls import ok, refused


@pytest.fixture(scope="module")
def food() -> Domain:
    return make_food_delivery()


@pytest.fixture
def db(food: Domain) -> Database:
    return food.new_database()


def first(db: Database, accept: Callable[[Order], bool]) -> Order:
    for _, value in db.items("orders"):
        if accept(value):
            return value  # type: ignore[no-any-return]
    raise AssertionError("no matching order")


def user(db: Database, user_id: str) -> User:
    found = db.get("users", user_id)
    assert found is not None
    return found  # type: ignore[no-any-return]


def restaurant(db: Database, order: Order) -> Restaurant:
    found = db.get("restaurants", order.restaurant_id)
    assert found is not None
    return found  # type: ignore[no-any-return]


def not_gift(db: Database, order: Order) -> bool:
    method = user(db, order.user_id).payment_method(order.payment_method_id)
    return method is not None and method.source != "gift_card"


# ---- cancellation -----------------------------------------------------------------------------


def test_a_placed_order_is_refunded_in_full_a_preparing_one_only_fees_and_tip(
    food: Domain, db: Database
) -> None:
    placed = first(db, lambda o: o.status == PLACED)
    view = ok(food, db, "cancel_order", order_id=placed.order_id, reason="changed my mind")
    assert view["status"] == CANCELLED and view["refunds"][-1]["amount"] == placed.total
    preparing = first(db, lambda o: o.status == PREPARING and o.subtotal > 0)
    view = ok(food, db, "cancel_order", order_id=preparing.order_id, reason="taking too long")
    fees = round(preparing.delivery_fee + preparing.service_fee + preparing.tip, 2)
    assert view["refunds"][-1]["amount"] == fees < preparing.total


def test_an_order_with_the_courier_or_delivered_cannot_be_cancelled(
    food: Domain, db: Database
) -> None:
    for status in (OUT_FOR_DELIVERY, DELIVERED, CANCELLED):
        order = next(o for _, o in db.items("orders") if o.status == status)
        refused(
            food,
            db,
            "cancel_order",
            repr(status),
            order_id=order.order_id,
            reason="changed my mind",
        )


# ---- changes before pickup --------------------------------------------------------------------


def test_adding_a_dish_recomputes_fees_and_total(food: Domain, db: Database) -> None:
    order = first(db, lambda o: o.status == PLACED and not o.promo_code and not_gift(db, o))
    have = {i.item_id for i in order.items}
    dish = next(m for m in restaurant(db, order).menu if m.available and m.item_id not in have)
    option = dish.options[0] if dish.options else ""
    view = ok(
        food,
        db,
        "add_order_item",
        order_id=order.order_id,
        item_id=dish.item_id,
        quantity=2,
        option=option,
    )
    subtotal = round(order.subtotal + 2 * dish.price, 2)
    service = round(subtotal * 0.1, 2)
    assert view["subtotal"] == subtotal and view["service_fee"] == service
    assert view["total"] == round(subtotal + order.delivery_fee + service + order.tip, 2)


def test_a_dish_must_be_on_the_menu_available_new_and_with_a_valid_option(
    food: Domain, db: Database
) -> None:
    order = first(db, lambda o: o.status == PLACED)
    other = next(r for _, r in db.items("restaurants") if r.restaurant_id != order.restaurant_id)
    oid = order.order_id
    refused(
        food,
        db,
        "add_order_item",
        "not on the menu",
        order_id=oid,
        item_id=other.menu[0].item_id,
        quantity=1,
        option="",
    )
    refused(
        food,
        db,
        "add_order_item",
        "already in order",
        order_id=oid,
        item_id=order.items[0].item_id,
        quantity=1,
        option=order.items[0].option,
    )
    unavailable = first(
        db,
        lambda o: o.status == PLACED and any(not m.available for m in restaurant(db, o).menu),
    )
    dish = next(m for m in restaurant(db, unavailable).menu if not m.available)
    refused(
        food,
        db,
        "add_order_item",
        "not available",
        order_id=unavailable.order_id,
        item_id=dish.item_id,
        quantity=1,
        option=dish.options[0] if dish.options else "",
    )

    def optioned(o: Order) -> list[Any]:
        have = {i.item_id for i in o.items}
        menu = restaurant(db, o).menu
        return [m for m in menu if m.available and m.options and m.item_id not in have]

    with_options = first(db, lambda o: o.status == PLACED and bool(optioned(o)))
    refused(
        food,
        db,
        "add_order_item",
        "must be one of",
        order_id=with_options.order_id,
        item_id=optioned(with_options)[0].item_id,
        quantity=1,
        option="sideways",
    )


def test_a_gift_card_that_cannot_cover_the_difference_refuses_the_dish(
    food: Domain, db: Database
) -> None:
    def on_gift(o: Order) -> bool:
        method = user(db, o.user_id).payment_method(o.payment_method_id)
        return o.status == PLACED and method is not None and method.source == "gift_card"

    order = first(db, on_gift)
    owner = user(db, order.user_id)
    empty = tuple(
        msgspec.structs.replace(m, balance=0.0) if m.id == order.payment_method_id else m
        for m in owner.payment_methods
    )
    db.put("users", owner.user_id, msgspec.structs.replace(owner, payment_methods=empty))
    have = {i.item_id for i in order.items}
    dish = next(m for m in restaurant(db, order).menu if m.available and m.item_id not in have)
    refused(
        food,
        db,
        "add_order_item",
        f"gift card {order.payment_method_id} balance $0.00 is below",
        order_id=order.order_id,
        item_id=dish.item_id,
        quantity=1,
        option=dish.options[0] if dish.options else "",
    )


def test_the_last_dish_cannot_be_removed_another_can(food: Domain, db: Database) -> None:
    single = first(db, lambda o: o.status == PLACED and len(o.items) == 1)
    refused(
        food,
        db,
        "remove_order_item",
        "only item",
        order_id=single.order_id,
        item_id=single.items[0].item_id,
    )
    order = first(db, lambda o: o.status == PLACED and len(o.items) >= 2 and not o.promo_code)
    view = ok(
        food, db, "remove_order_item", order_id=order.order_id, item_id=order.items[0].item_id
    )
    assert [i["item_id"] for i in view["items"]] == [i.item_id for i in order.items[1:]]
    assert view["subtotal"] == round(order.subtotal - order.items[0].line_total, 2)


def test_the_address_changes_until_the_courier_has_the_order(food: Domain, db: Database) -> None:
    address = {
        "address1": "1 Test Road",
        "address2": "",
        "city": "Austin",
        "state": "TX",
        "country": "USA",
        "zip": "78701",
    }
    gone = first(db, lambda o: o.status == OUT_FOR_DELIVERY)
    refused(food, db, "modify_order_address", "out for delivery", order_id=gone.order_id, **address)
    placed = first(db, lambda o: o.status == PLACED)
    view = ok(food, db, "modify_order_address", order_id=placed.order_id, **address)
    assert view["address"]["address1"] == "1 Test Road"
    assert user(db, placed.user_id).address == placed.address


def test_the_tip_changes_until_delivery_within_bounds(food: Domain, db: Database) -> None:
    order = first(db, lambda o: o.status == OUT_FOR_DELIVERY and not_gift(db, o))
    refused(food, db, "update_tip", "from 0 to 100", order_id=order.order_id, tip=-1.0)
    view = ok(food, db, "update_tip", order_id=order.order_id, tip=order.tip + 3)
    assert view["tip"] == round(order.tip + 3, 2)
    assert view["total"] == round(order.total + 3, 2)
    delivered = first(db, lambda o: o.status == DELIVERED)
    refused(food, db, "update_tip", "delivered", order_id=delivered.order_id, tip=5.0)


# ---- promotions -------------------------------------------------------------------------------


def test_one_promotion_per_order_and_a_percentage_is_capped(food: Domain, db: Database) -> None:
    promo = db.get("promotions", "FEAST20")
    assert isinstance(promo, Promotion) and promo.max_discount == 15.0
    order = first(db, lambda o: o.status == PLACED and not o.promo_code and o.subtotal * 0.2 > 15)
    view = ok(food, db, "apply_promotion", order_id=order.order_id, code="feast20")
    assert view["discount"] == 15.0 and view["total"] == round(order.total - 15.0, 2)
    refused(
        food, db, "apply_promotion", "already has promotion", order_id=order.order_id, code="SAVE5"
    )
    delivered = first(db, lambda o: o.status == DELIVERED)
    refused(food, db, "apply_promotion", "delivered", order_id=delivered.order_id, code="SAVE5")
    other = first(db, lambda o: o.status == PLACED and not o.promo_code)  # no other reason
    refused(
        food,
        db,
        "apply_promotion",
        "promotion code 'FREEFOOD' not found",
        order_id=other.order_id,
        code="FREEFOOD",
    )


# ---- refunds and credits ----------------------------------------------------------------------


def test_an_item_refund_is_at_most_the_line_once_and_only_when_delivered(
    food: Domain, db: Database
) -> None:
    order = first(db, lambda o: o.status == DELIVERED and not o.refunds and not_gift(db, o))
    line = order.items[0]
    oid, iid = order.order_id, line.item_id
    refused(
        food,
        db,
        "refund_order_item",
        "above the line's total",
        order_id=oid,
        item_id=iid,
        reason="missing item",
        amount=line.line_total + 0.01,
    )
    before = user(db, order.user_id).item_refunds_this_month
    ok(
        food,
        db,
        "refund_order_item",
        order_id=oid,
        item_id=iid,
        reason="missing item",
        amount=line.line_total,
    )
    assert user(db, order.user_id).item_refunds_this_month == round(before + line.line_total, 2)
    refused(
        food,
        db,
        "refund_order_item",
        "already refunded",
        order_id=oid,
        item_id=iid,
        reason="wrong item",
        amount=1.0,
    )
    placed = first(db, lambda o: o.status == PLACED)
    refused(
        food,
        db,
        "refund_order_item",
        "placed",
        order_id=placed.order_id,
        item_id=placed.items[0].item_id,
        reason="missing item",
        amount=1.0,
    )


def test_refunds_never_exceed_what_the_order_cost(food: Domain, db: Database) -> None:
    order = first(db, lambda o: o.status == DELIVERED and not o.refunds and len(o.items) >= 2)
    line = order.items[1]
    earlier = Refund(
        "missing item", round(order.total - 0.5, 2), order.payment_method_id, order.items[0].item_id
    )
    nearly = msgspec.structs.replace(order, refunds=(earlier,))
    db.put("orders", order.order_id, nearly)
    refused(
        food,
        db,
        "refund_order_item",
        "left of the order's total",
        order_id=order.order_id,
        item_id=line.item_id,
        reason="wrong item",
        amount=min(line.line_total, 1.0),
    )
    refused(
        food,
        db,
        "issue_late_delivery_credit",
        "left of the order's total",
        order_id=order.order_id,
        amount=1.0,
    )


def test_a_gift_card_refund_is_credited_at_once(food: Domain, db: Database) -> None:
    def on_gift(o: Order) -> bool:
        method = user(db, o.user_id).payment_method(o.payment_method_id)
        return (
            o.status == DELIVERED
            and not o.refunds
            and method is not None
            and (method.source == "gift_card")
        )

    order = first(db, on_gift)
    card = user(db, order.user_id).payment_method(order.payment_method_id)
    assert isinstance(card, PaymentMethod)
    line = order.items[0]
    ok(
        food,
        db,
        "refund_order_item",
        order_id=order.order_id,
        item_id=line.item_id,
        reason="wrong item",
        amount=line.line_total,
    )
    after = user(db, order.user_id).payment_method(card.id)
    assert after is not None and after.balance == round((card.balance or 0) + line.line_total, 2)


def test_one_late_credit_per_delivered_order_into_account_credit(
    food: Domain, db: Database
) -> None:
    order = first(db, lambda o: o.status == DELIVERED and not o.refunds and o.total > 5)
    before = user(db, order.user_id)
    ok(food, db, "issue_late_delivery_credit", order_id=order.order_id, amount=5.0)
    after = user(db, order.user_id)
    assert after.account_credit == round(before.account_credit + 5.0, 2)
    assert after.late_credits_this_month == round(before.late_credits_this_month + 5.0, 2)
    refused(
        food, db, "issue_late_delivery_credit", "already has", order_id=order.order_id, amount=5.0
    )
    gone = first(db, lambda o: o.status == OUT_FOR_DELIVERY)
    refused(
        food,
        db,
        "issue_late_delivery_credit",
        "out for delivery",
        order_id=gone.order_id,
        amount=5.0,
    )


# ---- the tasks follow the policy --------------------------------------------------------------


def _tasks(food: Domain, intent: str) -> list[Any]:
    tasks = [t for t in food.tasks if t.intent == intent]
    assert tasks, intent
    return tasks


def _write(task: Any, name: str) -> dict[str, Any]:
    return next(a.arguments for a in task.actions if a.name == name)


def test_refund_and_credit_tasks_stay_within_the_caps_and_window(food: Domain) -> None:
    db = food.new_database()
    checked = 0
    for task in food.tasks:
        for action in task.actions:
            if action.name not in ("refund_order_item", "issue_late_delivery_credit"):
                continue
            order = db.get("orders", action.arguments["order_id"])
            assert isinstance(order, Order) and in_claim_window(order)
            owner = user(db, order.user_id)
            amount = action.arguments["amount"]
            if action.name == "refund_order_item":
                line = next(i for i in order.items if i.item_id == action.arguments["item_id"])
                assert amount <= line.line_total
                assert amount + item_refunds(order) <= order.subtotal * ITEM_REFUND_ORDER_SHARE
                assert amount + owner.item_refunds_this_month <= ITEM_REFUND_MONTHLY_CAP
            else:
                assert minutes_late(order) >= LATE_MINUTES
                assert amount + owner.late_credits_this_month <= LATE_CREDIT_MONTHLY_CAP
            checked += 1
    assert checked >= 20


def test_refused_tasks_are_refusable_and_capped_tasks_are_capped(food: Domain) -> None:
    def order_of(task: Any) -> Order:
        order = order_in(food, task)
        assert isinstance(order, Order), task.id
        return order

    for task in _tasks(food, "modify_preparing_refused"):
        assert order_of(task).status == PREPARING, task.id
    for task in _tasks(food, "late_credit_refused"):
        assert 0 < minutes_late(order_of(task)) < LATE_MINUTES, task.id
    for task in _tasks(food, "refund_wrong_item_capped"):
        args = _write(task, "refund_order_item")
        line = next(i for i in order_of(task).items if i.item_id == args["item_id"])
        assert args["amount"] < line.line_total, task.id
    for task in _tasks(food, "promotion_refused"):
        assert order_of(task) and task.required_outputs, task.id
        assert not food.write_actions(task), task.id


# ---- the order list and the hard tier ----------------------------------------------------------


def test_the_order_list_names_each_order_of_the_profile(food: Domain, db: Database) -> None:
    owner = next(u for _, u in db.items("users") if len(u.orders) >= 2)
    listed = ok(food, db, "list_user_orders", user_id=owner.user_id)
    assert [o["order_id"] for o in listed] == list(owner.orders)
    for row in listed:
        order = db.get("orders", row["order_id"])
        assert isinstance(order, Order)
        assert row["restaurant"] == restaurant(db, order).name
        assert row["dishes"] == [i.name for i in order.items]
        assert row["status"] == order.status and row["placed_at"] == order.placed_at
    refused(food, db, "list_user_orders", "user 'nobody_0000' not found", user_id="nobody_0000")


def test_a_described_order_is_said_in_the_opening_and_names_no_id(food: Domain) -> None:
    searched = [t for t in food.tasks if "search" in food.intent(t.intent).challenges]
    assert len(searched) >= 20
    for task in searched:
        described = task.scenario.known_info["order"]
        assert described in task.scenario.opening, task.id
        assert "#FD" not in described and "order_id" not in task.scenario.known_info


def _violated(food: Domain, task: Any) -> list[Order]:
    db = food.new_database()
    orders = [db.get("orders", a.arguments["order_id"]) for a in food.violations(task)]
    assert orders and all(isinstance(o, Order) for o in orders), task.id
    return orders  # type: ignore[return-value]


def test_the_refused_half_of_a_mixed_task_breaks_the_rule_it_names(food: Domain) -> None:
    for task in _tasks(food, "late_credits_mixed"):
        (order,) = _violated(food, task)
        late = minutes_late(order)
        assert not in_claim_window(order) or 0 < late < LATE_MINUTES, task.id
    for task in _tasks(food, "item_refund_window_mixed"):
        assert all(not in_claim_window(o) for o in _violated(food, task)), task.id
    for task in _tasks(food, "whole_order_refund_mixed"):
        done = {a.arguments["item_id"] for a in food.write_actions(task)}
        assert done.isdisjoint(a.arguments["item_id"] for a in food.violations(task))
    for task in _tasks(food, "preparing_tip_and_address_mixed"):
        (order,) = _violated(food, task)
        assert order.status == PREPARING


def test_a_disproven_claim_meets_the_record_that_disproves_it(food: Domain) -> None:
    db = food.new_database()
    for task in _tasks(food, "not_their_order_disproven"):
        (cancel,) = food.violations(task)
        order = db.get("orders", cancel.arguments["order_id"])
        caller = user(db, task.actions[-1].arguments["user_id"])
        assert isinstance(order, Order) and order.order_id not in caller.orders
        assert not food.write_actions(task) and task.required_outputs == ["cannot help"]
    for task in _tasks(food, "never_delivered_disproven"):
        (order,) = {o.order_id: o for o in _violated(food, task)}.values()
        assert order.status == DELIVERED and order.delivered_at[11:16] in task.required_outputs
    db = food.new_database()
    for task in _tasks(food, "not_started_disproven"):
        assert not food.write_actions(task) and OUT_FOR_DELIVERY in task.required_outputs
        reads = [a.arguments["order_id"] for a in task.actions if a.name == "get_order_details"]
        statuses = [getattr(db.get("orders", r), "status", "") for r in reads]
        assert OUT_FOR_DELIVERY in statuses, task.id


def test_a_conditional_task_takes_the_branch_the_records_decide(food: Domain) -> None:
    db = food.new_database()
    for task in _tasks(food, "search_cancel_if_placed"):
        (write,) = food.write_actions(task)
        order = db.get("orders", write.arguments["order_id"])
        assert isinstance(order, Order)
        assert (write.name == "cancel_order") == (order.status == PLACED), task.id

    def usable(code: str, order: Order) -> bool:
        """The policy's three conditions, read off the records (not the domain's own check)."""
        promo = db.get("promotions", code)
        assert isinstance(promo, Promotion), code
        owner = user(db, order.user_id)
        delivered_before = any(
            getattr(db.get("orders", o), "status", "") == DELIVERED for o in owner.orders
        )
        return (
            promo.expires >= NOW.date().isoformat()
            and order.subtotal >= promo.min_subtotal
            and not (promo.first_order_only and delivered_before)
        )

    branches = set()
    for task in _tasks(food, "promotion_with_fallback"):
        codes = [a.arguments["code"] for a in task.actions if a.name == "get_promotion_details"]
        (apply,) = food.write_actions(task)
        order = db.get("orders", apply.arguments["order_id"])
        assert isinstance(order, Order)
        primary = task.scenario.known_info["promo_code"]
        fallback = task.scenario.known_info["fallback_code"]
        holds = usable(primary, order)
        assert codes == ([primary] if holds else [primary, fallback]), task.id
        assert apply.arguments["code"] == (primary if holds else fallback), task.id
        assert usable(apply.arguments["code"], order), task.id
        branches.add(holds)
    assert False in branches  # the fallback branch is taken by some task


def test_the_policy_states_the_figures_the_tasks_use(food: Domain) -> None:
    """The caps and windows the tasks are held to above are the ones the agent reads."""
    for figure in (
        f"within **{CLAIM_WINDOW_DAYS} days**",
        f"at most **{ITEM_REFUND_ORDER_SHARE:.0%} of the",
        f"at most **{money_text(ITEM_REFUND_MONTHLY_CAP)} per",
        f"**{LATE_MINUTES} minutes or more** late: **{money_text(LATE_CREDIT)}**",
        f"**{VERY_LATE_MINUTES} minutes or more** late: **{money_text(VERY_LATE_CREDIT)}**",
        f"at most **{money_text(LATE_CREDIT_MONTHLY_CAP)} per calendar",
    ):
        assert figure in food.policy, figure
