"""Lookups and hard-rule checks shared by the retail tools (they raise ``ToolError``)."""

from __future__ import annotations

from typing import Any

import msgspec

from tau_sim.domains.kit.lookup import loader, order_key, require_status
from tau_sim.domains.kit.payments import PaymentMethod, check_funds, money, owned_method
from tau_sim.domains.retail.data import ITEMS_MODIFIED, PENDING, Order, OrderItem, Product, User
from tau_sim.simulator.world import Database, ToolError

MODIFIABLE = (PENDING, ITEMS_MODIFIED)
"""Statuses of orders that can still be cancelled or modified."""


load_user = loader("users", "user", User)


load_order = loader("orders", "order", Order, order_key)
"""The order ``order_id`` (the leading "#" may be omitted); ``ToolError`` when unknown."""
load_product = loader("products", "product", Product)


def order_items(order: Order, item_ids: list[str]) -> list[OrderItem]:
    """The order's items for ``item_ids`` (each id once per occurrence in the order)."""
    if not item_ids:
        raise ToolError("item_ids must not be empty")
    remaining = list(order.items)
    chosen: list[OrderItem] = []
    for item_id in item_ids:
        item = next((i for i in remaining if i.item_id == item_id), None)
        if item is None:
            raise ToolError(f"item {item_id!r} is not in order {order.order_id} (or listed twice)")
        remaining.remove(item)
        chosen.append(item)
    return chosen


def swaps(
    db: Database, order: Order, item_ids: list[str], new_item_ids: list[str]
) -> list[tuple[OrderItem, OrderItem]]:
    """Pair each old item with its new variant, checking same product, different and available."""
    if len(item_ids) != len(new_item_ids):
        raise ToolError("item_ids and new_item_ids must have the same length")
    pairs = []
    for old, new_id in zip(order_items(order, item_ids), new_item_ids, strict=True):
        product = load_product(db, old.product_id)
        variant = product.variant(new_id)
        if variant is None:
            raise ToolError(
                f"new item {new_id!r} is not a variant of {product.name} ({product.product_id})"
            )
        if new_id == old.item_id:
            raise ToolError(f"new item {new_id!r} is the same as the old item")
        if not variant.available:
            raise ToolError(f"new item {new_id!r} is not available")
        pairs.append(
            (
                old,
                OrderItem(new_id, product.product_id, product.name, variant.options, variant.price),
            )
        )
    return pairs


class PricedSwap(msgspec.Struct, frozen=True):
    """A checked swap of order items: who pays, which pairs, and the price difference."""

    order: Order
    user: User
    method: PaymentMethod
    pairs: list[tuple[OrderItem, OrderItem]]
    difference: float


def priced_swap(
    db: Database,
    order_id: str,
    allowed: tuple[str, ...],
    action: str,
    item_ids: list[str],
    new_item_ids: list[str],
    payment_method_id: str,
) -> PricedSwap:
    """Load and check everything an item swap needs (status, variants, payer's funds)."""
    order = load_order(db, order_id)
    require_status(order, allowed, action)
    user = load_user(db, order.user_id)
    method = owned_method(user, payment_method_id)
    pairs = swaps(db, order, item_ids, new_item_ids)
    difference = money(sum(new.price - old.price for old, new in pairs))
    check_funds(method, difference)
    return PricedSwap(order, user, method, pairs, difference)


def order_view(order: Order) -> dict[str, Any]:
    """An order as the agent sees it (item options as objects)."""
    view: dict[str, Any] = msgspec.to_builtins(order)
    for item in view["items"]:
        item["options"] = dict(item["options"])
    return view
