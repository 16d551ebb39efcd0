from __future__ import annotations

import datetime as dt
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tau_sim.domains.kit.tasks import ELSEWHERE
from tau_sim.domains.retail import retail as make_retail
from tau_sim.domains.retail.data import (
    DELIVERED,
    DELIVERED_AGO,
    PENDING,
    PROCESSED,
    TODAY,
    Order,
    Product,
    User,
)
from tau_sim.domains.retail.rules import (
    FINAL_SALE,
    RETURN_WINDOW_DAYS,
    days_since_delivery,
    in_window,
    returnable,
)
from tau_sim.domains.retail.scenario import DESCRIBING, ORDER_IDS
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.registry import DOMAINS
from tau_sim.simulator.world.database import Base, Database
from tau_sim.simulator.world.domain import Action, Domain, Task, load_tasks
from tau_sim.simulator.world.slots import user_slots
from tau_sim.simulator.world.tools import ToolKind
from tests.domains.calls import call, ok, refused
from tests.helpers.cli import TAU_SIM, tau_sim
from tests.scoring import score

# ---- helpers ---------------------------------------------------------------------------------


def an_order(db: Database, status: str, **where: Any) -> Order:
    for _, order in db.items("orders"):
        if order.status == status and all(
            getattr(order, k) == v if not callable(v) else v(order) for k, v in where.items()
        ):
            return order  # type: ignore[no-any-return]
    raise AssertionError(f"no {status} order")


def get(db: Database, table: str, key: str) -> Any:
    record = db.get(table, key)
    assert record is not None, (table, key)
    return record


def user_of(db: Database, order: Order) -> User:
    user = db.get("users", order.user_id)
    assert user is not None
    return user  # type: ignore[no-any-return]


def get_balance(user: User, method_id: str) -> float:
    method = user.payment_method(method_id)
    assert method is not None and method.balance is not None
    return method.balance


def other_variant(db: Database, order: Order, available: bool = True) -> tuple[str, str]:
    for item in order.items:
        product: Product = get(db, "products", item.product_id)
        for v in product.variants:
            if v.item_id != item.item_id and v.available is available:
                return item.item_id, v.item_id
    raise AssertionError("no variant")


# ---- the base --------------------------------------------------------------------------------


def test_registered_and_sized(retail: Domain) -> None:
    assert DOMAINS["retail"] is make_retail
    assert len(retail.toolkit.tools) >= 12
    assert len(retail.intents) >= 8
    assert len({i.name for i in retail.intents}) == len(retail.intents)
    tables, indexes = retail.base.tables, retail.base.indexes
    assert len(tables["products"]) >= 40
    assert len(tables["users"]) >= 400
    assert len(tables["orders"]) >= 800
    assert set(indexes) >= {"email", "name_zip", "product_types"}


def test_build_base_is_fast_and_deterministic() -> None:
    def dump(base: Base) -> tuple[bytes, bytes]:
        tables = {t: dict(rows) for t, rows in base.tables.items()}
        lookups = {name: dict(base.lookup(name)) for name in base.indexes}
        return msgspec.json.encode(tables), msgspec.json.encode(lookups)

    start = time.perf_counter()
    one = make_retail().build_base()
    assert time.perf_counter() - start < 1.0
    two = make_retail().build_base()
    assert dump(one) == dump(two)


def test_records_are_frozen(retail: Domain) -> None:
    db = retail.new_database()
    order = an_order(db, PENDING)
    with pytest.raises(AttributeError):
        order.status = "cancelled"  # type: ignore[misc]
    assert isinstance(order.items, tuple)


def test_same_writes_give_same_hash_across_instances() -> None:
    a, b = make_retail(), make_retail()
    dbs = [a.new_database(), b.new_database()]
    assert dbs[0].state_hash() == dbs[1].state_hash()
    order = an_order(dbs[0], PENDING)
    for domain, db in zip((a, b), dbs, strict=True):
        ok(domain, db, "cancel_pending_order", order_id=order.order_id, reason="no longer needed")
    assert dbs[0].state_hash() == dbs[1].state_hash() != a.new_database().state_hash()


