"""Car-rental records (frozen msgspec Structs) and the deterministic generator of the base.

The world's clock is fixed: ``TODAY`` and ``NOW`` (09:00, an hour before the day's pick-ups and
returns at 10:00). Availability is counted per branch, vehicle class and day: a booking holds one
vehicle of its class at its pick-up branch on every day from the pick-up date up to (not
including) the return date.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any, Literal, get_args

import msgspec

from tau_sim.domains.car_rental.rules import (
    ADD_ONS,
    AIRPORT_FACTOR,
    CLASSES,
    PREMIUM_CLASSES,
    YOUNG_DRIVER_AGE,
    daily_cost,
    one_way_fee,
)
from tau_sim.domains.kit.calc import age_on
from tau_sim.domains.kit.codes import drawn_code
from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP, identity_indexes
from tau_sim.domains.kit.payments import can_pay, money
from tau_sim.domains.kit.payments import net_paid as kit_net_paid
from tau_sim.domains.kit.people import Customer, Ids, customers, hand_over
from tau_sim.domains.kit.vocab import FIRST_NAMES
from tau_sim.simulator.world import Base, Index

TODAY = dt.date(2026, 6, 10)
NOW = dt.datetime(2026, 6, 10, 9, 0)
"""The world's fixed clock (never the real one)."""

FIRST_DAY = TODAY - dt.timedelta(days=12)
LAST_DAY = TODAY + dt.timedelta(days=40)
"""Availability is kept for every day from ``FIRST_DAY`` to ``LAST_DAY``."""

RESERVED = "reserved"
ACTIVE = "active"
RETURNED = "returned"
CANCELLED = "cancelled"
"""Booking statuses: not picked up yet, on the road, returned, cancelled."""


# (code, name, city, kind)
LOCATIONS: tuple[tuple[str, str, str, str], ...] = (
    ("SEA-AP", "Seattle-Tacoma International Airport", "Seattle", "airport"),
    ("SEA-DT", "Seattle Downtown, 1420 Pine Street", "Seattle", "city"),
    ("PDX-AP", "Portland International Airport", "Portland", "airport"),
    ("PDX-DT", "Portland Pearl District, 900 NW Lovejoy Street", "Portland", "city"),
    ("SFO-AP", "San Francisco International Airport", "San Francisco", "airport"),
    ("SFO-US", "San Francisco Union Square, 320 Mason Street", "San Francisco", "city"),
    ("LAX-AP", "Los Angeles International Airport", "Los Angeles", "airport"),
    ("LAX-SM", "Santa Monica, 1650 Lincoln Boulevard", "Los Angeles", "city"),
    ("DEN-AP", "Denver International Airport", "Denver", "airport"),
    ("DEN-DT", "Denver Union Station, 1701 Wynkoop Street", "Denver", "city"),
    ("PHX-AP", "Phoenix Sky Harbor Airport", "Phoenix", "airport"),
    ("PHX-TE", "Tempe, 700 South Mill Avenue", "Phoenix", "city"),
)


class ClassRate(msgspec.Struct, frozen=True):
    """The daily rate of one vehicle class at one branch."""

    vehicle_class: str
    daily_rate: float


class Location(msgspec.Struct, frozen=True):
    """A rental branch: an airport or a city office, with its daily rates."""

    code: str
    name: str
    city: str
    kind: str
    rates: tuple[ClassRate, ...]

    def rate(self, vehicle_class: str) -> float | None:
        """The daily rate of ``vehicle_class`` here, or None when the class is unknown."""
        return next((r.daily_rate for r in self.rates if r.vehicle_class == vehicle_class), None)


class Availability(msgspec.Struct, frozen=True):
    """Vehicles of one class still free at one branch on one day."""

    location: str
    vehicle_class: str
    date: str
    available: int


class Driver(msgspec.Struct, frozen=True):
    """The person who drives: name, birth date and driver's license number."""

    first_name: str
    last_name: str
    birth_date: str
    license_number: str


class Payment(msgspec.Struct, frozen=True):
    """One entry of a booking's payment history: what it was for and which method."""

    transaction_type: str  # "payment" | "refund"
    amount: float
    payment_method_id: str
    item: str


class DamageReport(msgspec.Struct, frozen=True, omit_defaults=True):
    """Damage recorded on a rental, with the photos the user sent and what the user pays."""

    report_id: str
    booking_id: str
    damage_type: str
    area: str
    photos: tuple[str, ...]
    cause: str
    estimated_cost: float
    customer_charge: float
    status: str = "open"  # "open" | "waived"


