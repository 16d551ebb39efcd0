"""The retail tools the agent calls; each enforces the hard rules of the policy."""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

from typing import Any, Literal

import msgspec

from tau_sim.domains.kit import identity
from tau_sim.domains.kit import tools as kit_tools
from tau_sim.domains.kit.lookup import require_status
from tau_sim.domains.kit.payments import (
    Payment,
    charge,
    owned_method,
    pay_back,
    settle,
)
from tau_sim.domains.retail.access import (
    MODIFIABLE,
    load_order,
    load_product,
    load_user,
    order_items,
    order_view,
    priced_swap,
)
from tau_sim.domains.retail.data import (
    CANCELLED,
    DELIVERED,
    EXCHANGE_REQUESTED,
    ITEMS_MODIFIED,
    PENDING,
    RETURN_REQUESTED,
    Order,
)
from tau_sim.simulator.world import Database, ToolError, ToolKind, tool

# ---- read tools -------------------------------------------------------------------------------


find_user_id_by_email = identity.find_user_id_by_email
find_user_id_by_name_zip = identity.find_user_id_by_name_zip


get_user_details = kit_tools.profile_tool(
    "get_user_details",
    "Get a user's profile: name, default address, email, payment methods and order ids.",
    load_user,
)


@tool(ToolKind.READ)
def get_order_details(db: Database, order_id: str) -> dict[str, Any]:
    """Get an order's status, items, address, payment history and shipments.

    Args:
        order_id: The order id, starting with "#", e.g. "#W1234567".
    """
    return order_view(load_order(db, order_id))


@tool(ToolKind.READ)
def get_product_details(db: Database, product_id: str) -> dict[str, Any]:
    """Get a product type and all its variants (item ids, options, price, availability).

    Args:
        product_id: The product id, e.g. "6086499569". It differs from item ids.
    """
    product = load_product(db, product_id)
    return {
        "product_id": product.product_id,
        "name": product.name,
        "variants": {
            v.item_id: {
                "item_id": v.item_id,
                "options": dict(v.options),
                "price": v.price,
                "available": v.available,
            }
            for v in product.variants
        },
    }


@tool(ToolKind.READ)
def list_all_product_types(db: Database) -> dict[str, str]:
    """List the names of all product types with their product ids, sorted by name."""
    names = db.base.lookup("product_types")
    return {name: db.find("product_types", name)[0] for name in sorted(names)}


calculate = kit_tools.calculate
days_between = kit_tools.days_between
transfer_to_human_agents = kit_tools.transfer_to_human_agents

# ---- write tools ------------------------------------------------------------------------------


@tool(ToolKind.WRITE)
def cancel_pending_order(
    db: Database, order_id: str, reason: Literal["no longer needed", "ordered by mistake"]
) -> dict[str, Any]:
    """Cancel a pending order; every payment is refunded to the method it came from.

    Gift card refunds are credited at once; other refunds take 5 to 7 business days.

    Args:
        order_id: The order id, starting with "#", e.g. "#W1234567".
        reason: Why the user cancels: "no longer needed" or "ordered by mistake".
    """
    order = load_order(db, order_id)
    require_status(order, MODIFIABLE, "cancelled")
    back = pay_back(db, load_user(db, order.user_id), order.payment_history)
    updated = msgspec.structs.replace(
        order,
        status=CANCELLED,
        cancel_reason=reason,
        payment_history=(*order.payment_history, *back),
    )
    db.put("orders", order.order_id, updated)
    return order_view(updated)


def _modifiable(db: Database, order_id: str) -> Order:
    order = load_order(db, order_id)
    require_status(order, MODIFIABLE, "modified")
    return order


modify_pending_order_address = kit_tools.address_tool(
    "modify_pending_order_address",
    "Change the shipping address of a pending order.",
    view=order_view,
    table="orders",
    key=("order_id", 'The order id, starting with "#", e.g. "#W1234567".'),
    find=_modifiable,
)


@tool(ToolKind.WRITE)
def modify_pending_order_items(
    db: Database,
    order_id: str,
    item_ids: list[str],
    new_item_ids: list[str],
    payment_method_id: str,
) -> dict[str, Any]:
    """Swap items of a pending order for other variants of the same products (only once per order).

    The price difference is charged to, or refunded to, the given payment method.

    Args:
        order_id: The order id, starting with "#", e.g. "#W1234567".
        item_ids: The item ids to replace, e.g. ["1008292230"].
        new_item_ids: The new item ids, in the same order, each an available variant of the same
            product, e.g. ["1008292231"].
        payment_method_id: The user's payment method that pays or receives the difference, e.g.
            "gift_card_0000000" or "credit_card_0000000".
    """
    swap = priced_swap(
        db,
        order_id,
        (PENDING,),
        "modified (items can be modified only once)",
        item_ids,
        new_item_ids,
        payment_method_id,
    )
    order, user, method, pairs, difference = (
        swap.order,
        swap.user,
        swap.method,
        swap.pairs,
        swap.difference,
    )
    items = list(order.items)
    for old, new in pairs:
        items[items.index(old)] = new
    user, payment = charge(db, user, method, difference)
    history = order.payment_history + ((payment,) if payment is not None else ())
    updated = msgspec.structs.replace(
        order, items=tuple(items), status=ITEMS_MODIFIED, payment_history=history
    )
    db.put("orders", order.order_id, updated)
    return order_view(updated)


