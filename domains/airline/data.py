"""Airline records (frozen msgspec Structs) and the deterministic generator of the base database.

The world's clock is fixed: ``TODAY`` and ``NOW``. Flights before today have landed (some late,
some cancelled); flights from today on are scheduled, a few delayed or cancelled.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import msgspec

from tau_sim.domains.airline.catalog import CABIN_FACTOR, CABINS, ROUTES
from tau_sim.domains.airline.rules import BAG_FEE, INSURANCE_PRICE, TIERS, nonfree_bags
from tau_sim.domains.kit.codes import drawn_code
from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP, identity_indexes
from tau_sim.domains.kit.payments import Payment, can_pay, money
from tau_sim.domains.kit.payments import net_paid as kit_net_paid
from tau_sim.domains.kit.people import Customer, Ids, customers, hand_over
from tau_sim.domains.kit.vocab import FIRST_NAMES, LAST_NAMES
from tau_sim.simulator.world import Base, Index

TODAY = dt.date(2026, 5, 15)
NOW = dt.datetime(2026, 5, 15, 12, 0)
"""The world's fixed clock (never the real one)."""

FIRST_DAY = TODAY - dt.timedelta(days=14)
LAST_DAY = TODAY + dt.timedelta(days=27)
"""Flights are scheduled every day from ``FIRST_DAY`` to ``LAST_DAY`` (six weeks)."""

LANDED = "landed"
SCHEDULED = "scheduled"
DELAYED = "delayed"
CANCELLED = "cancelled"
"""Flight statuses."""

ACTIVE = "active"
"""Reservation statuses: ``ACTIVE`` or ``CANCELLED``."""

ONE_WAY = "one_way"
ROUND_TRIP = "round_trip"


class Fare(msgspec.Struct, frozen=True, omit_defaults=True):
    """One cabin of a flight: seats left and the price per passenger."""

    cabin: str
    seats_left: int
    price: float


class Flight(msgspec.Struct, frozen=True, omit_defaults=True):
    """One flight on one date, with its status and cabins."""

    flight_number: str
    date: str
    origin: str
    destination: str
    departure: str
    arrival: str
    status: str
    fares: tuple[Fare, ...]
    delay_minutes: int = 0

    def fare(self, cabin: str) -> Fare | None:
        """The fare of ``cabin``, or None."""
        return next((f for f in self.fares if f.cabin == cabin), None)


class Segment(msgspec.Struct, frozen=True, omit_defaults=True):
    """A flight of a reservation and the price paid per passenger for it."""

    flight_number: str
    date: str
    origin: str
    destination: str
    price: float


class Passenger(msgspec.Struct, frozen=True, omit_defaults=True):
    """A traveller of a reservation."""

    first_name: str
    last_name: str
    dob: str


class Reservation(msgspec.Struct, frozen=True, omit_defaults=True):
    """A booking: its flights, cabin, passengers, bags, insurance and payments."""

    reservation_id: str
    user_id: str
    origin: str
    destination: str
    trip_type: str
    cabin: str
    flights: tuple[Segment, ...]
    passengers: tuple[Passenger, ...]
    payment_history: tuple[Payment, ...]
    created_at: str
    total_baggages: int
    nonfree_baggages: int
    insurance: bool
    status: str
    compensation: float = 0.0


class User(Customer, frozen=True, omit_defaults=True):
    """A customer with a membership tier, reservation ids and travel credit from compensation."""

    membership: str = "regular"
    reservations: tuple[str, ...] = ()
    travel_credit: float = 0.0


Tables = dict[str, dict[str, Any]]


def flight_key(flight_number: str, date: str) -> str:
    """The key of a flight in the ``flights`` table."""
    return f"{flight_number}:{date}"


def net_paid(reservation: Reservation) -> float:
    """Payments minus refunds of a reservation."""
    return kit_net_paid(reservation.payment_history)


def _clock(minutes: int) -> str:
    return f"{(minutes // 60) % 24:02d}:{minutes % 60:02d}"


