"""Lookups and database checks shared by the food-delivery tools (they raise ``ToolError``)."""

from __future__ import annotations

from typing import Any

import msgspec

from tau_sim.domains.food_delivery.data import Order, OrderItem, Promotion, Restaurant, User
from tau_sim.domains.kit.lookup import code_key, loader, order_key
from tau_sim.domains.kit.payments import money, with_balance
from tau_sim.simulator.world import Database, ToolError

load_user = loader("users", "user", User)
load_order = loader("orders", "order", Order, order_key)
load_restaurant = loader("restaurants", "restaurant", Restaurant)
load_promotion = loader("promotions", "promotion code", Promotion, code_key)


def order_promotion(db: Database, order: Order) -> Promotion | None:
    """The promotion applied to ``order``, or None."""
    return load_promotion(db, order.promo_code) if order.promo_code else None


def order_line(order: Order, item_id: str) -> OrderItem:
    """The order's line of ``item_id``; ``ToolError`` when the order has none."""
    line = next((i for i in order.items if i.item_id == item_id.strip()), None)
    if line is None:
        raise ToolError(f"item {item_id!r} is not in order {order.order_id}")
    return line


def refunded(order: Order) -> float:
    """Everything given back on ``order`` so far (refunds and credits)."""
    return money(sum(r.amount for r in order.refunds))


def settle(db: Database, user: User, method_id: str, delta: float) -> None:
    """Move ``delta`` to (positive) or from (negative) the user's gift card ``method_id``.

    Cards and PayPal carry no balance here; a gift card's balance is credited or debited.
    """
    method = user.payment_method(method_id)
    if method is not None and method.source == "gift_card" and delta:
        db.put("users", user.user_id, with_balance(user, method_id, delta))


def order_summary(db: Database, order: Order) -> dict[str, Any]:
    """An order in a list of orders: id, restaurant name, placed time, status, dish names."""
    return {
        "order_id": order.order_id,
        "restaurant": load_restaurant(db, order.restaurant_id).name,
        "placed_at": order.placed_at,
        "status": order.status,
        "dishes": [line.name for line in order.items],
    }


def order_view(order: Order) -> dict[str, Any]:
    """An order as the agent sees it, with each line's total."""
    view: dict[str, Any] = msgspec.to_builtins(order)
    for item, line in zip(view["items"], order.items, strict=True):
        item["line_total"] = line.line_total
    return view
