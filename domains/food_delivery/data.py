"""Food-delivery records (frozen msgspec Structs) and the deterministic generator of the base.

Every timestamp is an ISO string ("2025-06-20T19:05") relative to ``NOW``, the fixed "now" of
the world: tools and intents never read the real clock.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import msgspec

from tau_sim.domains.food_delivery.catalog import CUISINES
from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP, identity_indexes
from tau_sim.domains.kit.payments import money
from tau_sim.domains.kit.people import Address, Customer, Ids, customers, hand_over
from tau_sim.domains.kit.vocab import CITIES
from tau_sim.simulator.world import Base, Index

NOW = dt.datetime(2025, 6, 20, 19, 30)
"""The fixed "now" of the food-delivery world."""

PLACED = "placed"
PREPARING = "preparing"
OUT_FOR_DELIVERY = "out for delivery"
DELIVERED = "delivered"
CANCELLED = "cancelled"

SERVICE_FEE_RATE = 0.10
"""The service fee: this share of the subtotal (a database rule, recomputed on every change)."""


class User(Customer, frozen=True, omit_defaults=True):
    """A customer with their order ids, account credit and this month's refunds and credits."""

    orders: tuple[str, ...] = ()
    account_credit: float = 0.0
    item_refunds_this_month: float = 0.0
    late_credits_this_month: float = 0.0


class MenuItem(msgspec.Struct, frozen=True, omit_defaults=True):
    """A dish on a restaurant's menu: price, availability and the option choices it takes."""

    item_id: str
    name: str
    price: float
    available: bool
    options: tuple[str, ...] = ()


class Restaurant(msgspec.Struct, frozen=True, omit_defaults=True):
    """A restaurant and its menu."""

    restaurant_id: str
    name: str
    cuisine: str
    city: str
    menu: tuple[MenuItem, ...]

    def item(self, item_id: str) -> MenuItem | None:
        """The menu item ``item_id``, or None."""
        return next((m for m in self.menu if m.item_id == item_id), None)


class Promotion(msgspec.Struct, frozen=True, omit_defaults=True):
    """A promotion code: a percentage (up to a maximum) or a flat amount off the subtotal."""

    code: str
    kind: str  # "percent" | "flat"
    value: float
    min_subtotal: float
    expires: str  # ISO date, last day the code is valid
    first_order_only: bool = False
    max_discount: float = 0.0


class OrderItem(msgspec.Struct, frozen=True, omit_defaults=True):
    """A line of an order: the dish, its option, quantity and unit price."""

    item_id: str
    name: str
    quantity: int
    price: float
    option: str = ""

    @property
    def line_total(self) -> float:
        """Quantity times unit price."""
        return money(self.quantity * self.price)


class Refund(msgspec.Struct, frozen=True, omit_defaults=True):
    """Money given back on an order: to the payment method (``refund``) or as account credit."""

    kind: str  # "cancellation" | "missing item" | "wrong item" | "late delivery"
    amount: float
    destination: str  # a payment method id, or "account_credit"
    item_id: str = ""


class Order(msgspec.Struct, frozen=True, omit_defaults=True):
    """An order: restaurant, items, fees, tip, promotion, status, times and refunds."""

    order_id: str
    user_id: str
    restaurant_id: str
    status: str
    items: tuple[OrderItem, ...]
    address: Address
    subtotal: float
    delivery_fee: float
    service_fee: float
    tip: float
    total: float
    payment_method_id: str
    placed_at: str
    promised_by: str
    discount: float = 0.0
    promo_code: str = ""
    delivered_at: str = ""
    cancel_reason: str = ""
    refunds: tuple[Refund, ...] = ()


def stamp(moment: dt.datetime) -> str:
    """An ISO timestamp to the minute."""
    return moment.strftime("%Y-%m-%dT%H:%M")


def clock(timestamp: str) -> str:
    """The time of day of an ISO timestamp, e.g. "19:45"."""
    return timestamp[11:16]


