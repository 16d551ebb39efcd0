"""Lookups and database checks shared by the food-delivery tools (they raise ``ToolError``)."""

from __future__ import annotations

from typing import Any

import msgspec

from domains.food_delivery.data import Order, OrderItem, Promotion, Restaurant, User
from domains.kit.lookup import load
from domains.kit.payments import money, with_balance
from simulator.database import Database
from simulator.tools import ToolError


def load_user(db: Database, user_id: str) -> User:
    """The user ``user_id``; ``ToolError`` when there is none."""
    user: User = load(db, "users", user_id, "user")
    return user


def load_order(db: Database, order_id: str) -> Order:
    """The order ``order_id`` (the leading "#" may be omitted); ``ToolError`` when unknown."""
    order_id = order_id.strip()
    if not order_id.startswith("#"):
        order_id = f"#{order_id}"
    order: Order = load(db, "orders", order_id, "order")
    return order


def load_restaurant(db: Database, restaurant_id: str) -> Restaurant:
    """The restaurant ``restaurant_id``; ``ToolError`` when unknown."""
    restaurant: Restaurant = load(db, "restaurants", restaurant_id.strip(), "restaurant")
    return restaurant


def load_promotion(db: Database, code: str) -> Promotion:
    """The promotion ``code`` (case-insensitive); ``ToolError`` when unknown."""
    promo: Promotion = load(db, "promotions", code.strip().upper(), "promotion code")
    return promo


def order_promotion(db: Database, order: Order) -> Promotion | None:
    """The promotion applied to ``order``, or None."""
    return load_promotion(db, order.promo_code) if order.promo_code else None


def require_status(order: Order, allowed: tuple[str, ...], action: str) -> None:
    """Refuse unless the order's status is one of ``allowed``."""
    if order.status not in allowed:
        wanted = " or ".join(repr(s) for s in allowed)
        raise ToolError(
            f"order {order.order_id} is {order.status!r}: only {wanted} orders can be {action}"
        )


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


def order_view(order: Order) -> dict[str, Any]:
    """An order as the agent sees it, with each line's total."""
    view: dict[str, Any] = msgspec.to_builtins(order)
    for item, line in zip(view["items"], order.items, strict=True):
        item["line_total"] = line.line_total
    return view
