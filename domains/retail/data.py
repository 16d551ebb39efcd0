"""Retail records (frozen msgspec Structs) and the deterministic generator of the base database.

The world's clock is fixed at ``TODAY``: every order that reached its customer carries the
day it was delivered (``delivered_on``), drawn from a second random stream so that the rest
of the database is the one drawn before orders had dates.
"""

from __future__ import annotations

import datetime as dt
import itertools
import random
from typing import Any

import msgspec

from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP, identity_indexes
from tau_sim.domains.kit.payments import Payment, money
from tau_sim.domains.kit.people import Address, Customer, Ids, customers, hand_over
from tau_sim.domains.retail.catalog import PRODUCT_TYPES
from tau_sim.simulator.world import Base, Index

Options = tuple[tuple[str, str], ...]
"""Option name/value pairs of a variant, e.g. (("color", "blue"), ("size", "M"))."""


class User(Customer, frozen=True, omit_defaults=True):
    """A customer with their default address, payment methods and order ids."""

    orders: tuple[str, ...] = ()


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
    delivered_on: str = ""


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

TODAY = dt.date(2025, 6, 16)
"""The world's fixed today: returns and exchanges count their window up to it."""

DELIVERED_AGO = (1, 75)
"""The range of days before ``TODAY`` that orders that reached their customer were delivered."""

_REACHED = (DELIVERED, RETURN_REQUESTED, EXCHANGE_REQUESTED)

Tables = dict[str, dict[str, Any]]


def _products(rng: random.Random, ids: Ids) -> dict[str, Product]:
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


def _order(rng: random.Random, ids: Ids, user: User, products: list[Product], status: str) -> Order:
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
    ids = Ids(rng)
    products = _products(rng, ids)
    people = customers(rng, ids, users, User)
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
    dates = random.Random(seed + 1)
    for oid, order in order_table.items():
        if order.status in _REACHED:
            day = TODAY - dt.timedelta(days=dates.randint(*DELIVERED_AGO))
            order_table[oid] = msgspec.structs.replace(order, delivered_on=day.isoformat())
    hand_over(people, owned, "orders")
    return {"products": dict(products), "users": dict(people), "orders": dict(order_table)}


INDEXES: dict[str, Index] = {
    **identity_indexes([EMAIL, NAME_ZIP]),
    "product_types": Index("products", lambda p: (p.name,)),
}
"""Users by email and by name + zip, products by name."""


def build_base(seed: int) -> Base:
    """The retail base: the tables generated from ``seed`` and their indexes."""
    return Base(generate(seed), INDEXES)