def discount_for(promo: Promotion, subtotal: float) -> float:
    """The discount ``promo`` gives on ``subtotal`` (never more than the subtotal)."""
    if promo.kind == "percent":
        off = money(subtotal * promo.value / 100)
        if promo.max_discount:
            off = min(off, promo.max_discount)
    else:
        off = promo.value
    return money(min(off, subtotal))


def priced(order: Order, items: tuple[OrderItem, ...], promo: Promotion | None) -> Order:
    """``order`` with ``items``, its subtotal, service fee, discount and total recomputed."""
    subtotal = money(sum(i.line_total for i in items))
    service = money(subtotal * SERVICE_FEE_RATE)
    discount = discount_for(promo, subtotal) if promo is not None else 0.0
    total = money(subtotal + order.delivery_fee + service + order.tip - discount)
    return msgspec.structs.replace(
        order,
        items=items,
        subtotal=subtotal,
        service_fee=service,
        discount=discount,
        promo_code=promo.code if promo is not None else "",
        total=total,
    )


Tables = dict[str, dict[str, Any]]

_PROMOS: tuple[Promotion, ...] = (
    Promotion("WELCOME15", "percent", 15, 20.0, "2025-12-31", True, 10.0),
    Promotion("FIRSTBITE", "flat", 8.0, 25.0, "2025-09-30", True),
    Promotion("SUMMER10", "percent", 10, 30.0, "2025-08-31", max_discount=8.0),
    Promotion("FEAST20", "percent", 20, 60.0, "2025-07-15", max_discount=15.0),
    Promotion("SAVE5", "flat", 5.0, 25.0, "2025-06-30"),
    Promotion("LUNCH3", "flat", 3.0, 15.0, "2025-07-31"),
    Promotion("SPRING12", "percent", 12, 20.0, "2025-05-31", max_discount=10.0),
    Promotion("JUNE7", "flat", 7.0, 35.0, "2025-06-15"),
    Promotion("BIGORDER", "flat", 12.0, 80.0, "2025-10-31"),
    Promotion("WEEKEND8", "percent", 8, 25.0, "2025-06-22", max_discount=6.0),
)

_STATUS_WEIGHTS = {PLACED: 22, PREPARING: 14, OUT_FOR_DELIVERY: 10, DELIVERED: 44, CANCELLED: 10}
_REASONS = ("changed my mind", "ordered by mistake", "taking too long")


def _restaurants(rng: random.Random, ids: Ids) -> dict[str, Restaurant]:
    table: dict[str, Restaurant] = {}
    for city, _state, _zip in CITIES:
        for cuisine in rng.sample(sorted(CUISINES), 3):
            stems, dishes = CUISINES[cuisine]
            menu = tuple(
                MenuItem(
                    ids.digits(8),
                    name,
                    money(base * rng.uniform(0.9, 1.25)),
                    rng.random() < 0.85,
                    options,
                )
                for name, base, options in dishes
            )
            rid = f"rest_{ids.digits(5)}"
            table[rid] = Restaurant(rid, f"{rng.choice(stems)} {city}", cuisine, city, menu)
    return table