def test_copy_on_write_isolation(retail: Domain) -> None:
    db1, db2 = retail.new_database(), retail.new_database()
    order = an_order(db1, PENDING)
    ok(retail, db1, "cancel_pending_order", order_id=order.order_id, reason="ordered by mistake")
    assert ok(retail, db1, "get_order_details", order_id=order.order_id)["status"] == "cancelled"
    assert ok(retail, db2, "get_order_details", order_id=order.order_id)["status"] == PENDING
    assert get(retail.new_database(), "orders", order.order_id).status == PENDING
    assert db2.state_hash() == retail.new_database().state_hash() != db1.state_hash()


# ---- tool schemas ----------------------------------------------------------------------------

REQUIRED = {
    "find_user_id_by_email": ["email"],
    "find_user_id_by_name_zip": ["first_name", "last_name", "zip"],
    "get_user_details": ["user_id"],
    "get_order_details": ["order_id"],
    "get_product_details": ["product_id"],
    "list_all_product_types": [],
    "calculate": ["expression"],
    "days_between": ["start_date", "end_date"],
    "transfer_to_human_agents": ["summary"],
    "cancel_pending_order": ["order_id", "reason"],
    "modify_pending_order_address": [
        "order_id",
        "address1",
        "address2",
        "city",
        "state",
        "country",
        "zip",
    ],
    "modify_pending_order_items": ["order_id", "item_ids", "new_item_ids", "payment_method_id"],
    "modify_pending_order_payment": ["order_id", "payment_method_id"],
    "modify_user_address": ["user_id", "address1", "address2", "city", "state", "country", "zip"],
    "return_delivered_order_items": ["order_id", "item_ids", "payment_method_id"],
    "exchange_delivered_order_items": ["order_id", "item_ids", "new_item_ids", "payment_method_id"],
}
WRITES = {n for n in REQUIRED if n.split("_")[0] in {"cancel", "modify", "return", "exchange"}}


def test_tool_names_and_kinds(retail: Domain) -> None:
    assert list(retail.toolkit.tools) == list(REQUIRED)
    for name in REQUIRED:
        expected = ToolKind.WRITE if name in WRITES else ToolKind.READ
        assert retail.toolkit.kind(name) is expected, name


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_tool_schema(retail: Domain, name: str) -> None:
    spec = next(s for s in retail.toolkit.specs if s.name == name)
    assert (
        spec.description
        and "Args" not in spec.description
        and "db" not in spec.parameters["properties"]
    )
    params = spec.parameters
    assert params["type"] == "object"
    assert sorted(params["required"]) == sorted(REQUIRED[name])
    assert sorted(params["properties"]) == sorted(REQUIRED[name])
    for arg, prop in params["properties"].items():
        assert prop.get("description"), f"{name}.{arg} has no description"
        if arg.endswith("_ids"):
            assert prop["type"] == "array" and prop["items"] == {"type": "string"}
        elif arg != "reason":
            assert prop["type"] == "string", (name, arg)


def test_schema_details(retail: Domain) -> None:
    specs = {s.name: s for s in retail.toolkit.specs}
    reason = specs["cancel_pending_order"].parameters["properties"]["reason"]
    assert sorted(reason["enum"]) == ["no longer needed", "ordered by mistake"]
    assert "Why the user cancels" in reason["description"]
    new_ids = specs["modify_pending_order_items"].parameters["properties"]["new_item_ids"]
    assert "same product" in new_ids["description"]  # continuation lines are kept


ORDER = "<a pending order>"
"""Stands for a real pending order's id, so that only the bad argument can be refused."""


@pytest.mark.parametrize(
    ("name", "arguments", "expect"),
    [
        ("get_order_details", {"order_id": 1234567}, "`order_id` must be a string"),
        ("get_order_details", {"order_id": ORDER, "extra": 1}, "unknown argument `extra`"),
        ("get_order_details", {}, "`order_id` is required"),
        (
            "modify_pending_order_items",
            {"order_id": ORDER, "item_ids": "1", "new_item_ids": [], "payment_method_id": "x"},
            "`item_ids` must be a JSON array",
        ),
        (
            "cancel_pending_order",
            {"order_id": ORDER, "reason": "changed my mind"},
            '`reason` must be one of "no longer needed", "ordered by mistake"',
        ),
        ("no_such_tool", {}, "unknown tool 'no_such_tool'"),
    ],
)
def test_bad_arguments_are_error_outcomes(
    retail: Domain, name: str, arguments: dict[str, Any], expect: str
) -> None:
    db = retail.new_database()
    order = an_order(db, PENDING).order_id
    real = {k: order if v == ORDER else v for k, v in arguments.items()}
    outcome = retail.toolkit.call(db, name, real)
    assert outcome.error and outcome.content.startswith("Error:") and expect in outcome.content
    assert db.state_hash() == retail.new_database().state_hash()


