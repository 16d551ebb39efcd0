"""How a hard-tier user names a reservation without its code, and the reads that find it.

The user describes the trip (where it goes, who travels, when it leaves) in words that hold the
record's own facts (an airport code, a date, a name), and the agent reads every reservation of
the profile to find the one meant (``TRIPS``). A description is kept only when no other
reservation of the user matches it, so the gold agent's "which one" is answered by exactly one
record.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from tau_sim.domains.airline.catalog import AIRPORTS
from tau_sim.domains.airline.data import Flight, Reservation, Segment, User
from tau_sim.domains.airline.factory.common import AirlineIntent, pick_reservation, upcoming
from tau_sim.domains.airline.factory.moves import bag_write
from tau_sim.domains.airline.scenario import UNKNOWN_IDS
from tau_sim.domains.kit.factory.search import Shelf, meant_last
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.tasks import swapped
from tau_sim.simulator.world import Action, Database, Domain, Task

MAX_READ = 6
"""Users with more reservations than this are not drawn (the agent reads every one)."""

NEXT_CABIN = {"basic_economy": "economy", "economy": "business"}
"""The cabin one step up from each cabin below business."""


class SearchIntent(AirlineIntent):
    """A hard-tier airline intent whose user does not know the reservation codes."""

    tier = "hard"
    unknown_info = [*UNKNOWN_IDS, "reservation codes"]


def _by_destination(r: Reservation) -> str:
    city = AIRPORTS.get(r.destination, r.destination)
    return f"my trip to {city} ({r.destination}) leaving {r.flights[0].date}"


def _by_companion(r: Reservation, owner: User) -> str | None:
    others = [
        p
        for p in r.passengers
        if (p.first_name, p.last_name) != (owner.name.first_name, owner.name.last_name)
    ]
    if not others:
        return None
    p = others[0]
    return f"the trip with {p.first_name} {p.last_name} to {r.destination}"


def _by_departure(r: Reservation) -> str:
    first = r.flights[0]
    leg = f"{first.origin} to {first.destination} on {first.date}"
    return f"my trip that starts with the flight from {leg}"


def _matches(kind: str, r: Reservation, other: Reservation, owner: User) -> bool:
    """Whether ``other`` fits the description of kind ``kind`` made for ``r``."""
    if kind == "destination":
        return r.destination in (other.destination, other.origin)
    if kind == "companion":
        names = {(p.first_name, p.last_name) for p in other.passengers}
        return any((p.first_name, p.last_name) in names for p in r.passengers)
    first, theirs = r.flights[0], other.flights
    return any(
        (s.origin, s.destination, s.date) == (first.origin, first.destination, first.date)
        for s in theirs
    )


def describe(db: Database, r: Reservation, rng: random.Random) -> str | None:
    """Words naming ``r`` among its owner's reservations (no code), or None when none is unique."""
    owner: User = record(db, "users", r.user_id)
    others = [o for o in TRIPS.of(db, r.user_id) if o.reservation_id != r.reservation_id]
    texts: dict[str, Callable[[], str | None]] = {
        "destination": lambda: _by_destination(r),
        "companion": lambda: _by_companion(r, owner),
        "departure": lambda: _by_departure(r),
    }
    kinds = list(texts)
    rng.shuffle(kinds)
    for kind in kinds:
        text = texts[kind]()
        if text and not any(_matches(kind, r, o, owner) for o in others):
            return text
    return None


TRIPS: Shelf[User, Reservation] = Shelf("reservations", opens=meant_last, describe=describe)
"""A user's reservations, described by destination, companion or first flight; the agent
opens every one of the profile, the one meant last."""


def searchable(db: Database, r: Reservation) -> bool:
    """Whether ``r``'s owner has several reservations, and not more than the agent reads."""
    count = len(record(db, "users", r.user_id).reservations)
    return 2 <= count <= MAX_READ


def pick_described(
    db: Database, rng: random.Random, accept: Callable[[Reservation], bool]
) -> tuple[Reservation, str | None] | None:
    """A random upcoming, ``searchable`` reservation ``accept`` takes, and its ``describe`` text."""
    r = pick_reservation(db, rng, lambda r: upcoming(r) and accept(r) and searchable(db, r))
    if r is None:
        return None
    return r, describe(db, r, rng)


def unique_flight(db: Database, r: Reservation, flight: Segment | Flight) -> bool:
    """Whether no other reservation of ``r``'s owner flies ``flight``'s route on its date."""
    leg = (flight.origin, flight.destination, flight.date)
    return not any(
        (s.origin, s.destination, s.date) == leg
        for o in TRIPS.of(db, r.user_id)
        if o.reservation_id != r.reservation_id
        for s in o.flights
    )


def old_cabin_bags(domain: Domain, task: Task) -> list[Action] | None:
    """The slip of the bags (the last write) counted in the cabin the trip had before."""
    bags = task.actions[-1]
    db = domain.new_database()
    r: Reservation = record(db, "reservations", bags.arguments["reservation_id"])
    user: User = record(db, "users", r.user_id)
    method = next(m for m in user.payment_methods if m.id == bags.arguments["payment_method_id"])
    old = bag_write(r, user, bags.arguments["total_baggages"] - r.total_baggages, method)
    if not old or old[0].arguments["nonfree_baggages"] == bags.arguments["nonfree_baggages"]:
        return None
    return swapped(task, bags, old[0])
