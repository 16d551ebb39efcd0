"""Hotel records (frozen msgspec Structs) and the deterministic generator of the base database.

The world's clock is fixed: ``TODAY`` and ``NOW``. Every property sells each room type night by
night from ``FIRST_NIGHT`` to ``LAST_NIGHT`` (rooms left and a nightly rate per night); stays
that ended before today are checked out, some with an incident the hotel recorded, each with
its housekeeping log (the nights the room was cleaned: every night but where it was not).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import msgspec

from tau_sim.domains.hotel.catalog import PROPERTIES, ROOM_FACTOR, Property
from tau_sim.domains.hotel.rules import (
    MEMBER,
    MEMBER_TIERS,
    NON_REFUNDABLE,
    RATE_PLANS,
    ROOM_TYPES,
    SPECIAL_REQUESTS,
    TIERS,
    plan_price,
)
from tau_sim.domains.kit.codes import drawn_code
from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP, identity_indexes
from tau_sim.domains.kit.payments import Payment, can_pay, money
from tau_sim.domains.kit.payments import net_paid as kit_net_paid
from tau_sim.domains.kit.people import Customer, Ids, customers, hand_over
from tau_sim.simulator.world import Base

TODAY = dt.date(2026, 7, 15)
NOW = dt.datetime(2026, 7, 15, 12, 0)
"""The world's fixed clock (never the real one)."""

FIRST_NIGHT = TODAY - dt.timedelta(days=21)
LAST_NIGHT = TODAY + dt.timedelta(days=35)
"""Nights are sold from ``FIRST_NIGHT`` to ``LAST_NIGHT`` (eight weeks)."""

CONFIRMED = "confirmed"
CHECKED_IN = "checked_in"
CHECKED_OUT = "checked_out"
CANCELLED = "cancelled"
"""Reservation statuses."""

NOT_CLEANED = "room not cleaned during the stay"
"""The incident of a stay whose room housekeeping never cleaned (its log is empty)."""

INCIDENTS: tuple[str, ...] = (
    "air conditioning out of order for the whole stay",
    "construction noise from the floor above every morning",
    NOT_CLEANED,
    "no hot water on two mornings",
    "wrong bed type given at check-in",
    "elevator out of service, room on the 9th floor",
)


class Night(msgspec.Struct, frozen=True, omit_defaults=True):
    """One room type of one property on one night: rooms left to sell and the nightly rate."""

    property_id: str
    room_type: str
    date: str
    rooms_left: int
    rate: float


class StayNight(msgspec.Struct, frozen=True, omit_defaults=True):
    """A night of a reservation: its price and, when paid with points, the points it took."""

    date: str
    price: float
    points: int = 0


class Reservation(msgspec.Struct, frozen=True, omit_defaults=True):
    """A stay: property, room type, nights (check-in to check-out), rate plan and payments."""

    reservation_id: str
    user_id: str
    property_id: str
    room_type: str
    check_in: str
    check_out: str
    rate_plan: str
    guests: int
    nights: tuple[StayNight, ...]
    payment_history: tuple[Payment, ...]
    created_at: str
    status: str
    special_requests: tuple[str, ...] = ()
    incident: str = ""
    goodwill_points: int = 0
    complimentary_upgrade: bool = False
    housekeeping: tuple[str, ...] = ()


class Guest(Customer, frozen=True, omit_defaults=True):
    """A customer with a loyalty tier, a points balance and reservation ids."""

    tier: str = "blue"
    points: int = 0
    reservations: tuple[str, ...] = ()


Tables = dict[str, dict[str, Any]]


def night_key(property_id: str, room_type: str, date: str) -> str:
    """The key of a night in the ``nights`` table."""
    return f"{property_id}:{room_type}:{date}"


def stay_dates(check_in: str, check_out: str) -> list[str]:
    """The nights of a stay: every date from check-in up to the day before check-out."""
    start, end = dt.date.fromisoformat(check_in), dt.date.fromisoformat(check_out)
    return [(start + dt.timedelta(days=n)).isoformat() for n in range((end - start).days)]


def net_paid(reservation: Reservation) -> float:
    """Payments minus refunds of a reservation."""
    return kit_net_paid(reservation.payment_history)


def _nights(rng: random.Random) -> dict[str, Night]:
    nights: dict[str, Night] = {}
    days = [FIRST_NIGHT + dt.timedelta(days=n) for n in range((LAST_NIGHT - FIRST_NIGHT).days + 1)]
    for prop in PROPERTIES:
        for room in ROOM_TYPES:
            top = {"standard": 14, "deluxe": 7, "suite": 3}[room]
            for day in days:
                weekend = 1.2 if day.weekday() in (4, 5) else 1.0
                rate = money(
                    round(prop.base_rate * ROOM_FACTOR[room] * weekend * rng.uniform(0.9, 1.15))
                )
                rooms = 0 if rng.random() < 0.06 else rng.randint(1, top)
                nights[night_key(prop.property_id, room, day.isoformat())] = Night(
                    prop.property_id, room, day.isoformat(), rooms, rate
                )
    return nights


