"""Lookups and hard-rule checks shared by the hotel tools (they raise ``ToolError``)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import msgspec

from tau_sim.domains.hotel.catalog import Property
from tau_sim.domains.hotel.data import (
    CONFIRMED,
    LAST_NIGHT,
    TODAY,
    Guest,
    Night,
    Reservation,
    net_paid,
    night_key,
    stay_dates,
)
from tau_sim.domains.hotel.rules import MAX_NIGHTS, RATE_PLANS
from tau_sim.domains.kit.codes import new_code
from tau_sim.domains.kit.lookup import code_key, loader
from tau_sim.domains.kit.payments import (
    Payment,
    payer_of,
)
from tau_sim.domains.kit.payments import check_refund as kit_check_refund
from tau_sim.domains.kit.payments import pay_back as kit_pay_back
from tau_sim.simulator.world import Database, ToolError

load_user = loader("users", "user", Guest)
load_property = loader("properties", "property", Property, code_key)
load_reservation = loader("reservations", "reservation", Reservation, code_key)


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


payer = payer_of(load_user)
"""The reservation's owner and their payment method ``payment_method_id``."""


def check_refund(reservation: Reservation, amount: float) -> None:
    """Refuse a negative refund or one above what the reservation has been paid, net."""
    kit_check_refund(amount, net_paid(reservation), f"reservation {reservation.reservation_id}")


def pay_back(db: Database, reservation: Reservation, amount: float) -> tuple[Payment, ...]:
    """Refund ``amount`` to the methods that paid (gift cards credited at once)."""
    user = load_user(db, reservation.user_id)
    return tuple(kit_pay_back(db, user, reservation.payment_history, amount))


def new_reservation_id(db: Database, seed: str) -> str:
    """A reservation code derived from ``seed`` (deterministic), unused in ``db``."""
    return new_code(db, "reservations", seed, label="reservation")


def reservation_view(reservation: Reservation) -> dict[str, Any]:
    """A reservation as the agent sees it, with the net amount paid and the number of nights."""
    view: dict[str, Any] = msgspec.to_builtins(reservation)
    view["net_paid"] = net_paid(reservation)
    view["night_count"] = len(reservation.nights)
    return view