class Booking(msgspec.Struct, frozen=True, omit_defaults=True):
    """A rental: driver, class, branches, dates, add-ons, surcharge, fees, payments, status."""

    booking_id: str
    user_id: str
    driver: Driver
    vehicle_class: str
    pickup_location: str
    return_location: str
    pickup_date: str
    return_date: str
    daily_rate: float
    add_ons: tuple[str, ...]
    young_driver_surcharge: bool
    one_way_fee: float
    status: str
    payment_history: tuple[Payment, ...]
    created_at: str
    damage_reports: tuple[str, ...] = ()
    late_hours: int = 0

    @property
    def days(self) -> int:
        """Rental days: from the pick-up date to the return date."""
        end, start = (
            dt.date.fromisoformat(self.return_date),
            dt.date.fromisoformat(self.pickup_date),
        )
        return (end - start).days


class User(Customer, frozen=True, omit_defaults=True):
    """A customer with a birth date, a driver's license and booking ids."""

    birth_date: str = ""
    license_number: str = ""
    bookings: tuple[str, ...] = ()


Tables = dict[str, dict[str, Any]]


def availability_key(location: str, vehicle_class: str, date: str) -> str:
    """The key of the ``availability`` table."""
    return f"{location}|{vehicle_class}|{date}"


def net_paid(booking: Booking) -> float:
    """Payments minus refunds of a booking."""
    return kit_net_paid(booking.payment_history)


def rental_days(start: dt.date, end: dt.date) -> list[str]:
    """The days a vehicle is held: ``start`` up to, not including, ``end``."""
    return [(start + dt.timedelta(days=n)).isoformat() for n in range((end - start).days)]


def _locations() -> dict[str, Location]:
    out = {}
    for code, name, city, kind in LOCATIONS:
        factor = AIRPORT_FACTOR if kind == "airport" else 1.0
        rates = tuple(ClassRate(c, money(round(r * factor))) for c, r in CLASSES.items())
        out[code] = Location(code, name, city, kind, rates)
    return out


