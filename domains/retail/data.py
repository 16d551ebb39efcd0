"""Retail records (frozen msgspec Structs) and the deterministic generator of the base database."""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from typing import Any

import msgspec

from domains.retail.catalog import (
    CARD_BRANDS,
    CITIES,
    FIRST_NAMES,
    LAST_NAMES,
    PRODUCT_TYPES,
    STREETS,
)

Options = tuple[tuple[str, str], ...]
"""Option name/value pairs of a variant, e.g. (("color", "blue"), ("size", "M"))."""


class Address(msgspec.Struct, frozen=True, omit_defaults=True):
    """A postal address."""

    address1: str
    address2: str
    city: str
    state: str
    country: str
    zip: str


class Name(msgspec.Struct, frozen=True, omit_defaults=True):
    """A person's name."""

    first_name: str
    last_name: str


class PaymentMethod(msgspec.Struct, frozen=True, omit_defaults=True):
    """A credit card, a PayPal account or a gift card (with its balance)."""

    id: str
    source: str  # "credit_card" | "paypal" | "gift_card"
    brand: str = ""
    last_four: str = ""
    balance: float | None = None


class User(msgspec.Struct, frozen=True, omit_defaults=True):
    """A customer with their default address, payment methods and order ids."""

    user_id: str
    name: Name
    address: Address
    email: str
    payment_methods: tuple[PaymentMethod, ...]
    orders: tuple[str, ...] = ()

    def payment_method(self, method_id: str) -> PaymentMethod | None:
        """The payment method ``method_id`` of this user, or None."""
        return next((m for m in self.payment_methods if m.id == method_id), None)


class Item(msgspec.Struct, frozen=True, omit_defaults=True):
    """One variant of a product: its options, price and availability."""

    item_id: str
    options: Options
    price: float
    available: bool


class Product(msgspec.Struct, frozen=True, omit_defaults=True):
    """A product type with its variants."""

    product_id: str
    name: str
    variants: tuple[Item, ...]

    def variant(self, item_id: str) -> Item | None:
        """The variant ``item_id``, or None."""
        return next((v for v in self.variants if v.item_id == item_id), None)


class OrderItem(msgspec.Struct, frozen=True, omit_defaults=True):
    """An item as bought in an order."""

    item_id: str
    product_id: str
    name: str
    options: Options
    price: float


class Payment(msgspec.Struct, frozen=True, omit_defaults=True):
    """One entry of an order's payment history."""

    transaction_type: str  # "payment" | "refund"
    amount: float
    payment_method_id: str


class Fulfillment(msgspec.Struct, frozen=True, omit_defaults=True):
    """A shipment: tracking ids and the items it carries."""

    tracking_ids: tuple[str, ...]
    item_ids: tuple[str, ...]


class Order(msgspec.Struct, frozen=True, omit_defaults=True):
    """An order with its items, status, payments and, once requested, a return or exchange."""

    order_id: str
    user_id: str
    address: Address
    items: tuple[OrderItem, ...]
    status: str
    payment_history: tuple[Payment, ...]
    fulfillments: tuple[Fulfillment, ...] = ()
    cancel_reason: str = ""
    return_items: tuple[str, ...] = ()
    return_payment_method_id: str = ""
    exchange_items: tuple[str, ...] = ()
    exchange_new_items: tuple[str, ...] = ()
    exchange_payment_method_id: str = ""
    exchange_price_difference: float | None = None


PENDING = "pending"
ITEMS_MODIFIED = "pending (items modified)"
PROCESSED = "processed"
DELIVERED = "delivered"
CANCELLED = "cancelled"
RETURN_REQUESTED = "return requested"
EXCHANGE_REQUESTED = "exchange requested"

_STATUS_WEIGHTS = {
    PENDING: 30,
    PROCESSED: 15,
    DELIVERED: 35,
    CANCELLED: 10,
    RETURN_REQUESTED: 5,
    EXCHANGE_REQUESTED: 5,
}

Tables = dict[str, dict[str, Any]]


def money(value: float) -> float:
    """Round an amount to cents (never -0.0, which would encode differently)."""
    return round(value, 2) + 0.0