class _Orders:
    """The order generator: one order at a time, for a user and a restaurant."""

    def __init__(self, rng: random.Random, ids: Ids) -> None:
        self.rng = rng
        self.ids = ids

    def times(self, status: str) -> tuple[dt.datetime, dt.datetime, str]:
        """Placed time, promised time and (once delivered) the delivery time."""
        rng = self.rng
        if status == PLACED:
            placed = NOW - dt.timedelta(minutes=rng.randint(2, 9))
        elif status == PREPARING:
            placed = NOW - dt.timedelta(minutes=rng.randint(10, 24))
        elif status == OUT_FOR_DELIVERY:
            placed = NOW - dt.timedelta(minutes=rng.randint(25, 40))
        else:
            days = rng.randint(0, 6) if rng.random() < 0.5 else rng.randint(7, 34)
            placed = NOW - dt.timedelta(days=days, minutes=rng.randint(180, 900))
        promised = placed + dt.timedelta(minutes=rng.randint(35, 55))
        delivered = ""
        if status == DELIVERED:
            late = rng.choice((-8, -3, 0, 4, 9, 12, 17, 22, 28, 36, 47, 58, 71))
            delivered = stamp(promised + dt.timedelta(minutes=late + rng.randint(0, 2)))
        return placed, promised, delivered

    def order(self, user: User, restaurant: Restaurant, status: str) -> Order:
        """One order of ``user`` at ``restaurant`` in ``status``."""
        rng = self.rng
        dishes = rng.sample(restaurant.menu, rng.randint(1, 4))
        items = tuple(
            OrderItem(
                d.item_id,
                d.name,
                1 if rng.random() < 0.8 else 2,
                d.price,
                rng.choice(d.options) if d.options else "",
            )
            for d in dishes
        )
        placed, promised, delivered = self.times(status)
        method = rng.choice(user.payment_methods)
        base = Order(
            order_id=f"#FD{self.ids.digits(7)}",
            user_id=user.user_id,
            restaurant_id=restaurant.restaurant_id,
            status=status,
            items=items,
            address=user.address,
            subtotal=0.0,
            delivery_fee=rng.choice((0.0, 1.99, 2.99, 3.99, 4.99)),
            service_fee=0.0,
            tip=rng.choice((0.0, 2.0, 3.0, 4.0, 5.0, 6.0)),
            total=0.0,
            payment_method_id=method.id,
            placed_at=stamp(placed),
            promised_by=stamp(promised),
            delivered_at=delivered,
        )
        promo = rng.choice(_PROMOS) if rng.random() < 0.12 else None
        order = priced(base, items, promo)
        if status == CANCELLED:
            order = msgspec.structs.replace(
                order,
                cancel_reason=rng.choice(_REASONS),
                refunds=(Refund("cancellation", order.total, method.id),),
            )
        return order


def generate(seed: int, users: int = 300, orders: int = 900) -> Tables:
    """Generate the tables (restaurants, promotions, users, orders) deterministically."""
    rng = random.Random(seed)
    ids = Ids(rng)
    restaurants = _restaurants(rng, ids)
    people = customers(rng, ids, users, User)
    by_city: dict[str, list[Restaurant]] = {}
    for r in restaurants.values():
        by_city.setdefault(r.city, []).append(r)
    for uid, user in people.items():
        refunds = rng.choice((0.0, 0.0, 0.0, 0.0, 12.5, 24.0, 38.0, 44.5))
        credits = rng.choice((0.0, 0.0, 0.0, 5.0, 10.0, 15.0, 20.0))
        people[uid] = msgspec.structs.replace(
            user,
            account_credit=money(credits + rng.choice((0.0, 0.0, 5.0))),
            item_refunds_this_month=refunds,
            late_credits_this_month=credits,
        )
    generator = _Orders(rng, ids)
    statuses, weights = list(_STATUS_WEIGHTS), list(_STATUS_WEIGHTS.values())
    order_table: dict[str, Order] = {}
    owned: dict[str, list[str]] = {uid: [] for uid in people}
    people_list = list(people.values())
    for _ in range(orders):
        user = rng.choice(people_list)
        restaurant = rng.choice(by_city[user.address.city])
        order = generator.order(user, restaurant, rng.choices(statuses, weights)[0])
        order_table[order.order_id] = order
        owned[user.user_id].append(order.order_id)
    hand_over(people, owned, "orders")
    return {
        "restaurants": dict(restaurants),
        "promotions": {p.code: p for p in _PROMOS},
        "users": dict(people),
        "orders": dict(order_table),
    }


INDEXES: dict[str, Index] = {**identity_indexes([EMAIL, NAME_ZIP])}
"""Users by email and by name + zip."""


def build_base(seed: int) -> Base:
    """The food-delivery base: the tables generated from ``seed`` and their indexes."""
    return Base(generate(seed), INDEXES)
