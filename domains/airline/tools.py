"""The airline tools the agent calls; each enforces the hard rules the database enforces.

Seats never go below zero, gift cards pay only up to their balance, refunds never exceed what
was paid and compensation only goes to disrupted flights. The policy's own rules (fare-class
windows, fees, bag allowances, compensation caps) are the agent's to follow.
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

from typing import Any, Literal

import msgspec

from tau_sim.domains.airline.access import (
    FlightChoice,
    check_passengers,
    check_refund,
    flight_view,
    itinerary,
    load_flight,
    load_reservation,
    load_user,
    new_reservation_id,
    payer,
    require_active,
    require_bookable,
    require_unflown,
    reservation_view,
    segment,
    take_seats,
)
from tau_sim.domains.airline.catalog import AIRPORTS
from tau_sim.domains.airline.data import (
    ACTIVE,
    CANCELLED,
    NOW,
    Flight,
    Passenger,
    Reservation,
    Segment,
    route_key,
)
from tau_sim.domains.airline.rules import (
    BAG_FEE,
    INSURANCE_PRICE,
    MAX_BAGS_PER_PASSENGER,
    MAX_COMPENSATION,
)
from tau_sim.domains.kit import identity
from tau_sim.domains.kit import tools as kit_tools
from tau_sim.domains.kit.payments import (
    charge,
    check_funds,
    money,
    owned_method,
    pay_back,
)
from tau_sim.simulator.world import Database, ToolError, ToolKind, tool

Cabin = Literal["basic_economy", "economy", "business"]
TripType = Literal["one_way", "round_trip"]

# ---- read tools -------------------------------------------------------------------------------

find_user_id_by_email = identity.find_user_id_by_email
find_user_id_by_name_zip = identity.find_user_id_by_name_zip


get_user_details = kit_tools.profile_tool(
    "get_user_details",
    "Get a user's profile: name, address, email, membership tier, payment methods, reservations.",
    load_user,
)


@tool(ToolKind.READ)
def get_reservation_details(db: Database, reservation_id: str) -> dict[str, Any]:
    """Get a reservation: flights, cabin, passengers, bags, insurance, payments and status.

    Each flight shows the price paid per passenger; net_paid is payments minus refunds and
    created_at the booking time.

    Args:
        reservation_id: The six-character reservation code, e.g. "ZK3F9Q".
    """
    return reservation_view(load_reservation(db, reservation_id))


@tool(ToolKind.READ)
def search_direct_flights(
    db: Database, origin: str, destination: str, date: str
) -> list[dict[str, Any]]:
    """Search the direct flights from one airport to another on a date.

    Each flight shows its status and, per cabin, the seats left and the price per passenger.

    Args:
        origin: Departure airport code, e.g. "JFK".
        destination: Arrival airport code, e.g. "LAX".
        date: The date of the flight, "YYYY-MM-DD", e.g. "2026-05-20".
    """
    keys = db.find("routes", route_key(origin, destination, date))
    flights: list[Flight] = [load_flight(db, *key.split(":")) for key in keys]
    return [flight_view(f) for f in sorted(flights, key=lambda f: f.departure)]


@tool(ToolKind.READ)
def get_flight_status(db: Database, flight_number: str, date: str) -> dict[str, Any]:
    """Get one flight on one date: route, times, status, delay and cabins.

    The status is scheduled, delayed, cancelled or landed; delay_minutes is the delay (of
    the arrival, for a landed flight); each cabin shows seats left and price per passenger.

    Args:
        flight_number: The flight number, e.g. "AT123".
        date: The date of the flight, "YYYY-MM-DD", e.g. "2026-05-20".
    """
    return flight_view(load_flight(db, flight_number, date))


@tool(ToolKind.READ)
def list_all_airports(db: Database) -> dict[str, str]:
    """List the airports the airline serves: code -> city."""
    return dict(AIRPORTS)


calculate = kit_tools.calculate
transfer_to_human_agents = kit_tools.transfer_to_human_agents

# ---- write tools ------------------------------------------------------------------------------


@tool(ToolKind.WRITE)
def book_reservation(
    db: Database,
    user_id: str,
    origin: str,
    destination: str,
    trip_type: TripType,
    cabin: Cabin,
    flights: list[FlightChoice],
    passengers: list[Passenger],
    payment_method_id: str,
    total_baggages: int,
    nonfree_baggages: int,
    insurance: bool,
) -> dict[str, Any]:
    """Book a reservation and charge it to one payment method of the user.

    The charge is the cabin price of every flight for every passenger, plus $30 per passenger
    for travel insurance, plus $50 per non-free bag.

    Args:
        user_id: The user who books and pays, e.g. "ava_smith_1234".
        origin: Departure airport code of the trip, e.g. "JFK".
        destination: Arrival airport code of the trip, e.g. "LAX".
        trip_type: "one_way" (one flight) or "round_trip" (out and back, two flights).
        cabin: "basic_economy", "economy" or "business", the same for every flight.
        flights: The flights in travel order, e.g. [{"flight_number": "AT123", "date":
            "2026-05-20"}].
        passengers: Each traveller's first_name, last_name and dob ("YYYY-MM-DD"); 1 to 5.
        payment_method_id: The user's payment method that pays, e.g. "credit_card_1234567".
        total_baggages: Checked bags of all passengers together.
        nonfree_baggages: How many of those bags are beyond the free allowance (charged $50
            each).
        insurance: Whether the passengers buy travel insurance ($30 each).
    """
    user = load_user(db, user_id)
    method = owned_method(user, payment_method_id)
    origin, destination = origin.strip().upper(), destination.strip().upper()
    if not 1 <= len(passengers) <= 5:
        raise ToolError("a reservation has 1 to 5 passengers")
    check_passengers(passengers)
    _check_bags(total_baggages, nonfree_baggages, len(passengers))
    chosen = itinerary(db, origin, destination, trip_type, flights)
    for flight in chosen:
        require_bookable(flight)
    segments = tuple(segment(f, cabin) for f in chosen)
    count = len(passengers)
    total = money(
        sum(s.price for s in segments) * count
        + (INSURANCE_PRICE * count if insurance else 0.0)
        + BAG_FEE * nonfree_baggages
    )
    check_funds(method, total)
    for flight in chosen:
        take_seats(db, flight, cabin, -count)
    user, payment = charge(db, user, method, total)
    code = new_reservation_id(db, msgspec.json.encode([user.user_id, flights, passengers]).decode())
    reservation = Reservation(
        code,
        user.user_id,
        origin,
        destination,
        trip_type,
        cabin,
        segments,
        tuple(passengers),
        (payment,) if payment is not None else (),
        NOW.isoformat(timespec="minutes"),
        total_baggages,
        nonfree_baggages,
        insurance,
        ACTIVE,
    )
    db.put("reservations", code, reservation)
    db.put(
        "users",
        user.user_id,
        msgspec.structs.replace(user, reservations=(*user.reservations, code)),
    )
    return reservation_view(reservation)


def _check_bags(total: int, nonfree: int, passengers: int) -> None:
    if not 0 <= nonfree <= total:
        raise ToolError("nonfree_baggages must be between 0 and total_baggages")
    if total > MAX_BAGS_PER_PASSENGER * passengers:
        raise ToolError(
            f"at most {MAX_BAGS_PER_PASSENGER} bags per passenger ({passengers} passenger(s))"
        )


@tool(ToolKind.WRITE)
def change_reservation_flights(
    db: Database, reservation_id: str, flights: list[FlightChoice], payment_method_id: str
) -> dict[str, Any]:
    """Replace the flights of a reservation (same origin, destination, trip type and cabin).

    Every flight must be given, in travel order, including those that do not change. A new
    flight is priced at today's cabin price; the difference for all passengers is charged to,
    or refunded to, the given payment method.

    Args:
        reservation_id: The six-character reservation code, e.g. "ZK3F9Q".
        flights: All flights of the new itinerary in travel order, e.g. [{"flight_number":
            "AT123", "date": "2026-05-20"}].
        payment_method_id: The user's payment method that pays or receives the difference.
    """
    reservation = load_reservation(db, reservation_id)
    require_active(reservation)
    require_unflown(reservation, "changed")
    user, method = payer(db, reservation, payment_method_id)
    chosen = itinerary(
        db, reservation.origin, reservation.destination, reservation.trip_type, flights
    )
    old = {(s.flight_number, s.date): s for s in reservation.flights}
    count = len(reservation.passengers)
    segments = []
    for flight in chosen:
        kept = old.get((flight.flight_number, flight.date))
        if kept is not None:
            segments.append(kept)
            continue
        require_bookable(flight)
        segments.append(segment(flight, reservation.cabin))
    if tuple(segments) == reservation.flights:
        raise ToolError("the new flights are the reservation's current flights")
    difference = money(
        (sum(s.price for s in segments) - sum(s.price for s in reservation.flights)) * count
    )
    check_funds(method, difference)
    _move_seats(db, reservation, reservation.cabin, segments, reservation.cabin)
    user, payment = charge(db, user, method, difference)
    history = reservation.payment_history + ((payment,) if payment is not None else ())
    updated = msgspec.structs.replace(reservation, flights=tuple(segments), payment_history=history)
    db.put("reservations", updated.reservation_id, updated)
    return reservation_view(updated)


def _move_seats(
    db: Database, reservation: Reservation, old_cabin: str, new: list[Segment], new_cabin: str
) -> None:
    """Take the seats of the new segments, then give back those of the old ones."""
    count = len(reservation.passengers)
    old_keys = {(s.flight_number, s.date) for s in reservation.flights}
    new_keys = {(s.flight_number, s.date) for s in new}
    for s in new:
        if (s.flight_number, s.date) not in old_keys or old_cabin != new_cabin:
            take_seats(db, load_flight(db, s.flight_number, s.date), new_cabin, -count)
    for s in reservation.flights:
        if (s.flight_number, s.date) not in new_keys or old_cabin != new_cabin:
            take_seats(db, load_flight(db, s.flight_number, s.date), old_cabin, count)


@tool(ToolKind.WRITE)
def change_reservation_cabin(
    db: Database, reservation_id: str, cabin: Cabin, payment_method_id: str
) -> dict[str, Any]:
    """Move every flight of a reservation to another cabin, at today's prices of that cabin.

    The difference for all passengers is charged to, or refunded to, the given payment method.

    Args:
        reservation_id: The six-character reservation code, e.g. "ZK3F9Q".
        cabin: The new cabin: "basic_economy", "economy" or "business".
        payment_method_id: The user's payment method that pays or receives the difference.
    """
    reservation = load_reservation(db, reservation_id)
    require_active(reservation)
    require_unflown(reservation, "changed")
    if cabin == reservation.cabin:
        raise ToolError(f"reservation {reservation.reservation_id} is already in {cabin}")
    user, method = payer(db, reservation, payment_method_id)
    flights = [load_flight(db, s.flight_number, s.date) for s in reservation.flights]
    cancelled = next((f for f in flights if f.status == CANCELLED), None)
    if cancelled is not None:
        raise ToolError(f"flight {cancelled.flight_number} on {cancelled.date} is cancelled")
    segments = [segment(f, cabin) for f in flights]
    count = len(reservation.passengers)
    difference = money(
        (sum(s.price for s in segments) - sum(s.price for s in reservation.flights)) * count
    )
    check_funds(method, difference)
    _move_seats(db, reservation, reservation.cabin, segments, cabin)
    user, payment = charge(db, user, method, difference)
    history = reservation.payment_history + ((payment,) if payment is not None else ())
    updated = msgspec.structs.replace(
        reservation, cabin=cabin, flights=tuple(segments), payment_history=history
    )
    db.put("reservations", updated.reservation_id, updated)
    return reservation_view(updated)


@tool(ToolKind.WRITE)
def update_reservation_baggages(
    db: Database,
    reservation_id: str,
    total_baggages: int,
    nonfree_baggages: int,
    payment_method_id: str,
) -> dict[str, Any]:
    """Set the checked bags of a reservation; bags can be added, never removed.

    Each new non-free bag is charged $50 to the given payment method.

    Args:
        reservation_id: The six-character reservation code, e.g. "ZK3F9Q".
        total_baggages: The new total of checked bags of all passengers (at least the current).
        nonfree_baggages: How many of them are beyond the free allowance (at least the current).
        payment_method_id: The user's payment method that pays for the new non-free bags.
    """
    reservation = load_reservation(db, reservation_id)
    require_active(reservation)
    require_unflown(reservation, "changed")
    _check_bags(total_baggages, nonfree_baggages, len(reservation.passengers))
    if total_baggages < reservation.total_baggages:
        raise ToolError(
            f"bags cannot be removed: the reservation has {reservation.total_baggages} already"
        )
    if nonfree_baggages < reservation.nonfree_baggages:
        raise ToolError(
            f"nonfree_baggages cannot go below the {reservation.nonfree_baggages} already paid"
        )
    if total_baggages == reservation.total_baggages:
        raise ToolError("total_baggages is the current number of bags: nothing to add")
    user, method = payer(db, reservation, payment_method_id)
    fee = money(BAG_FEE * (nonfree_baggages - reservation.nonfree_baggages))
    user, payment = charge(db, user, method, fee)
    history = reservation.payment_history + ((payment,) if payment is not None else ())
    updated = msgspec.structs.replace(
        reservation,
        total_baggages=total_baggages,
        nonfree_baggages=nonfree_baggages,
        payment_history=history,
    )
    db.put("reservations", updated.reservation_id, updated)
    return reservation_view(updated)


@tool(ToolKind.WRITE)
def update_reservation_passengers(
    db: Database, reservation_id: str, passengers: list[Passenger]
) -> dict[str, Any]:
    """Correct the passengers' names or dates of birth; their number cannot change.

    Args:
        reservation_id: The six-character reservation code, e.g. "ZK3F9Q".
        passengers: Every passenger, in the reservation's order, with first_name, last_name and
            dob ("YYYY-MM-DD").
    """
    reservation = load_reservation(db, reservation_id)
    require_active(reservation)
    require_unflown(reservation, "changed")
    if len(passengers) != len(reservation.passengers):
        raise ToolError(
            f"the reservation has {len(reservation.passengers)} passenger(s); the number of "
            "passengers cannot change"
        )
    check_passengers(passengers)
    if tuple(passengers) == reservation.passengers:
        raise ToolError("the passengers are unchanged")
    updated = msgspec.structs.replace(reservation, passengers=tuple(passengers))
    db.put("reservations", updated.reservation_id, updated)
    return reservation_view(updated)


@tool(ToolKind.WRITE)
def cancel_reservation(db: Database, reservation_id: str, refund_amount: float) -> dict[str, Any]:
    """Cancel a whole reservation, free its seats and refund refund_amount.

    The refund goes back to the methods that paid (in payment order), never more than the net
    amount paid; gift card refunds arrive at once, others in 5 to 7 business days.

    Args:
        reservation_id: The six-character reservation code, e.g. "ZK3F9Q".
        refund_amount: The amount to refund in dollars, as the policy sets it (0 when nothing
            is refunded), e.g. 412.5.
    """
    reservation = load_reservation(db, reservation_id)
    require_active(reservation)
    require_unflown(reservation, "cancelled")
    check_refund(reservation, refund_amount)
    user = load_user(db, reservation.user_id)
    back = pay_back(db, user, reservation.payment_history, refund_amount)
    count = len(reservation.passengers)
    for s in reservation.flights:
        take_seats(db, load_flight(db, s.flight_number, s.date), reservation.cabin, count)
    updated = msgspec.structs.replace(
        reservation, status=CANCELLED, payment_history=reservation.payment_history + tuple(back)
    )
    db.put("reservations", updated.reservation_id, updated)
    return reservation_view(updated)


@tool(ToolKind.WRITE)
def issue_compensation(
    db: Database, reservation_id: str, flight_number: str, amount: float
) -> dict[str, Any]:
    """Credit compensation for a delayed or cancelled flight to the user's travel credit.

    One compensation per reservation; the flight must be in the reservation and must have been
    delayed or cancelled.

    Args:
        reservation_id: The six-character reservation code, e.g. "ZK3F9Q".
        flight_number: The disrupted flight of the reservation, e.g. "AT123".
        amount: The compensation in dollars for the whole reservation, as the policy sets it.
    """
    reservation = load_reservation(db, reservation_id)
    if reservation.compensation:
        raise ToolError(f"reservation {reservation.reservation_id} was already compensated")
    number = flight_number.strip().upper()
    seg = next((s for s in reservation.flights if s.flight_number == number), None)
    if seg is None:
        raise ToolError(f"flight {number} is not in reservation {reservation.reservation_id}")
    flight = load_flight(db, seg.flight_number, seg.date)
    if flight.status != CANCELLED and flight.delay_minutes <= 0:
        raise ToolError(f"flight {number} on {seg.date} was neither delayed nor cancelled")
    if not 0 < amount <= MAX_COMPENSATION:
        raise ToolError(f"amount must be above $0 and at most ${MAX_COMPENSATION:,.2f}")
    user = load_user(db, reservation.user_id)
    credited = msgspec.structs.replace(user, travel_credit=money(user.travel_credit + amount))
    db.put("users", user.user_id, credited)
    updated = msgspec.structs.replace(reservation, compensation=money(amount))
    db.put("reservations", updated.reservation_id, updated)
    return {
        "reservation_id": updated.reservation_id,
        "compensation": updated.compensation,
        "travel_credit": credited.travel_credit,
    }
