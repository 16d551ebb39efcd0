"""How airline tasks talk: flights, reservations and passengers as users say them; slot hints."""

from __future__ import annotations

from tau_sim.domains.airline.data import Flight, Passenger, Reservation, Segment
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.tasks import HINTS as KIT_HINTS
from tau_sim.domains.kit.tasks import RESERVATION_WORDS
from tau_sim.simulator.world import Action, SlotHint

UNKNOWN_IDS = ["payment method ids", "user id"]

CABIN_TEXT = {"basic_economy": "basic economy", "economy": "economy", "business": "business"}


def flight_text(flight: Flight | Segment) -> str:
    """A flight as a user names it, e.g. "AT123 from JFK to LAX on 2026-05-20"."""
    return f"{flight.flight_number} from {flight.origin} to {flight.destination} on {flight.date}"


def departure_text(flight: Flight) -> str:
    """A flight the user picked from a search, e.g. "AT123 departing 08:15 on 2026-05-20"."""
    return f"{flight.flight_number} departing {flight.departure} on {flight.date}"


def passenger_text(p: Passenger) -> str:
    """A traveller as a user names them, e.g. "Ava Smith (born 1990-04-02)"."""
    return f"{p.first_name} {p.last_name} (born {p.dob})"


def passengers_text(passengers: tuple[Passenger, ...] | list[Passenger]) -> str:
    """The travellers of a booking."""
    return " and ".join(passenger_text(p) for p in passengers)


def trip_text(reservation: Reservation) -> str:
    """A reservation as a user describes it, e.g. "my round trip from JFK to LAX"."""
    kind = "round trip" if reservation.trip_type == "round_trip" else "one-way trip"
    return f"my {kind} from {reservation.origin} to {reservation.destination}"


_RESERVATION = SlotHint(RESERVATION_WORDS, "your reservation ID", True)

HINTS: dict[str, SlotHint] = {
    **KIT_HINTS,
    "reservation_id": _RESERVATION,
    "origin": SlotHint(
        ("origin", "flying from", "departing from", "leaving from", "departure airport"),
        "your origin airport",
    ),
    "destination": SlotHint(
        ("destination", "flying to", "arrival airport", "where to"), "your destination airport"
    ),
    "trip_type": SlotHint(
        ("trip type", "one-way or round", "round trip or one-way"), "your trip type"
    ),
    "travel_dates": SlotHint(
        ("travel date", "departure date", "return date", "which date", "what date", "which day"),
        "your travel dates",
    ),
    "cabin": SlotHint(("cabin", "fare class", "which class", "what class"), "the cabin you want"),
    "passengers": SlotHint(
        ("passenger", "traveler", "traveller", "who is flying", "who will be flying"),
        "the passengers' names and dates of birth",
    ),
    "new_date": SlotHint(
        (
            "which day",
            "what day",
            "which date would",
            "what date would",
            "new date",
            "date you",
            "fly instead",
        ),
        "the day you want to fly instead",
    ),
    "flight": SlotHint(
        ("flight number", "which flight", "what flight", "flight you", "new flight"),
        "the flight number you want",
    ),
    "disrupted_flight": SlotHint(
        ("flight number", "which flight", "what flight", "flight was", "flight that"),
        "the flight number that was disrupted",
        True,
    ),
    "booked_flight": SlotHint(
        ("flight number", "which flight", "what flight", "flight you", "your flight"),
        "your flight number",
        True,
    ),
    "bags": SlotHint(
        ("bag", "luggage", "suitcase", "how many checked"), "the number of checked bags"
    ),
    "insurance": SlotHint(("insurance",), "whether you want travel insurance"),
    "new_cabin": SlotHint(
        ("cabin", "fare class", "which class", "what class", "upgrade to"),
        "the cabin you want to move to",
    ),
    "corrected_passenger": SlotHint(
        ("correct name", "correct spelling", "passenger", "date of birth"),
        "the passenger's correct details",
    ),
    "trip": SlotHint(
        (
            "which reservation",
            "which trip",
            "which booking",
            "reservation id",
            "reservation code",
            "reservation number",
            "confirmation code",
            "confirmation number",
            "booking reference",
            "booking code",
        ),
        "which trip you mean",
    ),
    "other_trip": SlotHint(
        (
            "other reservation",
            "other trip",
            "other booking",
            "second reservation",
            "second trip",
            "which reservation",
            "which trip",
        ),
        "which other trip you mean",
    ),
    "wanted_amount": SlotHint(
        ("how much", "amount", "compensation"), "the compensation amount you want"
    ),
}
"""The kit's standard slots plus reservations, routes, dates, cabins, bags and compensation."""


def gold_reads(identity: Identity, *reservation_ids: str) -> list[Action]:
    """Authentication, the user's profile and the reservations concerned."""
    return [
        *identity.actions,
        *(Action("get_reservation_details", {"reservation_id": r}) for r in reservation_ids),
    ]
