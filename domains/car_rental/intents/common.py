"""The car-rental intents' base class and the booking helpers they share."""

from __future__ import annotations

from tau_sim.domains.car_rental.data import Availability, Booking, Location, availability_key
from tau_sim.domains.car_rental.rules import ADD_ONS, YOUNG_DRIVER_SURCHARGE
from tau_sim.domains.car_rental.scenario import UNKNOWN_IDS
from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import picker
from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.simulator.world import Action, Database, Domain, Task


def free_every_day(db: Database, location: str, vehicle_class: str, days: list[str]) -> bool:
    """Whether a vehicle of the class is free at the branch on every one of ``days``."""
    for day in days:
        free: Availability | None = db.get(
            "availability", availability_key(location, vehicle_class, day)
        )
        if free is None or free.available < 1:
            return False
    return True


def location_text(location: Location) -> str:
    """A branch as a user names it: its code and name."""
    return f"{location.code} ({location.name})"


pick_booking = picker("bookings", Booking)


def booking_id_of(task: Task) -> str:
    """The booking a task is about (its known ``booking_id``)."""
    return task.scenario.known_info["booking_id"]


class RentalIntent(CustomerIntent):
    """A car-rental customer: email (60%) or name + zip; never knows payment method ids."""

    factors = ((EMAIL, 0.6), (NAME_ZIP, 0.4))
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The last write left out (the request half done)."""
        return self.last_write_left_out(domain, task)


def cost_expression(
    rate: float, add_ons: list[str] | tuple[str, ...], young: bool, days: int
) -> str:
    """The ``calculate`` expression of a rental's cost: rate, add-ons and surcharge times days."""
    parts = [f"{rate:.2f}", *(f"{ADD_ONS[a]:.2f}" for a in add_ons)]
    if young:
        parts.append(f"{YOUNG_DRIVER_SURCHARGE:.2f}")
    inner = " + ".join(parts)
    return f"({inner}) * {days}" if len(parts) > 1 else f"{inner} * {days}"
