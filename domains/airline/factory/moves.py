"""The writes the hard-tier intents combine: a flight move, a cabin change, bags, a correction.

Each builder returns the gold write with the figure the user is told and the ``calculate``
expression the agent checks it with, computed as the tools compute it.
"""

from __future__ import annotations

import datetime as dt
import random

import msgspec

from tau_sim.domains.airline.data import CANCELLED, Flight, Passenger, Reservation, User
from tau_sim.domains.airline.factory.common import (
    bag_update,
    bookable,
    flight_move,
    flights_of,
    price_of,
)
from tau_sim.domains.airline.rules import MAX_BAGS_PER_PASSENGER
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.payments import PaymentMethod, money
from tau_sim.simulator.world import Action, Database


def outbound_options(db: Database, r: Reservation, rng: random.Random) -> list[Flight]:
    """Bookable flights of ``r``'s outbound route one to three days from its outbound flight."""
    first = r.flights[0]
    day = iso_day(first.date) + dt.timedelta(days=rng.choice((-3, -2, -1, 1, 2, 3)))
    if len(r.flights) > 1 and day >= iso_day(r.flights[1].date):
        return []
    return [
        f
        for f in bookable(db, first.origin, first.destination, day, r.cabin, len(r.passengers))
        if (f.flight_number, f.date) != (first.flight_number, first.date)
    ]


class Move:
    """The outbound flight of ``r`` moved to ``new``: the write, the difference, its expression."""

    def __init__(self, r: Reservation, new: Flight, method: PaymentMethod) -> None:
        count = len(r.passengers)
        old = r.flights[0].price
        price = price_of(new, r.cabin)
        self.new = new
        self.difference = money((price - old) * count)
        self.expression = f"({price:.2f} - {old:.2f}) * {count}"
        self.write, self.search = flight_move(r, new, method)
        self.calculate = Action("calculate", {"expression": self.expression})

    def moved(self, r: Reservation) -> Reservation:
        """``r`` as it stands after the move (its outbound segment at today's price)."""
        seg = r.flights[0]
        new_seg = msgspec.structs.replace(
            seg,
            flight_number=self.new.flight_number,
            date=self.new.date,
            price=price_of(self.new, r.cabin),
        )
        return msgspec.structs.replace(r, flights=(new_seg, *r.flights[1:]))


def cabin_change(
    db: Database, r: Reservation, cabin: str, method: PaymentMethod
) -> tuple[Action, Action, float] | None:
    """(calculate, write, difference) moving every flight of ``r`` to ``cabin``, or None.

    None when a flight lacks seats in ``cabin`` for every passenger or was cancelled.
    """
    flights = flights_of(db, r)
    count = len(r.passengers)
    for f in flights:
        fare = f.fare(cabin)
        if f.status == CANCELLED or fare is None or fare.seats_left < count:
            return None
    new = [price_of(f, cabin) for f in flights]
    old = [s.price for s in r.flights]
    difference = money((sum(new) - sum(old)) * count)
    new_sum = " + ".join(f"{p:.2f}" for p in new)
    old_sum = " + ".join(f"{p:.2f}" for p in old)
    calc = Action("calculate", {"expression": f"(({new_sum}) - ({old_sum})) * {count}"})
    write = Action(
        "change_reservation_cabin",
        {"reservation_id": r.reservation_id, "cabin": cabin, "payment_method_id": method.id},
    )
    return calc, write, difference


def bag_write(
    r: Reservation, user: User, added: int, method: PaymentMethod, cabin: str | None = None
) -> tuple[Action, float] | None:
    """(write, fee) adding ``added`` bags to ``r`` (its cabin, or ``cabin`` after a change)."""
    total = r.total_baggages + added
    count = len(r.passengers)
    if total > MAX_BAGS_PER_PASSENGER * count:
        return None
    return bag_update(r, user, added, method, cabin or r.cabin)


def corrected(r: Reservation, rng: random.Random) -> tuple[Action, Passenger, Passenger] | None:
    """(write, wrong, fixed): one passenger's date of birth corrected, or None."""
    index = rng.randrange(len(r.passengers))
    wrong = r.passengers[index]
    dob = dt.date(rng.randint(1955, 2008), rng.randint(1, 12), rng.randint(1, 28)).isoformat()
    if dob == wrong.dob:
        return None
    fixed = msgspec.structs.replace(wrong, dob=dob)
    passengers = [fixed if i == index else p for i, p in enumerate(r.passengers)]
    write = Action(
        "update_reservation_passengers",
        {
            "reservation_id": r.reservation_id,
            "passengers": [msgspec.to_builtins(p) for p in passengers],
        },
    )
    return write, wrong, fixed