class _Ids:
    """Unique random digit strings."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def digits(self, n: int) -> str:
        while True:
            value = "".join(self.rng.choice("0123456789") for _ in range(n))
            if value[0] != "0" and value not in self.used:
                self.used.add(value)
                return value


def _products(rng: random.Random, ids: _Ids) -> dict[str, Product]:
    products: dict[str, Product] = {}
    for name, base, options in PRODUCT_TYPES:
        combos = list(itertools.product(*options.values()))
        chosen = sorted(rng.sample(combos, min(len(combos), rng.randint(6, 14))))
        variants = []
        for values in chosen:
            price = money(base * rng.uniform(0.85, 1.2))
            available = rng.random() < 0.75
            variants.append(
                Item(ids.digits(10), tuple(zip(options, values, strict=True)), price, available)
            )
        product = Product(ids.digits(10), name, tuple(variants))
        products[product.product_id] = product
    return products


def random_address(rng: random.Random) -> Address:
    """A plausible US address."""
    city, state, prefix = rng.choice(CITIES)
    street = f"{rng.randint(10, 9999)} {rng.choice(STREETS)}"
    unit = rng.choice(("", f"Apt {rng.randint(1, 40)}", f"Suite {rng.randint(100, 999)}"))
    return Address(street, unit, city, state, "USA", f"{prefix}{rng.randint(0, 99):02d}")


def _payment_methods(rng: random.Random, ids: _Ids) -> tuple[PaymentMethod, ...]:
    methods = []
    sources = rng.sample(("credit_card", "paypal", "gift_card"), rng.randint(1, 3))
    if rng.random() < 0.25 and "credit_card" in sources:
        sources.append("credit_card")
    for source in sorted(sources):
        pid = f"{source}_{ids.digits(7)}"
        if source == "credit_card":
            methods.append(PaymentMethod(pid, source, rng.choice(CARD_BRANDS), ids.digits(4)))
        elif source == "gift_card":
            methods.append(PaymentMethod(pid, source, balance=float(rng.randint(0, 300))))
        else:
            methods.append(PaymentMethod(pid, source))
    return tuple(methods)


def _users(rng: random.Random, ids: _Ids, count: int) -> dict[str, User]:
    users: dict[str, User] = {}
    seen: set[tuple[str, str, str]] = set()
    while len(users) < count:
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        address = random_address(rng)
        if (first, last, address.zip) in seen:
            continue
        seen.add((first, last, address.zip))
        number = ids.digits(4)
        user_id = f"{first}_{last}_{number}".lower()
        email = f"{first}.{last}{number}@example.com".lower()
        methods = _payment_methods(rng, ids)
        users[user_id] = User(user_id, Name(first, last), address, email, methods)
    return users


def _order(
    rng: random.Random, ids: _Ids, user: User, products: list[Product], status: str
) -> Order:
    items: list[OrderItem] = []
    for product in rng.sample(products, rng.randint(1, 4)):
        variant = rng.choice(product.variants)
        items.append(
            OrderItem(
                variant.item_id, product.product_id, product.name, variant.options, variant.price
            )
        )
    total = money(sum(i.price for i in items))
    method = rng.choice(user.payment_methods)
    payments = [Payment("payment", total, method.id)]
    fulfillments: tuple[Fulfillment, ...] = ()
    if status in (PROCESSED, DELIVERED, RETURN_REQUESTED, EXCHANGE_REQUESTED):
        fulfillments = (Fulfillment((ids.digits(12),), tuple(i.item_id for i in items)),)
    extra: dict[str, Any] = {}
    if status == CANCELLED:
        payments.append(Payment("refund", total, method.id))
        extra["cancel_reason"] = rng.choice(("no longer needed", "ordered by mistake"))
    elif status == RETURN_REQUESTED:
        extra["return_items"] = (items[0].item_id,)
        extra["return_payment_method_id"] = method.id
    elif status == EXCHANGE_REQUESTED:
        old = items[0]
        product = next(p for p in products if p.product_id == old.product_id)
        new = rng.choice([v for v in product.variants if v.item_id != old.item_id])
        extra["exchange_items"] = (old.item_id,)
        extra["exchange_new_items"] = (new.item_id,)
        extra["exchange_payment_method_id"] = method.id
        extra["exchange_price_difference"] = money(new.price - old.price)
    return Order(
        f"#W{ids.digits(7)}",
        user.user_id,
        user.address,
        tuple(items),
        status,
        tuple(payments),
        fulfillments,
        **extra,
    )


def generate(seed: int, users: int = 500, orders: int = 1000) -> Tables:
    """Generate the retail tables (products, users, orders) deterministically from ``seed``."""
    rng = random.Random(seed)
    ids = _Ids(rng)
    products = _products(rng, ids)
    people = _users(rng, ids, users)
    product_list = list(products.values())
    people_list = list(people.values())
    statuses, weights = list(_STATUS_WEIGHTS), list(_STATUS_WEIGHTS.values())
    order_table: dict[str, Order] = {}
    owned: dict[str, list[str]] = {uid: [] for uid in people}
    for _ in range(orders):
        user = rng.choice(people_list)
        order = _order(rng, ids, user, product_list, rng.choices(statuses, weights)[0])
        order_table[order.order_id] = order
        owned[user.user_id].append(order.order_id)
    for uid, order_ids in owned.items():
        people[uid] = msgspec.structs.replace(people[uid], orders=tuple(order_ids))
    return {"products": dict(products), "users": dict(people), "orders": dict(order_table)}


def build_indexes(tables: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Lookup tables over the base: email, name+zip, product names and item -> product."""
    users: Mapping[str, User] = tables["users"]
    products: Mapping[str, Product] = tables["products"]
    return {
        "email": {u.email.lower(): uid for uid, u in users.items()},
        "name_zip": {
            name_zip_key(u.name.first_name, u.name.last_name, u.address.zip): uid
            for uid, u in users.items()
        },
        "product_types": {
            p.name: pid for pid, p in sorted(products.items(), key=lambda kv: kv[1].name)
        },
        "item_product": {v.item_id: pid for pid, p in products.items() for v in p.variants},
    }


def name_zip_key(first_name: str, last_name: str, zip_code: str) -> str:
    """The normalized key of the name+zip index."""
    return f"{first_name.strip().lower()}|{last_name.strip().lower()}|{zip_code.strip()}"
