"""How retail tasks talk: item and option phrases, the slot hints, the shared gold reads."""

from __future__ import annotations

import msgspec

from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.tasks import HINTS as KIT_HINTS
from tau_sim.domains.kit.tasks import address_hint
from tau_sim.domains.retail.data import Options, OrderItem
from tau_sim.simulator.world import Action, SlotHint

UNKNOWN_IDS = ["item ids", "product ids", "payment method ids"]
ORDER_IDS = "order number"
"""What a user who describes their orders by item does not know."""

REASON_TEXT = {
    "no longer needed": "I no longer need it",
    "ordered by mistake": "I ordered it by mistake",
}


def options_text(options: Options) -> str:
    """Options as a user says them, e.g. "color: blue, size: M"."""
    return ", ".join(f"{k}: {v}" for k, v in options)


def item_text(item: OrderItem) -> str:
    """An item as a user names it, e.g. "the Hoodie (color: grey, size: M)"."""
    return f"the {item.name} ({options_text(item.options)})"


def new_item_text(options: Options, product: str) -> str:
    """The variant the user wants instead, e.g. "Hoodie with color: grey, size: M"."""
    return f"{product} with {options_text(options)}"


def option_names(new_item: str) -> list[str]:
    """The option names of ``new_item_text``s ("size", "color"; "; " between several)."""
    names: list[str] = []
    for one in new_item.split("; "):
        _, _, options = one.partition(" with ")
        names += [n for p in options.split(", ") if (n := p.split(": ", 1)[0]) not in names]
    return names


_ORDER = SlotHint(("order id", "order number", "order #"), "your order ID", True)

HINTS: dict[str, SlotHint] = {
    **KIT_HINTS,
    "order_id": _ORDER,
    "order_id_1": _ORDER,
    "order_id_2": _ORDER,
    "items": SlotHint(
        ("which item", "what item", "which product", "what product", "items you", "item you"),
        "the items",
        True,
        policy_asks="Ask the customer which items to return",
    ),
    "payment_method": msgspec.structs.replace(
        KIT_HINTS["payment_method"],
        policy_asks="which payment method the refund goes to",
    ),
    "new_item": SlotHint(
        ("which variant", "new item", "which option", "what option", "prefer"),
        "the variant you want instead",
        value_keywords=option_names,
    ),
    "new_address": address_hint("shipping", "the new address", "address you'd"),
    "cancel_reason": SlotHint(("reason", "why"), "the reason for cancelling"),
    # orders the user describes by an item instead of an id (one slot per role in a task)
    "order_desc": SlotHint(("which order", "what order", "order you mean"), "which order you mean"),
    "return_order": SlotHint(("order to return", "return from"), "which order to return from"),
    "exchange_order": SlotHint(
        ("order to exchange", "exchange from"), "which order to exchange from"
    ),
    "exchange_order_2": SlotHint(("second order", "other order"), "the second order"),
    "cancel_order": SlotHint(("order to cancel", "cancel which"), "which order to cancel"),
    "ship_order": SlotHint(("order to ship", "order to send"), "which order to ship elsewhere"),
    "refused_items": SlotHint(
        ("other item", "second item", "other product"), "the other item you want to return"
    ),
    "new_items": SlotHint(
        ("new items", "new variants", "which variants", "which options"),
        "the variants you want instead",
    ),
}
"""The kit's standard slots plus the orders, items, variants, addresses and reasons of retail."""


def items_value(items: list[OrderItem]) -> str:
    """The items of an order the request is about."""
    return " and ".join(item_text(i) for i in items)


def gold_reads(identity: Identity, *order_ids: str) -> list[Action]:
    """Authentication, the user's profile and the orders concerned."""
    return [*identity.actions, *(Action("get_order_details", {"order_id": o}) for o in order_ids)]


def order_phrase(items: OrderItem | list[OrderItem], status: str = "") -> str:
    """An order as a user describes it by items, "the order with the Hoodie (color: grey)"."""
    kind = f"{status} " if status else ""
    listed = items if isinstance(items, list) else [items]
    return f"the {kind}order with {items_value(listed)}"


DESCRIBING = (
    "order_desc",
    "return_order",
    "exchange_order",
    "exchange_order_2",
    "cancel_order",
    "ship_order",
)
"""The slots in which a user describes an order instead of giving its number."""
