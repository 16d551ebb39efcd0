"""How food-delivery tasks talk: dishes, orders and promotions as a customer names them, hints."""

from __future__ import annotations

from tau_sim.domains.food_delivery.data import MenuItem, OrderItem, Restaurant
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.tasks import HINTS as KIT_HINTS
from tau_sim.domains.kit.tasks import address_hint
from tau_sim.simulator.world import Action, SlotHint

UNKNOWN_IDS = ["item ids", "restaurant ids", "payment method ids"]

REASON_TEXT = {
    "changed my mind": "I changed my mind",
    "ordered by mistake": "I ordered it by mistake",
    "taking too long": "it is taking too long",
}


def line_text(line: OrderItem) -> str:
    """An order line as a customer names it, e.g. "the Pad Thai (tofu)" or "the 2 Soda"."""
    count = f"{line.quantity} " if line.quantity > 1 else ""
    option = f" ({line.option})" if line.option else ""
    return f"the {count}{line.name}{option}"


def dish_text(dish: MenuItem, quantity: int, option: str) -> str:
    """A dish the customer wants added, e.g. "2 Garlic Naan" or "1 Green Curry, hot"."""
    return f"{quantity} {dish.name}" + (f", {option}" if option else "")


def order_text(oid: str, restaurant: Restaurant) -> str:
    """An order as a customer names it, e.g. "my order #FD1234567 from Lotus Thai Austin"."""
    return f"my order {oid} from {restaurant.name}"


_ORDER = SlotHint(("order id", "order number", "order #"), "your order ID", True)

HINTS: dict[str, SlotHint] = {
    **KIT_HINTS,
    "order_id": _ORDER,
    "item": SlotHint(
        ("which item", "what item", "which dish", "what dish", "which part", "what was missing"),
        "the item concerned",
        True,
    ),
    "new_item": SlotHint(
        ("add to", "would you like to add", "what to add", "which dish to add", "new item"),
        "the dish you want added",
    ),
    "new_address": address_hint("delivery", "the new delivery address", "address you'd"),
    "cancel_reason": SlotHint(("reason", "why"), "the reason for cancelling"),
    "promo_code": SlotHint(("promo code", "promotion code", "coupon", "which code"), "the code"),
    "extra_tip": SlotHint(("how much", "what amount", "extra tip"), "how much to add to the tip"),
    "incident": SlotHint(("what happened", "describe"), "what happened with the courier"),
    "fallback_code": SlotHint(
        ("other code", "second code", "another code", "fallback"), "your other code"
    ),
    "problem": SlotHint(
        (
            "what was wrong",
            "what went wrong",
            "what was the problem",
            "what the problem was",
            "what was the issue",
            "what the issue was",
            "missing or wrong",
            "missing, or",
            "missing altogether",
            "left out",
            "not arrive",
            "n't arrive",
            "what happened with",
            "what happened to",
            "the wrong one",
            "in its place",
            "in their place",
            "wrong item",
            "wrong dish",
        ),
        "what was wrong with it (a missing item or a wrong item)",
    ),
    "order": SlotHint(
        ("which order", "what order", "which of your orders"),
        "which order you mean (the restaurant, the day, a dish in it)",
    ),
}
"""The kit's standard slots plus the orders, dishes, addresses and codes of food delivery."""


def gold_reads(identity: Identity, *reads: Action) -> list[Action]:
    """Authentication and the customer's profile, then ``reads``."""
    return [*identity.actions, *reads]


def order_read(order_id: str) -> Action:
    """The gold read of an order."""
    return Action("get_order_details", {"order_id": order_id})


def restaurant_read(restaurant_id: str) -> Action:
    """The gold read of a restaurant's menu."""
    return Action("get_restaurant_details", {"restaurant_id": restaurant_id})


def sentence(text: str) -> str:
    """``text`` with its first letter upper-cased, the rest kept (``str.capitalize`` lowers it)."""
    return text[:1].upper() + text[1:]
