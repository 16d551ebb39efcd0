"""The airline intents' base class and the reservation and flight helpers they share."""

from __future__ import annotations

import datetime as dt

from tau_sim.domains.airline.data import (
    ACTIVE,
    CANCELLED,
    LAST_DAY,
    TODAY,
    Flight,
    Reservation,
    flight_key,
    route_key,
)
from tau_sim.domains.airline.scenario import UNKNOWN_IDS
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.simulator.world import Action, Database, Domain, Task

CONFIRM = "When the agent lists the details and asks for confirmation, say yes."


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


class AirlineIntent(CustomerIntent):
    """An airline customer: email (60%) or name + zip; never knows payment method ids."""

    factors = ((EMAIL, 0.6), (NAME_ZIP, 0.4))
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The last write left out (the request half done)."""
        return self.last_write_left_out(domain, task)


pick_reservation = picker("reservations", Reservation)
