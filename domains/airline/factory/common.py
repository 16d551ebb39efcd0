"""The airline intents' base class and the reservation and flight helpers they share."""

from __future__ import annotations

import datetime as dt
import random

from tau_sim.domains.airline.data import (
    ACTIVE,
    CANCELLED,
    LAST_DAY,
    NOW,
    TODAY,
    Flight,
    Reservation,
    User,
    flight_key,
    net_paid,
    route_key,
)
from tau_sim.domains.airline.rules import BAG_FEE, FREE_CANCELLATION_HOURS, nonfree_bags
from tau_sim.domains.airline.scenario import UNKNOWN_IDS
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.payments import PaymentMethod, money
from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.simulator.world import Action, Database, Domain, Task


def upcoming(reservation: Reservation) -> bool:
    """Whether the reservation is active and every flight is after today."""
    return reservation.status == ACTIVE and all(
        iso_day(s.date) > TODAY for s in reservation.flights
    )


def flights_of(db: Database, reservation: Reservation) -> list[Flight]:
    """The flights of a reservation as the flights table holds them."""
    return [record(db, "flights", flight_key(s.flight_number, s.date)) for s in reservation.flights]


def bookable(
    db: Database, origin: str, destination: str, date: dt.date, cabin: str, seats: int
) -> list[Flight]:
    """Scheduled flights of a route on ``date`` with ``seats`` seats left in ``cabin``."""
    if not TODAY < date <= LAST_DAY:
        return []
    out = []
    for key in db.find("routes", route_key(origin, destination, date.isoformat())):
        flight: Flight = record(db, "flights", key)
        fare = flight.fare(cabin)
        if flight.status != CANCELLED and fare is not None and fare.seats_left >= seats:
            out.append(flight)
    return sorted(out, key=lambda f: f.departure)


def price_of(flight: Flight, cabin: str) -> float:
    """The current price per passenger of ``cabin`` on ``flight``."""
    fare = flight.fare(cabin)
    assert fare is not None
    return fare.price


def booked_hours_ago(reservation: Reservation) -> float:
    """Hours between the booking and the world's ``NOW``."""
    return (NOW - dt.datetime.fromisoformat(reservation.created_at)).total_seconds() / 3600


def airline_cancelled(db: Database, reservation: Reservation) -> Flight | None:
    """The first flight of the reservation the airline cancelled, or None."""
    return next((f for f in flights_of(db, reservation) if f.status == CANCELLED), None)


def refund_reason(db: Database, r: Reservation) -> str | None:
    """Why the policy refunds a cancelled reservation in full, or None."""
    if booked_hours_ago(r) < FREE_CANCELLATION_HOURS:
        return "booked within the last 24 hours"
    if airline_cancelled(db, r) is not None:
        return "a flight was cancelled by the airline"
    if r.cabin == "business":
        return "business cabin"
    if r.insurance:
        return "travel insurance"
    return None


class AirlineIntent(CustomerIntent):
    """An airline customer: email (60%) or name + zip; never knows payment method ids."""

    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The last write left out (the request half done)."""
        return self.last_write_left_out(domain, task)


pick_reservation = picker("reservations", Reservation)


GREETINGS = ("Hi,", "Hello,", "Hey,", "Good afternoon,", "Hi there,", "")
"""How a user may start the first message (nothing at all, too)."""


def opening(rng: random.Random, *wordings: str) -> str:
    """One of ``wordings`` after a greeting, both drawn by ``rng``: the user's first message."""
    greeting, text = rng.choice(GREETINGS), rng.choice(wordings)
    if not greeting:
        return text
    word = text.split(" ", 1)[0]
    if word not in ("I", "I'm", "I'd", "I've", "I'll") and not word.isupper():
        text = text[0].lower() + text[1:]
    return f"{greeting} {text}"


def statuses(reservation: Reservation, first: Flight | None = None) -> list[Action]:
    """A ``get_flight_status`` read of every flight of ``reservation`` (has any departed?).

    ``first``, the flight the user named, is read first.
    """
    named = [] if first is None else [(first.flight_number, first.date)]
    legs = named + [
        (s.flight_number, s.date)
        for s in reservation.flights
        if (s.flight_number, s.date) not in named
    ]
    return [Action("get_flight_status", {"flight_number": n, "date": d}) for n, d in legs]


def fee_check(fee: float) -> list[Action]:
    """The ``calculate`` of a bag fee (none when the bags are free)."""
    if not fee:
        return []
    return [Action("calculate", {"expression": f"{BAG_FEE:.2f} * {round(fee / BAG_FEE)}"})]


def flight_move(r: Reservation, new: Flight, method: PaymentMethod) -> tuple[Action, Action]:
    """(write, search) of moving the outbound flight of ``r`` to ``new``, paid with ``method``.

    The write keeps the later segments; the search is the direct-flight search that finds ``new``.
    """
    flights = [{"flight_number": new.flight_number, "date": new.date}]
    flights += [{"flight_number": s.flight_number, "date": s.date} for s in r.flights[1:]]
    write = Action(
        "change_reservation_flights",
        {
            "reservation_id": r.reservation_id,
            "flights": flights,
            "payment_method_id": method.id,
        },
    )
    search = Action(
        "search_direct_flights",
        {"origin": new.origin, "destination": new.destination, "date": new.date},
    )
    return write, search


def bag_update(
    r: Reservation, user: User, added: int, method: PaymentMethod, cabin: str
) -> tuple[Action, float]:
    """(write, fee) adding ``added`` bags to ``r`` flown in ``cabin`` (no bag limit checked)."""
    total = r.total_baggages + added
    nonfree = max(
        r.nonfree_baggages, nonfree_bags(user.membership, cabin, len(r.passengers), total)
    )
    fee = money(BAG_FEE * (nonfree - r.nonfree_baggages))
    write = Action(
        "update_reservation_baggages",
        {
            "reservation_id": r.reservation_id,
            "total_baggages": total,
            "nonfree_baggages": nonfree,
            "payment_method_id": method.id,
        },
    )
    return write, fee


def full_refund_cancel(r: Reservation) -> Action:
    """The cancellation of reservation ``r`` refunding all it paid."""
    return Action(
        "cancel_reservation", {"reservation_id": r.reservation_id, "refund_amount": net_paid(r)}
    )
