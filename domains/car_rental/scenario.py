"""How car-rental tasks talk: branches, dates, drivers and bookings in words; slot hints."""

from __future__ import annotations

import datetime as dt

from tau_sim.domains.car_rental.data import RETURNED, Booking, Driver
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.tasks import HINTS as KIT_HINTS
from tau_sim.simulator.world import Action, SlotHint

UNKNOWN_IDS = ["payment method ids", "user id"]

ADD_ON_TEXT = {
    "collision_damage_waiver": "the collision damage waiver",
    "liability_protection": "liability protection",
    "gps": "a GPS",
    "child_seat": "a child seat",
}


def day_text(date: str) -> str:
    """A date as a user says it, e.g. "Friday 2026-06-12"."""
    return f"{dt.date.fromisoformat(date).strftime('%A')} {date}"


def add_ons_text(add_ons: tuple[str, ...] | list[str]) -> str:
    """The add-ons of a booking in words."""
    if not add_ons:
        return "no add-ons"
    return " and ".join(ADD_ON_TEXT[a] for a in add_ons)


def driver_text(driver: Driver) -> str:
    """A driver as a user describes them."""
    return (
        f"{driver.first_name} {driver.last_name}, born {driver.birth_date}, "
        f"license {driver.license_number}"
    )


def rental_text(booking: Booking) -> str:
    """A booking as a user describes it: class, pick-up branch and date, return date."""
    back = "returned on" if booking.status == RETURNED else "due back on"
    return (
        f"my {booking.vehicle_class} rental picked up at {booking.pickup_location} on "
        f"{booking.pickup_date}, {back} {booking.return_date}"
    )


def _booking(*extra: str) -> SlotHint:
    return SlotHint(
        (
            "booking id",
            "booking number",
            "booking code",
            "confirmation code",
            "confirmation number",
            "reservation number",
            "reservation code",
            "which booking",
            "which rental",
            "the code",
            "that code",
            *extra,
        ),
        "your booking code",
        True,
    )


HINTS: dict[str, SlotHint] = {
    **KIT_HINTS,
    "booking_id": _booking(),
    "pickup_location": SlotHint(
        ("pick-up location", "pickup location", "pick up", "pick-up branch", "where would you"),
        "the pick-up location",
    ),
    "return_location": SlotHint(
        ("return location", "drop-off", "drop off", "return it", "return branch"),
        "where you will return the car",
    ),
    "rental_dates": SlotHint(
        (
            "pick-up date",
            "pickup date",
            "return date",
            "which dates",
            "what dates",
            "how long",
            "where and when",
            "when would you like",
        ),
        "your rental dates",
    ),
    "vehicle_class": SlotHint(
        ("vehicle class", "car class", "which car", "what car", "type of car", "size of car"),
        "the vehicle class you want",
    ),
    "driver": SlotHint(
        ("driver", "date of birth", "birth date", "license", "who will drive"),
        "the driver's name, birth date and license number",
    ),
    "add_ons": SlotHint(
        ("add-on", "add on", "extras", "gps", "child seat", "waiver", "protection"),
        "the add-ons you want",
    ),
    "new_return_date": SlotHint(
        ("new return date", "until when", "how many more days", "extend until", "keep the car"),
        "the new return date",
    ),
    "coverage": SlotHint(
        ("coverage", "insurance", "which protection", "waiver"), "the coverage you want"
    ),
    "new_class": SlotHint(
        ("vehicle class", "car class", "which class", "what class", "upgrade to"),
        "the class you want",
    ),
    "new_return_location": SlotHint(
        (
            "return location",
            "drop-off",
            "drop off",
            "return it",
            "return branch",
            "which branch",
            "drop the car off",
            "drop it off",
            "where would you like to return",
            "where do you want to return",
        ),
        "where you want to return the car",
    ),
    "hours_late": SlotHint(
        ("how late", "how many hours", "what time", "when will you"),
        "how many hours late you will be",
    ),
    "damage": SlotHint(
        ("what is the damage", "damage", "describe", "which part", "where on the"),
        "what the damage is and where",
    ),
    "cause": SlotHint(
        ("how did it happen", "how it happened", "what caused", "cause"),
        "how the damage happened",
    ),
    "photos": SlotHint(("photo", "picture", "image"), "the photos you took"),
    "estimate": SlotHint(("estimate", "how much", "repair cost", "cost"), "the repair estimate"),
    "rental": SlotHint(
        (
            "which booking",
            "which rental",
            "booking code",
            "booking number",
            "confirmation",
            "reservation",
        ),
        "which rental you mean (its class, branch and dates)",
    ),
    "rentals": SlotHint(
        ("which bookings", "which rentals", "which booking", "which rental"),
        "which rentals you mean and what to do with each",
    ),
    "friend_booking": SlotHint(
        ("friend's booking", "friend", "their booking", "other booking"),
        "the code of your friend's booking",
    ),
    "damage_charge": SlotHint(
        ("how much", "which charge", "amount", "charged"), "the damage charge you mean"
    ),
    "second_driver": SlotHint(
        ("second driver", "other driver", "second car", "son", "daughter", "who will drive"),
        "the second car's driver: name, birth date and license number",
    ),
    "disputed_report": SlotHint(
        ("report", "which charge", "damage charge"), "the damage report you dispute", True
    ),
}
"""The kit's standard slots plus bookings, branches, dates, drivers, add-ons and damage."""


def gold_reads(identity: Identity, *booking_ids: str) -> list[Action]:
    """Authentication, the user's profile and the bookings concerned."""
    return [
        *identity.actions,
        *(Action("get_booking_details", {"booking_id": b}) for b in booking_ids),
    ]