def _status(rng: random.Random, day: dt.date) -> tuple[str, int]:
    r = rng.random()
    if day < TODAY:
        if r < 0.04:
            return CANCELLED, 0
        if r < 0.14:
            return LANDED, rng.randrange(180, 420, 5)
        if r < 0.26:
            return LANDED, rng.randrange(20, 175, 5)
        return LANDED, 0
    soon = day <= TODAY + dt.timedelta(days=2)
    if r < 0.03:
        return CANCELLED, 0
    if soon and r < 0.15:
        return DELAYED, rng.randrange(45, 360, 5)
    return SCHEDULED, 0


def _flights(rng: random.Random) -> dict[str, Flight]:
    flights: dict[str, Flight] = {}
    numbers = iter(rng.sample(range(100, 999), 200))
    days = [FIRST_DAY + dt.timedelta(days=n) for n in range((LAST_DAY - FIRST_DAY).days + 1)]
    for a, b, minutes, base in ROUTES:
        for origin, destination in ((a, b), (b, a)):
            for _ in range(rng.choice((1, 2, 2, 3))):
                number = f"AT{next(numbers)}"
                start = rng.randrange(6 * 60, 21 * 60, 5)
                for day in days:
                    status, delay = _status(rng, day)
                    swing = rng.uniform(0.8, 1.35)
                    fares = tuple(
                        Fare(
                            cabin,
                            0
                            if rng.random() < 0.06
                            else rng.randint(2, 9 if cabin == "business" else 24),
                            money(round(base * CABIN_FACTOR[cabin] * swing)),
                        )
                        for cabin in CABINS
                    )
                    flight = Flight(
                        number,
                        day.isoformat(),
                        origin,
                        destination,
                        _clock(start),
                        _clock(start + minutes),
                        status,
                        fares,
                        delay,
                    )
                    flights[flight_key(number, flight.date)] = flight
    return flights


def _with_seats(flight: Flight, cabin: str, delta: int) -> Flight:
    fares = tuple(
        msgspec.structs.replace(f, seats_left=f.seats_left + delta) if f.cabin == cabin else f
        for f in flight.fares
    )
    return msgspec.structs.replace(flight, fares=fares)


def _passengers(rng: random.Random, user: User) -> tuple[Passenger, ...]:
    count = rng.choices((1, 2, 3, 4), (50, 30, 14, 6))[0]
    people = []
    if rng.random() < 0.8:
        people.append(Passenger(user.name.first_name, user.name.last_name, _dob(rng)))
    while len(people) < count:
        last = user.name.last_name if rng.random() < 0.5 else rng.choice(LAST_NAMES)
        people.append(Passenger(rng.choice(FIRST_NAMES), last, _dob(rng)))
    return tuple(people)


def _dob(rng: random.Random) -> str:
    return dt.date(rng.randint(1950, 2012), rng.randint(1, 12), rng.randint(1, 28)).isoformat()


def _created(rng: random.Random, first: dt.date) -> dt.datetime:
    """When a reservation whose first flight is on ``first`` was booked (never after ``NOW``)."""
    if rng.random() < 0.12 and first > TODAY:
        return NOW - dt.timedelta(minutes=rng.randrange(30, 23 * 60, 5))
    latest = min(NOW - dt.timedelta(days=2), dt.datetime.combine(first, dt.time(0)))
    return latest - dt.timedelta(days=rng.randint(0, 50), minutes=rng.randrange(0, 24 * 60, 5))


