"""The food-delivery tools the agent calls; each enforces what the order database enforces.

The tools refuse what the database cannot do: a change once the courier has the order, an item
that is not on the restaurant's menu or not available, a refund above what the line or the
order cost, a second refund of one line, a second late-delivery credit on one order. The
policy's own rules (no change once preparing, refund and credit caps, lateness thresholds,
promotion conditions, safety incidents to a human, confirmation, identity first) are the
agent's to follow.
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

from typing import Any, Literal

import msgspec

from tau_sim.domains.food_delivery.access import (
    load_order,
    load_promotion,
    load_restaurant,
    load_user,
    order_line,
    order_promotion,
    order_summary,
    order_view,
    refunded,
    settle,
)
from tau_sim.domains.food_delivery.data import (
    CANCELLED,
    DELIVERED,
    OUT_FOR_DELIVERY,
    PLACED,
    PREPARING,
    Order,
    OrderItem,
    Promotion,
    Refund,
    Restaurant,
    priced,
)
from tau_sim.domains.kit import identity
from tau_sim.domains.kit import tools as kit_tools
from tau_sim.domains.kit.lookup import require_status
from tau_sim.domains.kit.payments import check_funds, money
from tau_sim.simulator.world import Database, ToolError, ToolKind, tool

CHANGEABLE = (PLACED, PREPARING)
"""Statuses in which the database still takes changes: the courier has not picked up yet."""

# ---- read tools -------------------------------------------------------------------------------

find_user_id_by_email = identity.find_user_id_by_email
find_user_id_by_name_zip = identity.find_user_id_by_name_zip


get_user_details = kit_tools.profile_tool(
    "get_user_details",
    "Get a user's profile: name, address, email, payment methods, order ids, account credit.\n\n"
    "    It also says how much this month's item refunds and late-delivery credits already total.",
    load_user,
)


@tool(ToolKind.READ)
def get_order_details(db: Database, order_id: str) -> dict[str, Any]:
    """Get an order: restaurant, status, items, fees, tip, promotion, total, times and refunds.

    Args:
        order_id: The order id, starting with "#", e.g. "#FD1234567".
    """
    return order_view(load_order(db, order_id))


@tool(ToolKind.READ)
def list_user_orders(db: Database, user_id: str) -> list[dict[str, Any]]:
    """List a user's orders, as on their profile: id, restaurant, placed time, status, dishes.

    Args:
        user_id: The user id, e.g. "sara_doe_496".
    """
    user = load_user(db, user_id)
    return [order_summary(db, load_order(db, oid)) for oid in user.orders]


@tool(ToolKind.READ)
def get_restaurant_details(db: Database, restaurant_id: str) -> Restaurant:
    """Get a restaurant and its menu (item ids, prices, availability, option choices).

    Args:
        restaurant_id: The restaurant id, e.g. "rest_12345".
    """
    return load_restaurant(db, restaurant_id)


@tool(ToolKind.READ)
def get_promotion_details(db: Database, code: str) -> Promotion:
    """Get a promotion code's discount, minimum subtotal, expiry date and first-order condition.

    Args:
        code: The promotion code, e.g. "SAVE5".
    """
    return load_promotion(db, code)


calculate = kit_tools.calculate
transfer_to_human_agents = kit_tools.transfer_to_human_agents

# ---- write tools ------------------------------------------------------------------------------


def _repriced(db: Database, order: Order, items: tuple[OrderItem, ...]) -> Order:
    """``order`` with ``items``, the price difference charged or refunded to its payment method."""
    updated = priced(order, items, order_promotion(db, order))
    user = load_user(db, order.user_id)
    difference = money(updated.total - order.total)
    method = user.payment_method(order.payment_method_id)
    if method is not None:
        check_funds(method, difference)
    settle(db, user, order.payment_method_id, -difference)
    db.put("orders", order.order_id, updated)
    return updated


@tool(ToolKind.WRITE)
def cancel_order(
    db: Database,
    order_id: str,
    reason: Literal["changed my mind", "ordered by mistake", "taking too long"],
) -> dict[str, Any]:
    """Cancel an order the courier has not picked up yet, refunding its payment method.

    A placed order is refunded in full. Once the restaurant is preparing it, the food (subtotal
    less any discount) is not refunded: only the delivery fee, service fee and tip are.

    Args:
        order_id: The order id, starting with "#", e.g. "#FD1234567".
        reason: Why the user cancels: "changed my mind", "ordered by mistake" or "taking too long".
    """
    order = load_order(db, order_id)
    require_status(order, CHANGEABLE, "cancelled")
    amount = order.total
    if order.status == PREPARING:
        amount = money(order.delivery_fee + order.service_fee + order.tip)
    user = load_user(db, order.user_id)
    settle(db, user, order.payment_method_id, amount)
    refund = Refund("cancellation", amount, order.payment_method_id)
    updated = msgspec.structs.replace(
        order, status=CANCELLED, cancel_reason=reason, refunds=(*order.refunds, refund)
    )
    db.put("orders", order.order_id, updated)
    return order_view(updated)


def _changeable(db: Database, order_id: str) -> Order:
    order = load_order(db, order_id)
    require_status(order, CHANGEABLE, "modified")
    return order


modify_order_address = kit_tools.address_tool(
    "modify_order_address",
    "Change the delivery address of an order the courier has not picked up yet.",
    view=order_view,
    table="orders",
    key=("order_id", 'The order id, starting with "#", e.g. "#FD1234567".'),
    find=_changeable,
)


@tool(ToolKind.WRITE)
def add_order_item(
    db: Database, order_id: str, item_id: str, quantity: int, option: str
) -> dict[str, Any]:
    """Add a dish from the order's restaurant to an order the courier has not picked up yet.

    The subtotal, service fee, discount and total are recomputed; the difference is charged to
    the order's payment method.

    Args:
        order_id: The order id, starting with "#", e.g. "#FD1234567".
        item_id: The menu item id of the dish, e.g. "48213377"; it must not be in the order yet.
        quantity: How many, from 1 to 10.
        option: One of the dish's option choices, e.g. "large"; an empty string when the dish
            has none.
    """
    order = load_order(db, order_id)
    require_status(order, CHANGEABLE, "modified")
    restaurant = load_restaurant(db, order.restaurant_id)
    dish = restaurant.item(item_id.strip())
    if dish is None:
        raise ToolError(f"item {item_id!r} is not on the menu of {restaurant.name}")
    if not dish.available:
        raise ToolError(f"{dish.name} ({dish.item_id}) is not available right now")
    if any(i.item_id == dish.item_id for i in order.items):
        raise ToolError(f"{dish.name} is already in order {order.order_id}")
    if not 1 <= quantity <= 10:
        raise ToolError("quantity must be from 1 to 10")
    option = option.strip()
    if dish.options and option not in dish.options:
        raise ToolError(f"option of {dish.name} must be one of {', '.join(dish.options)}")
    if not dish.options and option:
        raise ToolError(f"{dish.name} takes no option")
    line = OrderItem(dish.item_id, dish.name, quantity, dish.price, option)
    return order_view(_repriced(db, order, (*order.items, line)))


@tool(ToolKind.WRITE)
def remove_order_item(db: Database, order_id: str, item_id: str) -> dict[str, Any]:
    """Remove a line from an order the courier has not picked up yet (not its last line).

    The subtotal, service fee, discount and total are recomputed; the difference is refunded to
    the order's payment method.

    Args:
        order_id: The order id, starting with "#", e.g. "#FD1234567".
        item_id: The menu item id of the line to remove, e.g. "48213377".
    """
    order = load_order(db, order_id)
    require_status(order, CHANGEABLE, "modified")
    line = order_line(order, item_id)
    if len(order.items) == 1:
        raise ToolError(f"{line.name} is the only item of order {order.order_id}")
    items = tuple(i for i in order.items if i is not line)
    return order_view(_repriced(db, order, items))


@tool(ToolKind.WRITE)
def update_tip(db: Database, order_id: str, tip: float) -> dict[str, Any]:
    """Set the courier tip of an order that is not delivered or cancelled yet.

    Args:
        order_id: The order id, starting with "#", e.g. "#FD1234567".
        tip: The new tip in dollars, from 0 to 100, e.g. 4.5.
    """
    order = load_order(db, order_id)
    require_status(order, (*CHANGEABLE, OUT_FOR_DELIVERY), "re-tipped")
    if not 0 <= tip <= 100:
        raise ToolError("tip must be from 0 to 100 dollars")
    changed = msgspec.structs.replace(order, tip=money(tip))
    return order_view(_repriced(db, changed, order.items))


@tool(ToolKind.WRITE)
def apply_promotion(db: Database, order_id: str, code: str) -> dict[str, Any]:
    """Apply a promotion code to an order the courier has not picked up yet (one per order).

    The discount is computed on the subtotal; the total is recomputed and the difference is
    refunded to the order's payment method.

    Args:
        order_id: The order id, starting with "#", e.g. "#FD1234567".
        code: The promotion code, e.g. "SAVE5".
    """
    order = load_order(db, order_id)
    require_status(order, CHANGEABLE, "discounted")
    promo = load_promotion(db, code)
    if order.promo_code:
        raise ToolError(f"order {order.order_id} already has promotion {order.promo_code}")
    with_code = msgspec.structs.replace(order, promo_code=promo.code)
    updated = priced(with_code, order.items, promo)
    user = load_user(db, order.user_id)
    settle(db, user, order.payment_method_id, money(order.total - updated.total))
    db.put("orders", order.order_id, updated)
    return order_view(updated)


@tool(ToolKind.WRITE)
def refund_order_item(
    db: Database,
    order_id: str,
    item_id: str,
    reason: Literal["missing item", "wrong item"],
    amount: float,
) -> dict[str, Any]:
    """Refund a line of a delivered order that was missing or wrong, to the order's payment method.

    The amount may not exceed the line's total nor what is left of the order's total; a line is
    refunded at most once.

    Args:
        order_id: The order id, starting with "#", e.g. "#FD1234567".
        item_id: The menu item id of the line, e.g. "48213377".
        reason: "missing item" or "wrong item".
        amount: The refund in dollars, e.g. 12.5.
    """
    order = load_order(db, order_id)
    require_status(order, (DELIVERED,), "refunded")
    line = order_line(order, item_id)
    if any(r.item_id == line.item_id for r in order.refunds):
        raise ToolError(f"{line.name} of order {order.order_id} was already refunded")
    amount = money(amount)
    if amount <= 0:
        raise ToolError("amount must be positive")
    if amount > line.line_total:
        raise ToolError(f"amount is above the line's total ${line.line_total:.2f}")
    left = money(order.total - refunded(order))
    if amount > left:
        raise ToolError(f"amount is above what is left of the order's total (${left:.2f})")
    user = load_user(db, order.user_id)
    user = msgspec.structs.replace(
        user, item_refunds_this_month=money(user.item_refunds_this_month + amount)
    )
    db.put("users", user.user_id, user)
    settle(db, user, order.payment_method_id, amount)
    refund = Refund(reason, amount, order.payment_method_id, line.item_id)
    updated = msgspec.structs.replace(order, refunds=(*order.refunds, refund))
    db.put("orders", order.order_id, updated)
    return order_view(updated)


@tool(ToolKind.WRITE)
def issue_late_delivery_credit(db: Database, order_id: str, amount: float) -> dict[str, Any]:
    """Give account credit for a delivered order that arrived late (one credit per order).

    The amount may not exceed what is left of the order's total.

    Args:
        order_id: The order id, starting with "#", e.g. "#FD1234567".
        amount: The credit in dollars, e.g. 5.
    """
    order = load_order(db, order_id)
    require_status(order, (DELIVERED,), "credited")
    if any(r.kind == "late delivery" for r in order.refunds):
        raise ToolError(f"order {order.order_id} already has a late-delivery credit")
    amount = money(amount)
    if amount <= 0:
        raise ToolError("amount must be positive")
    left = money(order.total - refunded(order))
    if amount > left:
        raise ToolError(f"amount is above what is left of the order's total (${left:.2f})")
    user = load_user(db, order.user_id)
    user = msgspec.structs.replace(
        user,
        account_credit=money(user.account_credit + amount),
        late_credits_this_month=money(user.late_credits_this_month + amount),
    )
    db.put("users", user.user_id, user)
    refund = Refund("late delivery", amount, "account_credit")
    updated = msgspec.structs.replace(order, refunds=(*order.refunds, refund))
    db.put("orders", order.order_id, updated)
    return order_view(updated)


modify_user_address = kit_tools.address_tool(
    "modify_user_address",
    "Change a user's default delivery address (existing orders keep theirs).",
)