def test_arguments_must_be_an_object(retail: Domain) -> None:
    assert retail.toolkit.call(retail.new_database(), "calculate", ["1+1"]).error


# ---- read tools ------------------------------------------------------------------------------


def test_lookups(retail: Domain) -> None:
    db = retail.new_database()
    order = an_order(db, DELIVERED)
    user = user_of(db, order)
    assert ok(retail, db, "find_user_id_by_email", email=user.email.upper()) == user.user_id
    found = ok(
        retail,
        db,
        "find_user_id_by_name_zip",
        first_name=user.name.first_name.lower(),
        last_name=user.name.last_name,
        zip=user.address.zip,
    )
    assert found == user.user_id
    assert call(retail, db, "find_user_id_by_email", email="nobody@example.com")[0]
    details = ok(retail, db, "get_user_details", user_id=user.user_id)
    assert order.order_id in details["orders"] and details["payment_methods"]
    view = ok(retail, db, "get_order_details", order_id=order.order_id.lstrip("#"))
    assert view["status"] == DELIVERED and isinstance(view["items"][0]["options"], dict)
    product = ok(retail, db, "get_product_details", product_id=order.items[0].product_id)
    assert order.items[0].item_id in product["variants"]
    types = ok(retail, db, "list_all_product_types")
    assert list(types) == sorted(types) and product["name"] in types


def test_name_zip_lookup_follows_address_changes(retail: Domain) -> None:
    db = retail.new_database()
    user = user_of(db, an_order(db, PENDING))
    new = {
        "address1": "1 Test Road",
        "address2": "",
        "city": "Austin",
        "state": "TX",
        "country": "USA",
        "zip": "78799",
    }
    ok(retail, db, "modify_user_address", user_id=user.user_id, **new)
    first, last = user.name.first_name, user.name.last_name
    assert (
        ok(retail, db, "find_user_id_by_name_zip", first_name=first, last_name=last, zip="78799")
        == user.user_id
    )
    error, _ = call(
        retail,
        db,
        "find_user_id_by_name_zip",
        first_name=first,
        last_name=last,
        zip=user.address.zip,
    )
    assert error
    assert not call(
        retail,
        retail.new_database(),
        "find_user_id_by_name_zip",
        first_name=first,
        last_name=last,
        zip=user.address.zip,
    )[0]


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("1 + 2 * 3", "7.00"),
        ("(54.99 + 23.1) * 2", "156.18"),
        ("-4 / 3", "-1.33"),
        ("10 - 0.005", "9.99"),
    ],
)
def test_calculate(retail: Domain, expression: str, expected: str) -> None:
    assert ok(retail, retail.new_database(), "calculate", expression=expression) == float(expected)
    assert (
        retail.toolkit.call(retail.new_database(), "calculate", {"expression": expression}).content
        == expected
    )


@pytest.mark.parametrize(
    "expression",
    [
        "2 ** 10",
        "__import__('os')",
        "1 / 0",
        "abs(-1)",
        "x + 1",
        "1 +",
        "True + 1",
        "'a' * 3",
        "(" * 300,
    ],
)
def test_calculate_refuses(retail: Domain, expression: str) -> None:
    assert call(retail, retail.new_database(), "calculate", expression=expression)[0]


# ---- write tools and hard rules --------------------------------------------------------------