def _availability(rng: random.Random) -> dict[str, Availability]:
    out = {}
    days = rental_days(FIRST_DAY, LAST_DAY + dt.timedelta(days=1))
    for code, *_ in LOCATIONS:
        for vehicle_class in CLASSES:
            fleet = rng.randint(2, 4) if vehicle_class in PREMIUM_CLASSES else rng.randint(4, 9)
            for day in days:
                free = max(0, fleet - rng.randint(0, fleet // 2 + 1))
                key = availability_key(code, vehicle_class, day)
                out[key] = Availability(code, vehicle_class, day, free)
    return out


def license_number(rng: random.Random, ids: Ids) -> str:
    """A driver's license number: two letters and seven digits."""
    return "".join(rng.choices("ABCDEFGHJKLMNPRSTWXYZ", k=2)) + ids.digits(7)


def _birth_date(rng: random.Random) -> str:
    if rng.random() < 0.16:
        lo, hi = dt.date(2001, 7, 1), dt.date(2005, 5, 31)  # 21 to 24 years old today
    else:
        lo, hi = dt.date(1950, 1, 1), dt.date(2000, 12, 31)
    return (lo + dt.timedelta(days=rng.randint(0, (hi - lo).days))).isoformat()


class _Booker:
    """Draws the base's bookings and takes their vehicles from the availability."""

    def __init__(
        self,
        rng: random.Random,
        ids: Ids,
        locations: dict[str, Location],
        free: dict[str, Availability],
    ) -> None:
        self.rng, self.ids, self.locations, self.free = rng, ids, locations, free
        self.codes: set[str] = set()

    def _driver(self, user: User) -> Driver:
        rng = self.rng
        if rng.random() < 0.8:
            first, last = user.name.first_name, user.name.last_name
            return Driver(first, last, user.birth_date, user.license_number)
        return Driver(
            rng.choice(FIRST_NAMES),
            user.name.last_name,
            _birth_date(rng),
            license_number(rng, self.ids),
        )

    def _return_location(self, pickup: Location) -> str:
        r = self.rng.random()
        if r < 0.75:
            return pickup.code
        same = [c for c, _, city, _ in LOCATIONS if city == pickup.city and c != pickup.code]
        other = [c for c, _, city, _ in LOCATIONS if city != pickup.city]
        return self.rng.choice(same if r < 0.87 else other)

    def booking(self, user: User, extra: tuple[str, ...] = ()) -> tuple[Booking, list[str]] | None:
        """A booking of ``user`` with a vehicle free every day, and damage report ids to make."""
        rng = self.rng
        pickup = self.locations[rng.choice(list(self.locations))]
        start = FIRST_DAY + dt.timedelta(days=rng.randint(0, 42))
        length = rng.choices(range(1, 11), (8, 12, 14, 14, 12, 10, 10, 8, 6, 6))[0]
        end = start + dt.timedelta(days=length)
        if end > LAST_DAY:
            return None
        driver = self._driver(user)
        age = age_on(driver.birth_date, start)
        classes = [c for c in CLASSES if age >= YOUNG_DRIVER_AGE or c not in PREMIUM_CLASSES]
        vehicle_class = rng.choices(classes, [10 if i < 4 else 5 for i in range(len(classes))])[0]
        days = rental_days(start, end)
        keys = [availability_key(pickup.code, vehicle_class, d) for d in days]
        if any(self.free[k].available < 1 for k in keys):
            return None
        rate = pickup.rate(vehicle_class)
        assert rate is not None
        odds = (0.35, 0.25, 0.15, 0.1)
        add_ons = tuple(a for a, p in zip(ADD_ONS, odds, strict=True) if rng.random() < p)
        young = age < YOUNG_DRIVER_AGE
        back = self._return_location(pickup)
        fee = one_way_fee(pickup.city, pickup.code, self.locations[back].city, back)
        total = money(daily_cost(rate, add_ons, young) * length + fee)
        methods = [m for m in user.payment_methods if m.source != "gift_card" or can_pay(m, total)]
        if not methods:
            return None
        method = rng.choice(methods)
        payments = [Payment("payment", total, method.id, "rental")]
        if end < TODAY:
            status = RETURNED
        elif start < TODAY:
            status = ACTIVE
        else:
            status = RESERVED
        if status == RESERVED and rng.random() < 0.07:
            status = CANCELLED
            payments.append(Payment("refund", total, method.id, "cancellation"))
        if status != CANCELLED:
            for k in keys:
                held = self.free[k]
                self.free[k] = msgspec.structs.replace(held, available=held.available - 1)
        created = min(
            NOW - dt.timedelta(hours=rng.randint(2, 40)),
            dt.datetime.combine(start, dt.time(10)) - dt.timedelta(days=rng.randint(1, 30)),
        )
        late = rng.choice((1, 2, 3, 5, 7)) if status == RETURNED and rng.random() < 0.1 else 0
        booking = Booking(
            drawn_code(self.rng, self.codes, "CR"),
            user.user_id,
            driver,
            vehicle_class,
            pickup.code,
            back,
            start.isoformat(),
            end.isoformat(),
            rate,
            add_ons,
            young,
            fee,
            status,
            tuple(payments),
            created.isoformat(timespec="minutes"),
            late_hours=late,
        )
        reports = []
        if status == RETURNED and rng.random() < 0.25:
            reports.append(f"DR{self.ids.digits(6)}")
        return booking, reports


DamageType = Literal[
    "scratch",
    "dent",
    "chipped_windshield",
    "cracked_windshield",
    "broken_mirror",
    "flat_tire",
    "interior_stain",
    "bumper_damage",
]
Area = Literal["front", "rear", "left_side", "right_side", "roof", "interior", "windshield"]
Cause = Literal["collision", "parking_lot", "road_hazard", "spill", "unknown"]
"""What a damage report may say (the report tool's argument types)."""
DAMAGE_TYPES: tuple[str, ...] = get_args(DamageType)
AREAS: tuple[str, ...] = get_args(Area)


def _report(rng: random.Random, report_id: str, booking: Booking) -> DamageReport:
    cost = money(rng.randrange(120, 900, 10))
    covered = "collision_damage_waiver" in booking.add_ons
    photos = tuple(f"IMG_{rng.randint(1000, 9999)}.jpg" for _ in range(rng.randint(1, 3)))
    return DamageReport(
        report_id,
        booking.booking_id,
        rng.choice(DAMAGE_TYPES),
        rng.choice(AREAS),
        photos,
        "unknown",  # found at the return inspection
        cost,
        0.0 if covered else cost,
    )


def generate(seed: int, users: int = 300, bookings: int = 720) -> Tables:
    """Generate branches, availability, users, bookings and damage reports from ``seed``."""
    rng = random.Random(seed)
    ids = Ids(rng)
    locations = _locations()
    free = _availability(rng)
    people = customers(rng, ids, users, User)
    for uid, person in people.items():
        people[uid] = msgspec.structs.replace(
            person, birth_date=_birth_date(rng), license_number=license_number(rng, ids)
        )
    booker = _Booker(rng, ids, locations, free)
    user_ids = list(people)
    table: dict[str, Booking] = {}
    reports: dict[str, DamageReport] = {}
    owned: dict[str, list[str]] = {uid: [] for uid in people}
    while len(table) < bookings:
        user = people[rng.choice(user_ids)]
        drawn = booker.booking(user)
        if drawn is None:
            continue
        booking, report_ids = drawn
        for rid in report_ids:
            reports[rid] = _report(rng, rid, booking)
        booking = msgspec.structs.replace(booking, damage_reports=tuple(report_ids))
        table[booking.booking_id] = booking
        owned[user.user_id].append(booking.booking_id)
    hand_over(people, owned, "bookings")
    return {
        "locations": dict(locations),
        "availability": dict(free),
        "users": dict(people),
        "bookings": dict(table),
        "damage_reports": dict(reports),
    }


INDEXES: dict[str, Index] = identity_indexes([EMAIL, NAME_ZIP])
"""Users by email and by name + zip."""


def build_base(seed: int) -> Base:
    """The car-rental base: the tables generated from ``seed`` and their indexes."""
    return Base(generate(seed), INDEXES)
