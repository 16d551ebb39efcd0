"""Lookups and hard-rule checks shared by the hotel tools (they raise ``ToolError``)."""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

import msgspec

from domains.hotel.data import (
    CODE_ALPHABET,
    CONFIRMED,
    LAST_NIGHT,
    TODAY,
    Guest,
    Night,
    Payment,
    Reservation,
    net_paid,
    night_key,
    stay_dates,
)
from domains.hotel.properties import Property
from domains.hotel.rules import MAX_NIGHTS, RATE_PLANS
from domains.kit.lookup import load
from domains.kit.payments import PaymentMethod, check_funds, money, owned_method, with_balance
from simulator.database import Database
from simulator.tools import ToolError


def load_user(db: Database, user_id: str) -> Guest:
    """The guest ``user_id``; ``ToolError`` when there is none."""
    user: Guest = load(db, "users", user_id.strip(), "user")
    return user


def load_property(db: Database, property_id: str) -> Property:
    """The property ``property_id`` (case-insensitive); ``ToolError`` when unknown."""
    prop: Property = load(db, "properties", property_id.strip().upper(), "property")
    return prop


def load_reservation(db: Database, reservation_id: str) -> Reservation:
    """The reservation ``reservation_id`` (case-insensitive); ``ToolError`` when unknown."""
    reservation: Reservation = load(
        db, "reservations", reservation_id.strip().upper(), "reservation"
    )
    return reservation


def require_room(prop: Property, room_type: str) -> None:
    """Refuse a room type the property does not sell."""
    if prop.room(room_type) is None:
        raise ToolError(f"property {prop.property_id} has no room type {room_type!r}")


def require_plan(rate_plan: str) -> None:
    """Refuse an unknown rate plan."""
    if rate_plan not in RATE_PLANS:
        raise ToolError(f"rate_plan must be one of {', '.join(RATE_PLANS)}")


def stay(check_in: str, check_out: str) -> list[str]:
    """The nights from ``check_in`` to ``check_out``, checked to be a sellable stay."""
    try:
        start, end = (
            dt.date.fromisoformat(check_in.strip()),
            dt.date.fromisoformat(check_out.strip()),
        )
    except ValueError:
        raise ToolError(f"dates must be YYYY-MM-DD, got {check_in!r} and {check_out!r}") from None
    if end <= start:
        raise ToolError("check_out must be after check_in")
    if (end - start).days > MAX_NIGHTS:
        raise ToolError(f"a reservation holds at most {MAX_NIGHTS} nights")
    if start < TODAY:
        raise ToolError(f"check_in {start.isoformat()} is before today ({TODAY.isoformat()})")
    if end > LAST_NIGHT + dt.timedelta(days=1):
        raise ToolError(f"nights are sold up to {LAST_NIGHT.isoformat()} only")
    return stay_dates(start.isoformat(), end.isoformat())


def check_out_of(dates: list[str]) -> str:
    """The check-out date of a stay of ``dates``: the day after its last night."""
    return (dt.date.fromisoformat(dates[-1]) + dt.timedelta(days=1)).isoformat()


def load_night(db: Database, property_id: str, room_type: str, date: str) -> Night:
    """One night of a room type; ``ToolError`` when it is not sold."""
    night: Night | None = db.get("nights", night_key(property_id, room_type, date))
    if night is None:
        raise ToolError(f"{room_type} at {property_id} is not sold on {date}")
    return night


def take_room(db: Database, night: Night, delta: int) -> None:
    """Store ``night`` with ``delta`` rooms more (or fewer); never below zero."""
    if night.rooms_left + delta < 0:
        raise ToolError(
            f"no {night.room_type} room left at {night.property_id} on the night of {night.date}"
        )
    updated = msgspec.structs.replace(night, rooms_left=night.rooms_left + delta)
    db.put("nights", night_key(night.property_id, night.room_type, night.date), updated)