def test_cancel_refunds_gift_card_at_once(retail: Domain) -> None:
    db = retail.new_database()
    order = an_order(
        db,
        PENDING,
        payment_history=lambda o: o.payment_history[0].payment_method_id.startswith("gift"),
    )
    user = user_of(db, order)
    method = order.payment_history[0].payment_method_id
    before = get_balance(user, method)
    view = ok(
        retail, db, "cancel_pending_order", order_id=order.order_id, reason="no longer needed"
    )
    assert (
        view["status"] == "cancelled"
        and view["payment_history"][-1]["transaction_type"] == "refund"
    )
    after = get_balance(user_of(db, order), method)
    assert after == pytest.approx(before + order.payment_history[0].amount)


@pytest.mark.parametrize("status", [DELIVERED, PROCESSED, "cancelled"])
def test_only_pending_orders_can_be_cancelled(retail: Domain, status: str) -> None:
    db = retail.new_database()
    order = an_order(db, status)
    error, content = call(
        retail, db, "cancel_pending_order", order_id=order.order_id, reason="no longer needed"
    )
    assert error and "only 'pending'" in content
    assert db.state_hash() == retail.new_database().state_hash()


def test_only_delivered_orders_can_be_returned(retail: Domain) -> None:
    db = retail.new_database()
    order = an_order(db, PENDING)
    method = order.payment_history[0].payment_method_id
    refused(
        retail,
        db,
        "return_delivered_order_items",
        "only 'delivered' orders can be returned",
        order_id=order.order_id,
        item_ids=[order.items[0].item_id],
        payment_method_id=method,
    )


def test_return_rules(retail: Domain) -> None:
    db = retail.new_database()

    def cards(o: Order) -> list[str]:
        return [m.id for m in user_of(db, o).payment_methods if m.source == "credit_card"]

    order = an_order(
        db,
        DELIVERED,
        payment_history=lambda o: (
            o.payment_history[0].payment_method_id.startswith("paypal") and bool(cards(o))
        ),
    )
    user = user_of(db, order)
    item = order.items[0].item_id
    original = order.payment_history[0].payment_method_id

    def refuse(expect: str, items: list[str], method: str) -> None:
        refused(
            retail,
            db,
            "return_delivered_order_items",
            expect,
            order_id=order.order_id,
            item_ids=items,
            payment_method_id=method,
        )

    # a card that did not pay for the order cannot receive the refund
    refuse("refunds go to the original payment method", [item], cards(order)[0])
    foreign = next(
        m.id for _, u in db.items("users") for m in u.payment_methods if u.user_id != user.user_id
    )
    refuse(f"does not belong to user {user.user_id}", [item], foreign)
    refuse(f"item '0000000000' is not in order {order.order_id}", ["0000000000"], original)
    view = ok(
        retail,
        db,
        "return_delivered_order_items",
        order_id=order.order_id,
        item_ids=[item],
        payment_method_id=order.payment_history[0].payment_method_id,
    )
    assert view["status"] == "return requested" and view["return_items"] == [item]


def test_exchange_rules(retail: Domain) -> None:
    db = retail.new_database()
    order = an_order(db, DELIVERED)
    method = order.payment_history[0].payment_method_id
    old, unavailable = other_variant(db, order, available=False)

    def exchange(new_item: str, expect: str) -> None:
        refused(
            retail,
            db,
            "exchange_delivered_order_items",
            expect,
            order_id=order.order_id,
            item_ids=[old],
            new_item_ids=[new_item],
            payment_method_id=method,
        )

    exchange(unavailable, "is not available")
    other_product = next(
        pid for pid in db.keys("products") if pid not in {i.product_id for i in order.items}
    )
    foreign_item = get(db, "products", other_product).variants[0].item_id
    exchange(foreign_item, "is not a variant")
    exchange(old, "is the same as the old item")


# ---- the policy's refusal rules: the tools allow what the agent must refuse -------------------


def test_reached_orders_carry_their_delivery_day(retail: Domain) -> None:
    earliest, latest = (TODAY - dt.timedelta(days=d) for d in reversed(DELIVERED_AGO))
    days = set()
    for _, order in retail.new_database().items("orders"):
        if order.status in (DELIVERED, "return requested", "exchange requested"):
            day = dt.date.fromisoformat(order.delivered_on)
            assert earliest <= day <= latest, order.order_id
            days.add(in_window(order))
        else:
            assert order.delivered_on == "", order.order_id
    assert days == {True, False}  # both sides of the window exist


