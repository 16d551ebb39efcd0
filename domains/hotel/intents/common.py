"""The hotel intents' base class and the reservation and availability helpers they share."""

from __future__ import annotations

from tau_sim.domains.hotel.data import CONFIRMED, TODAY, Night, Reservation, night_key
from tau_sim.domains.hotel.rules import NON_REFUNDABLE
from tau_sim.domains.hotel.scenario import UNKNOWN_IDS
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import picker
from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.simulator.world import Action, Database, Domain, Task


def upcoming(reservation: Reservation) -> bool:
    """Whether the reservation is confirmed and its stay starts after today."""
    return reservation.status == CONFIRMED and iso_day(reservation.check_in) > TODAY


def open_nights(
    db: Database, property_id: str, room_type: str, dates: list[str]
) -> list[Night] | None:
    """The nights of ``dates`` when each has a room left, else None."""
    nights: list[Night] = []
    for d in dates:
        night: Night | None = db.get("nights", night_key(property_id, room_type, d))
        if night is None or night.rooms_left < 1:
            return None
        nights.append(night)
    return nights


def search(property_id: str, room_type: str, check_in: str, check_out: str) -> Action:
    """The availability search of a stay."""
    return Action(
        "search_availability",
        {
            "property_id": property_id,
            "room_type": room_type,
            "check_in": check_in,
            "check_out": check_out,
        },
    )


class HotelIntent(CustomerIntent):
    """A hotel guest: email (60%) or name + zip; never knows payment method or property ids."""

    factors = ((EMAIL, 0.6), (NAME_ZIP, 0.4))
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The last write left out (the request half done)."""
        return self.last_write_left_out(domain, task)


pick_reservation = picker("reservations", Reservation)


def movable(r: Reservation) -> bool:
    """An upcoming reservation on a plan that can change dates, no night paid with points."""
    return upcoming(r) and r.rate_plan != NON_REFUNDABLE and not any(n.points for n in r.nights)
