"""How hotel tasks talk: stays, rooms and requests as guests say them; slot hints."""

from __future__ import annotations

from tau_sim.domains.hotel.catalog import PROPERTIES
from tau_sim.domains.hotel.data import Reservation
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.tasks import HINTS as KIT_HINTS
from tau_sim.domains.kit.tasks import RESERVATION_WORDS
from tau_sim.simulator.world import Action, SlotHint

UNKNOWN_IDS = ["payment method ids", "user id", "property ids"]

HOTEL_NAMES = {p.property_id: p.name for p in PROPERTIES}

ROOM_TEXT = {"standard": "standard room", "deluxe": "deluxe room", "suite": "suite"}

PLAN_TEXT = {
    "flexible": "the flexible rate",
    "member": "the member rate",
    "non_refundable": "the non-refundable rate",
}

REQUEST_TEXT = {
    "late_checkout": "a late checkout",
    "early_checkin": "an early checkin",
    "crib": "a crib in the room",
    "accessible_room": "an accessible room",
    "quiet_room": "a quiet room away from the elevator",
}


def dates_text(check_in: str, check_out: str) -> str:
    """A stay's dates as a guest says them."""
    return f"checking in {check_in} and checking out {check_out}"


def stay_text(reservation: Reservation) -> str:
    """A reservation as a guest describes it, e.g. "my stay at Summit Lodge from ... to ..."."""
    return (
        f"my stay at {HOTEL_NAMES[reservation.property_id]} from {reservation.check_in} to "
        f"{reservation.check_out}"
    )


def points_text(points: int) -> str:
    """Points as the agent should say them, e.g. "12,500 points"."""
    return f"{points:,} points"


_RESERVATION = SlotHint(RESERVATION_WORDS, "your reservation code", True)

HINTS: dict[str, SlotHint] = {
    **KIT_HINTS,
    "reservation_id": _RESERVATION,
    "hotel": SlotHint(("which hotel", "what hotel", "property", "hotel you"), "the hotel"),
    "stay_dates": SlotHint(
        ("check-in", "check in date", "check-out", "which dates", "what dates", "when"),
        "your check-in and check-out dates",
    ),
    "new_dates": SlotHint(
        ("new dates", "which dates", "what dates", "new check-in", "move to"),
        "the new dates",
    ),
    "room_type": SlotHint(
        ("room type", "kind of room", "which room", "type of room"), "the room type"
    ),
    "new_room_type": SlotHint(
        ("room type", "upgrade to", "which room", "type of room"), "the room type you want"
    ),
    "rate_plan": SlotHint(("rate plan", "which rate", "what rate", "refundable"), "the rate plan"),
    "guests": SlotHint(
        ("how many guests", "how many people", "number of guests"), "the number of guests"
    ),
    "special_request": SlotHint(
        ("special request", "request", "anything special"), "your special request"
    ),
    "night": SlotHint(("which night", "what night"), "the night you want to pay with points"),
    "checked_out_stay": SlotHint(
        ("which stay", "what stay", "stayed"), "the stay you are calling about", True
    ),
    "stay": SlotHint(
        (
            "which reservation",
            "which stay",
            "reservation code",
            "reservation number",
            "confirmation",
            "booking reference",
        ),
        "which stay you mean (the hotel and the dates)",
    ),
    "stays": SlotHint(
        ("which reservations", "which stays", "which reservation", "which stay"),
        "which stays you mean and what to do with each",
    ),
    "friend_reservation": SlotHint(
        ("friend's reservation", "friend", "their reservation", "other reservation"),
        "the code of your friend's reservation",
    ),
    "complaint": SlotHint(
        ("what happened", "what went wrong", "problem", "complaint"), "what went wrong"
    ),
    "claimed_tier": SlotHint(("tier", "member", "status"), "your membership tier"),
    "wanted_amount": SlotHint(("how much", "amount", "refund you"), "the amount you want back"),
}
"""The kit's standard slots plus reservations, hotels, dates, rooms, plans and requests."""


def gold_reads(identity: Identity, *reservation_ids: str) -> list[Action]:
    """Authentication, the guest's profile and the reservations concerned."""
    return [
        *identity.actions,
        *(Action("get_reservation_details", {"reservation_id": r}) for r in reservation_ids),
    ]