class _Booker:
    """Draws the base's reservations and takes their seats from the flights."""

    def __init__(self, rng: random.Random, flights: dict[str, Flight]) -> None:
        self.rng, self.flights = rng, flights
        self.codes: set[str] = set()
        self.by_route: dict[tuple[str, str], list[str]] = {}
        for flight in flights.values():
            route = (flight.origin, flight.destination)
            numbers = self.by_route.setdefault(route, [])
            if flight.flight_number not in numbers:
                numbers.append(flight.flight_number)

    def _segment(
        self, origin: str, destination: str, day: dt.date, cabin: str, seats: int
    ) -> Flight | None:
        number = self.rng.choice(self.by_route[(origin, destination)])
        flight = self.flights.get(flight_key(number, day.isoformat()))
        if flight is None:
            return None
        fare = flight.fare(cabin)
        if fare is None or fare.seats_left < seats:
            return None
        return flight

    def reservation(self, user: User) -> Reservation | None:
        """A reservation of ``user`` on flights with seats left, or None when none fits."""
        rng = self.rng
        origin, destination = rng.choice(list(self.by_route))
        trip = ONE_WAY if rng.random() < 0.45 else ROUND_TRIP
        cabin = rng.choices(CABINS, (35, 45, 20))[0]
        people = _passengers(rng, user)
        first = FIRST_DAY + dt.timedelta(days=rng.randint(0, (LAST_DAY - FIRST_DAY).days - 7))
        legs = [(origin, destination, first)]
        if trip == ROUND_TRIP:
            legs.append((destination, origin, first + dt.timedelta(days=rng.randint(2, 7))))
        chosen = [self._segment(o, d, day, cabin, len(people)) for o, d, day in legs]
        if any(f is None for f in chosen):
            return None
        flights = [f for f in chosen if f is not None]
        segments = tuple(
            Segment(f.flight_number, f.date, f.origin, f.destination, f.fare(cabin).price)  # type: ignore[union-attr]
            for f in flights
        )
        insurance = rng.random() < 0.3
        bags = sum(rng.choices((0, 1, 2), (35, 45, 20))[0] for _ in people)
        nonfree = nonfree_bags(user.membership, cabin, len(people), bags)
        total = money(
            sum(s.price for s in segments) * len(people)
            + (INSURANCE_PRICE * len(people) if insurance else 0.0)
            + BAG_FEE * nonfree
        )
        methods = [m for m in user.payment_methods if m.source != "gift_card" or can_pay(m, total)]
        if not methods:
            return None
        method = rng.choice(methods)
        payments = [Payment("payment", total, method.id)]
        status = ACTIVE
        if first > TODAY and rng.random() < 0.07:
            status = CANCELLED
            payments.append(Payment("refund", total, method.id))
        created = _created(rng, first)
        for f in flights:
            if status == ACTIVE:
                self.flights[flight_key(f.flight_number, f.date)] = _with_seats(
                    f, cabin, -len(people)
                )
        return Reservation(
            drawn_code(self.rng, self.codes),
            user.user_id,
            origin,
            destination,
            trip,
            cabin,
            segments,
            people,
            tuple(payments),
            created.isoformat(timespec="minutes"),
            bags,
            nonfree,
            insurance,
            status,
        )


def generate(seed: int, users: int = 300, reservations: int = 800) -> Tables:
    """Generate the flights, users and reservations deterministically from ``seed``."""
    rng = random.Random(seed)
    ids = Ids(rng)
    flights = _flights(rng)
    people = customers(rng, ids, users, User)
    for uid, person in people.items():
        tier = rng.choices(TIERS, (55, 30, 15))[0]
        people[uid] = msgspec.structs.replace(person, membership=tier)
    booker = _Booker(rng, flights)
    people_list = list(people.values())
    table: dict[str, Reservation] = {}
    owned: dict[str, list[str]] = {uid: [] for uid in people}
    while len(table) < reservations:
        user = people[rng.choice(people_list).user_id]
        booked = booker.reservation(user)
        if booked is None:
            continue
        table[booked.reservation_id] = booked
        owned[user.user_id].append(booked.reservation_id)
    hand_over(people, owned, "reservations")
    return {"flights": dict(flights), "users": dict(people), "reservations": dict(table)}


def route_key(origin: str, destination: str, date: str) -> str:
    """The key of the ``routes`` index: flights from ``origin`` to ``destination`` on ``date``."""
    return f"{origin.strip().upper()}|{destination.strip().upper()}|{date.strip()}"


INDEXES: dict[str, Index] = {
    **identity_indexes([EMAIL, NAME_ZIP]),
    "routes": Index("flights", lambda f: (route_key(f.origin, f.destination, f.date),)),
}
"""Users by email and by name + zip, flights by origin, destination and date."""


def build_base(seed: int) -> Base:
    """The airline base: the tables generated from ``seed`` and their indexes."""
    return Base(generate(seed), INDEXES)