def test_days_between_counts_the_window(retail: Domain) -> None:
    db = retail.new_database()
    late = an_order(db, DELIVERED, delivered_on=lambda o: not in_window(o))
    days = ok(retail, db, "days_between", start_date=late.delivered_on, end_date=str(TODAY))
    assert days == days_since_delivery(late) > RETURN_WINDOW_DAYS
    assert call(retail, db, "days_between", start_date="June 1", end_date=str(TODAY))[0]


def _return(retail: Domain, db: Database, order: Order, item_id: str) -> tuple[bool, str]:
    method = order.payment_history[0].payment_method_id
    return call(
        retail,
        db,
        "return_delivered_order_items",
        order_id=order.order_id,
        item_ids=[item_id],
        payment_method_id=method,
    )


def test_late_and_final_sale_returns_are_the_agents_to_refuse(retail: Domain) -> None:
    """[rule return-window] and [rule final-sale]: the tool takes them, so pushover can."""
    db = retail.new_database()
    late = an_order(db, DELIVERED, delivered_on=lambda o: not in_window(o))
    assert not _return(retail, db, late, late.items[0].item_id)[0]
    final = an_order(db, DELIVERED, items=lambda o: any(i.name in FINAL_SALE for i in o.items))
    item = next(i for i in final.items if not returnable(i))
    assert not _return(retail, db, final, item.item_id)[0]
    recent = an_order(db, DELIVERED, delivered_on=in_window)
    assert not _return(retail, db, recent, recent.items[0].item_id)[0]


def test_another_customers_order_is_the_agents_to_refuse(retail: Domain) -> None:
    """[rule own-orders-only]: the tools act on any order; the task's violation is that write."""
    task = next(t for t in retail.tasks if t.intent == "not_your_order")
    db = retail.new_database()
    for action in task.actions:
        assert not retail.call(db, action).error
    caller = task.actions[1].arguments["user_id"]
    order_id = task.scenario.known_info["order_id"]
    assert get(db, "orders", order_id).user_id != caller
    (violation,) = retail.violations(task)
    assert violation.name == "cancel_pending_order" and not retail.call(db, violation).error


def test_every_refusal_intent_names_its_rule_and_pushover_write(retail: Domain) -> None:
    tool_refused = {
        "out_of_policy_transfer",
        "exchange_for_other_product",
        "refund_to_another_card",
    }
    marked = set(re.findall(r"\[rule ([a-z0-9-]+)\]", retail.policy))
    assert marked == {r for i in retail.intents for r in i.rules}
    for task in retail.tasks:
        intent = retail.intent(task.intent)
        if intent.forbidden or "mixed" in intent.challenges:
            assert intent.rules, task.intent
            assert bool(retail.violations(task)) is (task.intent not in tool_refused), task.id


def test_base_returns_and_exchanges_stay_within_the_rules(retail: Domain) -> None:
    db = retail.new_database()
    for task in retail.tasks:
        if task.tier != "base":
            continue
        for action in retail.write_actions(task):
            if action.name not in (
                "return_delivered_order_items",
                "exchange_delivered_order_items",
            ):
                continue
            order: Order = get(db, "orders", action.arguments["order_id"])
            assert in_window(order), task.id
            if action.name.startswith("return"):
                items = [i for i in order.items if i.item_id in action.arguments["item_ids"]]
                assert all(returnable(i) for i in items), task.id


def test_described_orders_are_searched_not_handed_over(retail: Domain) -> None:
    described = [t for t in retail.tasks if set(t.scenario.known_info) & set(DESCRIBING)]
    assert len(described) >= 40
    for task in described:
        text = "\n".join(
            [task.scenario.opening, task.scenario.goal, *task.scenario.known_info.values()]
        )
        held = {v for k, v in task.scenario.known_info.items() if k.startswith("order_id")}
        reads = [a.arguments["order_id"] for a in task.actions if a.name == "get_order_details"]
        searched = [o for o in reads if o not in held]  # the described ones and their rivals
        assert searched and not any(o.lstrip("#") in text for o in searched), task.id
        assert ORDER_IDS in task.scenario.unknown_info, task.id
        for slot in DESCRIBING:  # the opening says which orders are meant
            value = task.scenario.known_info.get(slot)
            assert value is None or value.lower() in task.scenario.opening.lower(), task.id


