"""Lookups and hard-rule checks shared by the airline tools (they raise ``ToolError``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import msgspec

from tau_sim.domains.airline.data import (
    ACTIVE,
    CANCELLED,
    ONE_WAY,
    ROUND_TRIP,
    TODAY,
    Flight,
    Passenger,
    Reservation,
    Segment,
    User,
    flight_key,
    net_paid,
)
from tau_sim.domains.kit.codes import new_code
from tau_sim.domains.kit.lookup import code_key, loader
from tau_sim.domains.kit.payments import check_refund as kit_check_refund
from tau_sim.domains.kit.payments import payer_of
from tau_sim.simulator.world import Database, ToolError


class FlightChoice(msgspec.Struct, frozen=True):
    """A flight picked for a reservation: its number and date."""

    flight_number: str
    date: str


load_user = loader("users", "user", User)
load_reservation = loader("reservations", "reservation", Reservation, code_key)


def load_flight(db: Database, flight_number: str, date: str) -> Flight:
    """Flight ``flight_number`` on ``date``; ``ToolError`` when it does not fly that day."""
    number, day = flight_number.strip().upper(), date.strip()
    flight: Flight | None = db.get("flights", flight_key(number, day))
    if flight is None:
        raise ToolError(f"flight {number} does not fly on {day!r} (dates are YYYY-MM-DD)")
    return flight


def require_active(reservation: Reservation) -> None:
    """Refuse a cancelled reservation."""
    if reservation.status != ACTIVE:
        raise ToolError(f"reservation {reservation.reservation_id} is {reservation.status}")


def require_unflown(reservation: Reservation, action: str) -> None:
    """Refuse when a flight of the reservation is dated before today (it has flown)."""
    flown = [s for s in reservation.flights if dt.date.fromisoformat(s.date) < TODAY]
    if flown:
        raise ToolError(
            f"reservation {reservation.reservation_id} cannot be {action}: flight "
            f"{flown[0].flight_number} on {flown[0].date} has already departed"
        )


def require_bookable(flight: Flight) -> None:
    """Refuse a flight that has departed, departs today or was cancelled."""
    if dt.date.fromisoformat(flight.date) <= TODAY:
        raise ToolError(
            f"flight {flight.flight_number} on {flight.date} can no longer be booked "
            f"(only flights after {TODAY.isoformat()})"
        )
    if flight.status == CANCELLED:
        raise ToolError(f"flight {flight.flight_number} on {flight.date} is cancelled")


def check_passengers(passengers: Sequence[Passenger]) -> None:
    """Refuse a passenger without a name or with a date of birth that is not a past YYYY-MM-DD."""
    for n, p in enumerate(passengers):
        if not (p.first_name.strip() and p.last_name.strip()):
            raise ToolError(f"passengers[{n}]: first_name and last_name are required")
        try:
            born = dt.date.fromisoformat(p.dob.strip())
        except ValueError:
            raise ToolError(f"passengers[{n}].dob {p.dob!r} is not a date YYYY-MM-DD") from None
        if born >= TODAY:
            raise ToolError(f"passengers[{n}].dob {p.dob!r} is not in the past")


def take_seats(db: Database, flight: Flight, cabin: str, delta: int) -> Flight:
    """Store ``flight`` with ``delta`` seats more (or fewer) in ``cabin``; never below zero."""
    fare = flight.fare(cabin)
    if fare is None:
        raise ToolError(f"flight {flight.flight_number} has no {cabin} cabin")
    if fare.seats_left + delta < 0:
        raise ToolError(
            f"flight {flight.flight_number} on {flight.date} has {fare.seats_left} {cabin} "
            f"seat(s) left, {-delta} needed"
        )
    fares = tuple(
        msgspec.structs.replace(f, seats_left=f.seats_left + delta) if f.cabin == cabin else f
        for f in flight.fares
    )
    updated = msgspec.structs.replace(flight, fares=fares)
    db.put("flights", flight_key(flight.flight_number, flight.date), updated)
    return updated


def itinerary(
    db: Database, origin: str, destination: str, trip_type: str, choices: Sequence[FlightChoice]
) -> list[Flight]:
    """The chosen flights, checked to fly origin -> destination (and back for a round trip)."""
    if trip_type not in (ONE_WAY, ROUND_TRIP):
        raise ToolError(f"trip_type must be {ONE_WAY!r} or {ROUND_TRIP!r}")
    wanted = [(origin, destination)] + ([(destination, origin)] if trip_type == ROUND_TRIP else [])
    if len(choices) != len(wanted):
        raise ToolError(
            f"a {trip_type} reservation has {len(wanted)} flight(s), {len(choices)} given"
        )
    flights = [load_flight(db, c.flight_number, c.date) for c in choices]
    for flight, (o, d) in zip(flights, wanted, strict=True):
        if (flight.origin, flight.destination) != (o, d):
            raise ToolError(
                f"flight {flight.flight_number} flies {flight.origin}-{flight.destination}, "
                f"not {o}-{d}"
            )
    if len(flights) == 2 and flights[1].date < flights[0].date:
        raise ToolError("the return flight is dated before the outbound flight")
    return flights


payer = payer_of(load_user)
"""The reservation's owner and their payment method ``payment_method_id``."""


def check_refund(reservation: Reservation, amount: float) -> None:
    """Refuse a negative refund or one above what the reservation's payer has paid, net."""
    kit_check_refund(amount, net_paid(reservation), f"reservation {reservation.reservation_id}")


def new_reservation_id(db: Database, seed: str) -> str:
    """A reservation code derived from ``seed`` (deterministic), unused in ``db``."""
    return new_code(db, "reservations", seed, label="reservation")


def segment(flight: Flight, cabin: str) -> Segment:
    """A reservation segment for ``flight`` at today's ``cabin`` price."""
    fare = flight.fare(cabin)
    if fare is None:
        raise ToolError(f"flight {flight.flight_number} has no {cabin} cabin")
    return Segment(flight.flight_number, flight.date, flight.origin, flight.destination, fare.price)


def reservation_view(reservation: Reservation) -> dict[str, Any]:
    """A reservation as the agent sees it, with the net amount paid."""
    view: dict[str, Any] = msgspec.to_builtins(reservation)
    view["net_paid"] = net_paid(reservation)
    return view


def flight_view(flight: Flight) -> dict[str, Any]:
    """A flight as the agent sees it: cabins as an object of seats left and price."""
    view: dict[str, Any] = msgspec.to_builtins(flight)
    view["fares"] = {f.cabin: {"seats_left": f.seats_left, "price": f.price} for f in flight.fares}
    view.setdefault("delay_minutes", 0)
    return view