def require_rooms(db: Database, property_id: str, room_type: str, dates: list[str]) -> list[Night]:
    """The nights of ``dates``, each checked to have a room left."""
    nights = [load_night(db, property_id, room_type, d) for d in dates]
    full = next((n for n in nights if n.rooms_left < 1), None)
    if full is not None:
        raise ToolError(f"no {room_type} room left at {property_id} on the night of {full.date}")
    return nights


def require_confirmed(reservation: Reservation, action: str) -> None:
    """Refuse a reservation that is not confirmed (cancelled, checked in or out)."""
    if reservation.status != CONFIRMED:
        raise ToolError(
            f"reservation {reservation.reservation_id} is {reservation.status}: it cannot be "
            f"{action}"
        )


def require_no_points(reservation: Reservation, action: str) -> None:
    """Refuse when a night of the reservation was paid with points."""
    if any(n.points for n in reservation.nights):
        raise ToolError(
            f"reservation {reservation.reservation_id} has a night paid with points: it cannot "
            f"be {action}"
        )


def charge(
    db: Database, user: Guest, method: PaymentMethod, amount: float
) -> tuple[Guest, Payment | None]:
    """Charge (amount > 0) or refund (amount < 0) ``method``; gift cards change balance at once."""
    amount = money(amount)
    if amount == 0:
        return user, None
    if amount > 0:
        check_funds(method, amount)
    if method.source == "gift_card":
        user = with_balance(user, method.id, -amount)
        db.put("users", user.user_id, user)
    kind = "payment" if amount > 0 else "refund"
    return user, Payment(kind, abs(amount), method.id)


def payer(
    db: Database, reservation: Reservation, payment_method_id: str
) -> tuple[Guest, PaymentMethod]:
    """The reservation's owner and their payment method ``payment_method_id``."""
    user = load_user(db, reservation.user_id)
    return user, owned_method(user, payment_method_id)


def check_refund(reservation: Reservation, amount: float) -> None:
    """Refuse a negative refund or one above what the reservation has been paid, net."""
    paid = net_paid(reservation)
    if amount < 0:
        raise ToolError("refund_amount must not be negative")
    if money(amount) > paid:
        raise ToolError(
            f"refund_amount ${amount:.2f} is above the ${paid:.2f} paid for reservation "
            f"{reservation.reservation_id}"
        )


def refunds(reservation: Reservation, amount: float) -> list[Payment]:
    """``amount`` refunded to the methods that paid, in payment order, each up to its net share."""
    paid: dict[str, float] = {}
    for p in reservation.payment_history:
        sign = 1 if p.transaction_type == "payment" else -1
        paid[p.payment_method_id] = money(paid.get(p.payment_method_id, 0.0) + sign * p.amount)
    out: list[Payment] = []
    left = money(amount)
    for method_id, share in paid.items():
        part = money(min(left, share))
        if part > 0:
            out.append(Payment("refund", part, method_id))
            left = money(left - part)
    return out


def pay_back(db: Database, reservation: Reservation, amount: float) -> tuple[Payment, ...]:
    """Refund ``amount`` to the methods that paid (gift cards credited at once)."""
    user = load_user(db, reservation.user_id)
    back = refunds(reservation, amount)
    for entry in back:
        method = user.payment_method(entry.payment_method_id)
        if method is not None and method.source == "gift_card":
            user = with_balance(user, method.id, entry.amount)
    db.put("users", user.user_id, user)
    return tuple(back)


def new_reservation_id(db: Database, seed: str) -> str:
    """A reservation code derived from ``seed`` (deterministic), unused in ``db``."""
    for n in range(100):
        digest = hashlib.sha256(f"{seed}|{n}".encode()).digest()
        code = "".join(CODE_ALPHABET[b % len(CODE_ALPHABET)] for b in digest[:6])
        if db.get("reservations", code) is None:
            return code
    raise ToolError("could not allocate a reservation code")


def reservation_view(reservation: Reservation) -> dict[str, Any]:
    """A reservation as the agent sees it, with the net amount paid and the number of nights."""
    view: dict[str, Any] = msgspec.to_builtins(reservation)
    view["net_paid"] = net_paid(reservation)
    view["night_count"] = len(reservation.nights)
    return view
