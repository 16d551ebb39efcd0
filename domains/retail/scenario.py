"""Building blocks of retail tasks: info slots, phrases and the authentication prelude."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from domains.retail.data import Address, Options, Order, OrderItem, PaymentMethod, User
from simulator.database import Database
from simulator.domain import Action, InfoSlot

UNKNOWN_IDS = ["item ids", "product ids", "payment method ids"]


def money_text(amount: float) -> str:
    """An amount as the agent should say it, e.g. "$1,234.50"."""
    return f"${amount:,.2f}"


def options_text(options: Options) -> str:
    """Options as a user says them, e.g. "color: blue, size: M"."""
    return ", ".join(f"{k}: {v}" for k, v in options)


def item_text(item: OrderItem) -> str:
    """An item as a user names it, e.g. "the Hoodie (color: grey, size: M)"."""
    return f"the {item.name} ({options_text(item.options)})"


def method_text(method: PaymentMethod) -> str:
    """A payment method as a user names it."""
    if method.source == "credit_card":
        return f"my {method.brand.title()} credit card ending in {method.last_four}"
    if method.source == "paypal":
        return "my PayPal account"
    return "my gift card"


def address_text(address: Address) -> str:
    """An address on one line."""
    parts = [address.address1, address.address2, address.city, address.state, address.zip]
    return ", ".join(p for p in parts if p) + f", {address.country}"


def address_args(address: Address) -> dict[str, str]:
    """The address fields as tool arguments."""
    return {
        "address1": address.address1,
        "address2": address.address2,
        "city": address.city,
        "state": address.state,
        "country": address.country,
        "zip": address.zip,
    }


class Identity:
    """How the user proves who they are: slots, authentication slots and the gold read calls."""

    def __init__(self, user: User, rng: random.Random) -> None:
        self.user = user
        self.by_email = rng.random() < 0.6
        name, zip_code = user.name, user.address.zip
        self.slots = [
            InfoSlot(
                "first_name",
                name.first_name,
                ["first name", "full name", "your name"],
                "your first name",
            ),
            InfoSlot(
                "last_name",
                name.last_name,
                ["last name", "full name", "surname", "your name"],
                "your last name",
            ),
            InfoSlot("zip", zip_code, ["zip", "postal code", "postcode"], "your zip code"),
        ]
        if self.by_email:
            self.slots.insert(
                0, InfoSlot("email", user.email, ["email", "e-mail"], "your email address")
            )
            self.auth_slots = ["email"]
            self.actions = [Action("find_user_id_by_email", {"email": user.email})]
            self.unknown: list[str] = []
            self.note = "I will give my email address when asked."
        else:
            self.auth_slots = ["first_name", "last_name", "zip"]
            args = {"first_name": name.first_name, "last_name": name.last_name, "zip": zip_code}
            self.actions = [Action("find_user_id_by_name_zip", args)]
            self.unknown = ["email address"]
            self.note = "I don't remember which email I used, but I know my name and zip code."
        self.actions.append(Action("get_user_details", {"user_id": user.user_id}))

    @property
    def full_name(self) -> str:
        """The user's full name."""
        return f"{self.user.name.first_name} {self.user.name.last_name}"


def order_slot(order_id: str, name: str = "order_id") -> InfoSlot:
    """The order the request is about (the agent could list the user's orders)."""
    return InfoSlot(name, order_id, ["order id", "order number", "order #"], "your order ID", True)


def items_slot(items: list[OrderItem], name: str = "items") -> InfoSlot:
    """The items of an order the request is about."""
    value = " and ".join(item_text(i) for i in items)
    keywords = ["which item", "what item", "which product", "what product", "items you", "item you"]
    return InfoSlot(name, value, keywords, "the items", True)


def new_item_slot(options: Options, product: str) -> InfoSlot:
    """The variant the user wants instead (option names such as "size" are keywords too)."""
    keywords = ["which variant", "new item", "which option", "what option", "prefer"]
    keywords += [k for k, _ in options if k not in keywords]
    value = f"{product} with {options_text(options)}"
    return InfoSlot("new_item", value, keywords, "the variant you want instead")


def method_slot(method: PaymentMethod) -> InfoSlot:
    """The payment method to pay or refund with."""
    keywords = ["payment method", "which card", "what card", "pay with", "refund to go"]
    return InfoSlot("payment_method", method_text(method), keywords, "the payment method", True)


def address_slot(address: Address) -> InfoSlot:
    """A new address the user wants to use (keywords avoid a bare "address": "email address")."""
    keywords = ["new address", "shipping address", "which address", "what address"]
    keywords += ["full address", "the address you", "address would you", "address you'd"]
    return InfoSlot("new_address", address_text(address), keywords, "the new address")


def reason_slot(reason: str) -> InfoSlot:
    """Why the user cancels."""
    return InfoSlot("cancel_reason", reason, ["reason", "why"], "the reason for cancelling")


REASON_TEXT = {
    "no longer needed": "I no longer need it",
    "ordered by mistake": "I ordered it by mistake",
}


def record(db: Database, table: str, key: str) -> Any:
    """A record known to exist in the base (intents sample existing keys)."""
    value = db.get(table, key)
    if value is None:
        raise KeyError(f"{table}/{key}")
    return value


def pick_order(db: Database, rng: random.Random, accept: Callable[[Order], bool]) -> Order | None:
    """A random order that ``accept`` likes, or None after a bounded number of tries."""
    keys = list(db.keys("orders"))
    for _ in range(300):
        order: Order = record(db, "orders", rng.choice(keys))
        if accept(order):
            return order
    return None


def gold_reads(identity: Identity, *order_ids: str) -> list[Action]:
    """Authentication, the user's profile and the orders concerned."""
    return [*identity.actions, *(Action("get_order_details", {"order_id": o}) for o in order_ids)]


def sum_action(amounts: list[float]) -> list[Action]:
    """A calculate call adding ``amounts`` when there are several."""
    if len(amounts) < 2:
        return []
    return [Action("calculate", {"expression": " + ".join(f"{a:.2f}" for a in amounts)})]