def _created(rng: random.Random, check_in: dt.date) -> dt.datetime:
    """When a stay starting on ``check_in`` was booked (never after ``NOW``)."""
    latest = min(NOW - dt.timedelta(hours=3), dt.datetime.combine(check_in, dt.time(0)))
    return latest - dt.timedelta(days=rng.randint(0, 60), minutes=rng.randrange(0, 24 * 60, 5))


class _Booker:
    """Draws the base's reservations and takes their rooms from the nights."""

    def __init__(self, rng: random.Random, nights: dict[str, Night]) -> None:
        self.rng, self.nights = rng, nights
        self.codes: set[str] = set()

    def _check_in(self) -> dt.date:
        rng = self.rng
        if rng.random() < 0.25:
            return TODAY + dt.timedelta(days=rng.randint(0, 3))
        return FIRST_NIGHT + dt.timedelta(days=rng.randint(0, (LAST_NIGHT - FIRST_NIGHT).days - 5))

    def reservation(self, user: Guest, prop: Property) -> Reservation | None:
        """A reservation of ``user`` at ``prop`` on nights with rooms left, or None."""
        rng = self.rng
        room = rng.choices(ROOM_TYPES, (60, 30, 10))[0]
        check_in = self._check_in()
        length = rng.choices((1, 2, 3, 4, 5, 7), (20, 30, 22, 14, 9, 5))[0]
        check_out = check_in + dt.timedelta(days=length)
        if check_out > LAST_NIGHT + dt.timedelta(days=1):
            return None
        dates = stay_dates(check_in.isoformat(), check_out.isoformat())
        keys = [night_key(prop.property_id, room, d) for d in dates]
        if any(self.nights[k].rooms_left < 1 for k in keys):
            return None
        plans = [p for p in RATE_PLANS if p != MEMBER or user.tier in MEMBER_TIERS]
        plan = rng.choice(plans)
        stay = tuple(
            StayNight(d, plan_price(self.nights[k].rate, plan))
            for d, k in zip(dates, keys, strict=True)
        )
        total = money(sum(n.price for n in stay))
        methods = [m for m in user.payment_methods if can_pay(m, total)]
        if not methods:
            return None
        method = rng.choice(methods)
        payments = [Payment("payment", total, method.id)]
        if check_out <= TODAY:
            status = CHECKED_OUT
        elif check_in < TODAY:
            status = CHECKED_IN
        elif plan != NON_REFUNDABLE and rng.random() < 0.07:
            status = CANCELLED
            payments.append(Payment("refund", total, method.id))
        else:
            status = "confirmed"
        if status != CANCELLED:
            for k in keys:
                self.nights[k] = msgspec.structs.replace(
                    self.nights[k], rooms_left=self.nights[k].rooms_left - 1
                )
        requests: tuple[str, ...] = ()
        if rng.random() < 0.2:
            requests = (rng.choice(SPECIAL_REQUESTS),)
        incident = rng.choice(INCIDENTS) if status == CHECKED_OUT and rng.random() < 0.3 else ""
        guests = rng.randint(1, {"standard": 2, "deluxe": 3, "suite": 4}[room])
        cleaned: tuple[str, ...] = ()
        if status == CHECKED_OUT and incident != NOT_CLEANED:
            cleaned = tuple(dates)
        return Reservation(
            drawn_code(self.rng, self.codes),
            user.user_id,
            prop.property_id,
            room,
            check_in.isoformat(),
            check_out.isoformat(),
            plan,
            guests,
            stay,
            tuple(payments),
            _created(rng, check_in).isoformat(timespec="minutes"),
            status,
            requests,
            incident,
            housekeeping=cleaned,
        )


def generate(seed: int, users: int = 300, reservations: int = 900) -> Tables:
    """Generate the nights, guests and reservations deterministically from ``seed``."""
    rng = random.Random(seed)
    ids = Ids(rng)
    nights = _nights(rng)
    people = customers(rng, ids, users, Guest)
    for uid, person in people.items():
        tier = rng.choices(TIERS, (55, 30, 15))[0]
        points = rng.choice((0, rng.randrange(1_000, 90_000, 250)))
        people[uid] = msgspec.structs.replace(person, tier=tier, points=points)
    booker = _Booker(rng, nights)
    guests = list(people)
    table: dict[str, Reservation] = {}
    owned: dict[str, list[str]] = {uid: [] for uid in people}
    while len(table) < reservations:
        user = people[rng.choice(guests)]
        booked = booker.reservation(user, rng.choice(PROPERTIES))
        if booked is None:
            continue
        table[booked.reservation_id] = booked
        owned[user.user_id].append(booked.reservation_id)
    hand_over(people, owned, "reservations")
    properties = {p.property_id: p for p in PROPERTIES}
    return {
        "properties": properties,
        "nights": dict(nights),
        "users": dict(people),
        "reservations": dict(table),
    }


INDEXES = identity_indexes([EMAIL, NAME_ZIP])
"""Users by email and by name + zip."""


def build_base(seed: int) -> Base:
    """The hotel base: the tables generated from ``seed`` and their indexes."""
    return Base(generate(seed), INDEXES)