def test_items_can_be_modified_only_once(retail: Domain) -> None:
    db = retail.new_database()

    def affordable(o: Order) -> bool:
        return not o.payment_history[0].payment_method_id.startswith("gift")

    order = an_order(db, PENDING, payment_history=affordable)
    old, new = other_variant(db, order)
    method = order.payment_history[0].payment_method_id
    args = {
        "order_id": order.order_id,
        "item_ids": [old],
        "new_item_ids": [new],
        "payment_method_id": method,
    }
    view = ok(retail, db, "modify_pending_order_items", **args)
    assert view["status"] == "pending (items modified)" and new in [
        i["item_id"] for i in view["items"]
    ]
    back = dict(args, item_ids=[new], new_item_ids=[old])
    # the status names why: every status refusal of this tool says "only once"
    refused(
        retail,
        db,
        "modify_pending_order_items",
        f"order {order.order_id} is 'pending (items modified)': only 'pending' orders",
        **back,
    )
    # other modifications remain possible
    ok(retail, db, "cancel_pending_order", order_id=order.order_id, reason="no longer needed")


def test_gift_card_balance_must_cover_payment(retail: Domain) -> None:
    db = retail.new_database()
    for _, order in db.items("orders"):
        user = user_of(db, order)
        gift = next((m for m in user.payment_methods if m.source == "gift_card"), None)
        paid = order.payment_history[0]
        if (
            order.status == PENDING
            and gift
            and gift.id != paid.payment_method_id
            and (gift.balance or 0) < paid.amount
        ):
            break
    else:
        raise AssertionError("no suitable order")
    refused(
        retail,
        db,
        "modify_pending_order_payment",
        f"balance ${gift.balance or 0:.2f} is below ${paid.amount:.2f}",
        order_id=order.order_id,
        payment_method_id=gift.id,
    )
    refused(
        retail,
        db,
        "modify_pending_order_payment",
        "the one already used",
        order_id=order.order_id,
        payment_method_id=paid.payment_method_id,
    )


def test_transfer_does_not_change_the_database(retail: Domain) -> None:
    db = retail.new_database()
    assert (
        ok(retail, db, "transfer_to_human_agents", summary="wants a human") == "Transfer successful"
    )
    assert db.state_hash() == retail.new_database().state_hash()


def test_address_must_be_complete(retail: Domain) -> None:
    db = retail.new_database()
    order = an_order(db, PENDING)
    refused(
        retail,
        db,
        "modify_pending_order_address",
        "address1, city, state, country and zip are required",
        order_id=order.order_id,
        address1=" ",
        address2="",
        city="Austin",
        state="TX",
        country="USA",
        zip="78701",
    )


# ---- benchmark tasks -------------------------------------------------------------------------


def test_task_file(retail: Domain) -> None:
    tasks = retail.tasks
    assert len(tasks) >= 40
    assert {t.intent for t in tasks} == {i.name for i in retail.intents}
    assert len({t.id for t in tasks}) == len(tasks)


def test_tasks_are_well_formed(retail: Domain) -> None:
    for task in retail.tasks:
        slots = {s.name: s for s in user_slots(retail, task)}
        assert list(slots) == list(task.scenario.known_info), task.id
        assert all(name in retail.slot_hints for name in slots), task.id  # no default hints
        assert task.auth_slots and all(n in slots for n in task.auth_slots), task.id
        assert all(not slots[n].lookupable for n in task.auth_slots), task.id
        assert task.scenario.goal and task.scenario.opening and task.summary
        assert task.actions[0].name.startswith("find_user_id"), task.id
        assert all(retail.toolkit.kind(a.name) is not None for a in task.actions)
        for action in retail.write_actions(task):
            assert action.name not in task.scenario.goal  # the scenario never leaks tool calls


def test_task_actions_succeed_and_gold_scores_one(retail: Domain) -> None:
    for task in retail.tasks:
        db = retail.new_database()
        for action in task.actions:
            outcome = retail.toolkit.call(db, action.name, dict(action.arguments))
            assert not outcome.error, (task.id, action.name, outcome.content)
        reward, breakdown = score(
            retail, task, db, ["Done. " + " and ".join(task.required_outputs)]
        )
        assert reward == 1.0 and breakdown.db_match, task.id


