"""Lookups and hard-rule checks shared by the car-rental tools (they raise ``ToolError``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import msgspec

from tau_sim.domains.car_rental.data import (
    FIRST_DAY,
    LAST_DAY,
    TODAY,
    Availability,
    Booking,
    DamageReport,
    Driver,
    Location,
    Payment,
    User,
    availability_key,
    net_paid,
    rental_days,
)
from tau_sim.domains.car_rental.rules import MAX_RENTAL_DAYS, one_way_fee
from tau_sim.domains.kit.lookup import code_key, loader
from tau_sim.domains.kit.payments import PaymentMethod, payer_of
from tau_sim.domains.kit.payments import charge as kit_charge
from tau_sim.domains.kit.payments import check_refund as kit_check_refund
from tau_sim.domains.kit.payments import pay_back as kit_pay_back
from tau_sim.simulator.world import Database, ToolError

load_user = loader("users", "user", User)
load_booking = loader("bookings", "booking", Booking, code_key)
load_location = loader("locations", "location", Location, code_key)


def parse_date(value: str, field: str) -> dt.date:
    """A ``YYYY-MM-DD`` date argument; ``ToolError`` naming ``field`` when it is not one."""
    try:
        return dt.date.fromisoformat(value.strip())
    except ValueError:
        raise ToolError(f"{field} {value!r} is not a date YYYY-MM-DD") from None


def check_period(start: dt.date, end: dt.date) -> None:
    """Refuse a return not after the pick-up, a rental too long or outside the bookable days."""
    if end <= start:
        raise ToolError(
            f"return_date {end.isoformat()} must be after pickup_date {start.isoformat()}"
        )
    if (end - start).days > MAX_RENTAL_DAYS:
        raise ToolError(f"a rental lasts at most {MAX_RENTAL_DAYS} days")
    if start < FIRST_DAY or end > LAST_DAY:
        raise ToolError(f"bookings are open from {FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()}")


def class_rate(location: Location, vehicle_class: str) -> float:
    """The daily rate of ``vehicle_class`` at ``location``; ``ToolError`` for an unknown class."""
    rate = location.rate(vehicle_class)
    if rate is None:
        raise ToolError(f"unknown vehicle class {vehicle_class!r}")
    return rate


def check_driver(driver: Driver) -> None:
    """Refuse a driver without a name or license, or with a birth date not a past date."""
    if not (driver.first_name.strip() and driver.last_name.strip()):
        raise ToolError("driver first_name and last_name are required")
    if not driver.license_number.strip():
        raise ToolError("driver license_number is required")
    born = parse_date(driver.birth_date, "driver birth_date")
    if born >= TODAY:
        raise ToolError(f"driver birth_date {driver.birth_date!r} is not in the past")


def require_status(booking: Booking, *allowed: str, action: str) -> None:
    """Refuse a booking whose status is not one of ``allowed``."""
    if booking.status not in allowed:
        raise ToolError(f"booking {booking.booking_id} is {booking.status}: it cannot be {action}")


def take_vehicles(
    db: Database, location: str, vehicle_class: str, days: list[str], delta: int
) -> None:
    """Change the free vehicles of a class at a branch on ``days`` by ``delta``; never below 0."""
    records: list[tuple[str, Availability]] = []
    for day in days:
        key = availability_key(location, vehicle_class, day)
        free: Availability | None = db.get("availability", key)
        if free is None:
            raise ToolError(f"no availability is kept for {day} at {location}")
        if free.available + delta < 0:
            raise ToolError(f"no {vehicle_class} vehicle is available at {location} on {day}")
        records.append((key, free))
    for key, free in records:
        db.put("availability", key, msgspec.structs.replace(free, available=free.available + delta))


def booking_days(booking: Booking) -> list[str]:
    """The days a booking holds its vehicle."""
    return rental_days(
        dt.date.fromisoformat(booking.pickup_date), dt.date.fromisoformat(booking.return_date)
    )


def fee_between(db: Database, pickup: str, returned: str) -> float:
    """The one-way fee between two branches."""
    a, b = load_location(db, pickup), load_location(db, returned)
    return one_way_fee(a.city, a.code, b.city, b.code)


def charge(
    db: Database, user: User, method: PaymentMethod, amount: float, item: str
) -> tuple[User, Payment | None]:
    """The kit's ``charge`` of ``amount`` for ``item`` (gift cards change balance at once)."""
    user, entry = kit_charge(db, user, method, amount)
    if entry is None:
        return user, None
    return user, Payment(entry.transaction_type, entry.amount, entry.payment_method_id, item)


payer = payer_of(load_user)
"""The booking's owner and their payment method ``payment_method_id``."""


def with_payment(booking: Booking, payment: Payment | None, **changes: Any) -> Booking:
    """The booking with ``changes`` and ``payment`` appended to its history."""
    history = booking.payment_history + ((payment,) if payment is not None else ())
    return msgspec.structs.replace(booking, payment_history=history, **changes)


def pay_back(db: Database, booking: Booking, amount: float) -> tuple[Payment, ...]:
    """Refund ``amount`` of a cancellation to the methods that paid (gift cards at once)."""
    back = kit_pay_back(db, load_user(db, booking.user_id), booking.payment_history, amount)
    return tuple(
        Payment(p.transaction_type, p.amount, p.payment_method_id, "cancellation") for p in back
    )


def check_refund(booking: Booking, amount: float) -> None:
    """Refuse a negative refund or one above what the booking's payer has paid, net."""
    kit_check_refund(amount, net_paid(booking), f"booking {booking.booking_id}")


def booking_view(db: Database, booking: Booking) -> dict[str, Any]:
    """A booking as the agent sees it: rental days, net paid and its damage reports."""
    view: dict[str, Any] = msgspec.to_builtins(booking)
    view["rental_days"] = booking.days
    view["net_paid"] = net_paid(booking)
    view.setdefault("late_hours", 0)
    reports: list[DamageReport] = [
        r for rid in booking.damage_reports if (r := db.get("damage_reports", rid)) is not None
    ]
    view["damage_reports"] = msgspec.to_builtins(reports)
    return view