@tool(ToolKind.WRITE)
def modify_pending_order_payment(
    db: Database, order_id: str, payment_method_id: str
) -> dict[str, Any]:
    """Pay a pending order with another payment method of the user; the old one is refunded.

    Args:
        order_id: The order id, starting with "#", e.g. "#W1234567".
        payment_method_id: The new payment method, e.g. "paypal_0000000". It must differ from the
            current one.
    """
    order = load_order(db, order_id)
    require_status(order, MODIFIABLE, "modified")
    if len(order.payment_history) != 1:
        raise ToolError(
            f"order {order.order_id} has several payments; its payment cannot be changed"
        )
    current = order.payment_history[0]
    if current.payment_method_id == payment_method_id:
        raise ToolError("the new payment method is the one already used")
    user = load_user(db, order.user_id)
    method = owned_method(user, payment_method_id)
    user = settle(db, user, method, current.amount)
    old = user.payment_method(current.payment_method_id)
    if old is not None:
        settle(db, user, old, -current.amount)
    history = (
        current,
        Payment("payment", current.amount, method.id),
        Payment("refund", current.amount, current.payment_method_id),
    )
    updated = msgspec.structs.replace(order, payment_history=history)
    db.put("orders", order.order_id, updated)
    return order_view(updated)


modify_user_address = kit_tools.address_tool(
    "modify_user_address", "Change a user's default address (existing orders keep theirs)."
)


@tool(ToolKind.WRITE)
def return_delivered_order_items(
    db: Database, order_id: str, item_ids: list[str], payment_method_id: str
) -> dict[str, Any]:
    """Request the return of items of a delivered order; the refund goes to the given method.

    The refund method must be the order's original payment method or a gift card of the user.

    Args:
        order_id: The order id, starting with "#", e.g. "#W1234567".
        item_ids: The item ids to return, e.g. ["1008292230"].
        payment_method_id: Where the refund goes, e.g. "gift_card_0000000".
    """
    order = load_order(db, order_id)
    require_status(order, (DELIVERED,), "returned")
    user = load_user(db, order.user_id)
    method = owned_method(user, payment_method_id)
    original = {
        p.payment_method_id for p in order.payment_history if p.transaction_type == "payment"
    }
    if method.source != "gift_card" and method.id not in original:
        raise ToolError("refunds go to the original payment method or to a gift card")
    items = order_items(order, item_ids)
    updated = msgspec.structs.replace(
        order,
        status=RETURN_REQUESTED,
        return_items=tuple(sorted(i.item_id for i in items)),
        return_payment_method_id=method.id,
    )
    db.put("orders", order.order_id, updated)
    return order_view(updated)


@tool(ToolKind.WRITE)
def exchange_delivered_order_items(
    db: Database,
    order_id: str,
    item_ids: list[str],
    new_item_ids: list[str],
    payment_method_id: str,
) -> dict[str, Any]:
    """Request the exchange of items of a delivered order for other variants of the same products.

    The price difference is charged to, or refunded to, the given payment method.

    Args:
        order_id: The order id, starting with "#", e.g. "#W1234567".
        item_ids: The item ids to exchange, e.g. ["1008292230"].
        new_item_ids: The new item ids, in the same order, each an available variant of the same
            product, e.g. ["1008292231"].
        payment_method_id: The user's payment method that pays or receives the difference.
    """
    swap = priced_swap(
        db, order_id, (DELIVERED,), "exchanged", item_ids, new_item_ids, payment_method_id
    )
    order, method, difference = swap.order, swap.method, swap.difference
    pairs = sorted(swap.pairs, key=lambda p: (p[0].item_id, p[1].item_id))
    updated = msgspec.structs.replace(
        order,
        status=EXCHANGE_REQUESTED,
        exchange_items=tuple(old.item_id for old, _ in pairs),
        exchange_new_items=tuple(new.item_id for _, new in pairs),
        exchange_payment_method_id=method.id,
        exchange_price_difference=difference,
    )
    db.put("orders", order.order_id, updated)
    return order_view(updated)