def _other_write(retail: Domain, task: Task) -> Action:
    user_id = get(retail.new_database(), "users", task.actions[1].arguments["user_id"]).user_id
    return Action("modify_user_address", {"user_id": user_id, **ELSEWHERE})


def test_wrong_write_or_missing_output_scores_zero(retail: Domain) -> None:
    with_outputs = 0
    for task in retail.tasks:
        db = retail.new_database()
        writes = retail.write_actions(task)
        for action in [*writes[:-1], _other_write(retail, task)]:
            assert not retail.toolkit.call(db, action.name, dict(action.arguments)).error
        reward, breakdown = score(retail, task, db, list(task.required_outputs))
        assert reward == 0.0 and not breakdown.db_match, task.id
        if task.required_outputs:
            with_outputs += 1
            gold = retail.new_database()
            for action in writes:
                retail.toolkit.call(gold, action.name, dict(action.arguments))
            reward, breakdown = score(retail, task, gold, ["Your request is done."])
            assert reward == 0.0 and breakdown.db_match and breakdown.missing_outputs, task.id
    assert with_outputs >= 10


def test_transfer_tasks_end_with_transfer(retail: Domain) -> None:
    transfers = [t for t in retail.tasks if t.intent == "out_of_policy_transfer"]
    assert transfers and all(t.actions[-1].name == "transfer_to_human_agents" for t in transfers)
    assert all(not retail.write_actions(t) for t in transfers)


def _generate(*args: str) -> subprocess.CompletedProcess[bytes]:
    return tau_sim("domains", "generate", "retail", *args, text=False)


def test_tasks_regenerate_identically(retail: Domain, tmp_path: Path) -> None:
    assert retail.tasks_path is not None
    checked_in = retail.tasks_path.read_bytes()
    _generate("--out", str(tmp_path / "a.jsonl"))
    assert (tmp_path / "a.jsonl").read_bytes() == checked_in
    assert _generate("--out", "-").stdout == checked_in
    assert retail.generation is not None
    explicit = ("--count", str(retail.generation.count), "--seed", str(retail.generation.seed))
    assert _generate(*explicit).stdout == checked_in  # explicit defaults print, never overwrite
    assert _generate("--count", "3").stdout == b"".join(checked_in.splitlines(True)[:3])


def test_generate_refuses_bad_input_in_one_line(retail: Domain) -> None:
    command = [*TAU_SIM, "domains", "generate"]
    for args, message in (
        (["retail", "--count", "0"], "--count must be at least 1 (got 0)"),
        (["narnia"], "unknown domain 'narnia'"),
    ):
        out = subprocess.run([*command, *args], capture_output=True, text=True, timeout=120)
        assert out.returncode == 2 and message in out.stderr, out.stderr
        assert len(out.stderr.strip().splitlines()) == 1 and not out.stdout


def test_malformed_task_line_names_file_and_line(retail: Domain, tmp_path: Path) -> None:
    assert retail.tasks_path is not None
    lines = retail.tasks_path.read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "tasks.jsonl"
    bad.write_text(
        "\n".join([lines[0], lines[1].replace('"auth_slots"', '"auth_slotz"'), lines[2]]) + "\n"
    )
    with pytest.raises(UsageError, match=rf"{bad}:2: invalid task"):
        load_tasks(bad)
    bad.write_text(lines[0] + "\n{not json\n")
    with pytest.raises(UsageError, match=rf"{bad}:2: not valid JSON"):
        load_tasks(bad)
    # the format before slot hints left the task: known info as a list of annotated slots
    old = re.sub(r'"known_info":\{[^}]*\}', '"known_info":[{"name":"zip","value":"1"}]', lines[0])
    bad.write_text(old + "\n")
    field = r"Expected `object`, got `array` - at `\$.scenario.known_info`"
    with pytest.raises(UsageError, match=rf"{bad}:1: invalid task: {field}"):
        load_tasks(bad)


def test_the_policy_states_the_return_window_the_tasks_use(retail: Domain) -> None:
    assert f"within **{RETURN_WINDOW_DAYS} days**" in retail.policy
