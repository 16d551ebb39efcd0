"""The hotel tools the agent calls; each enforces the hard rules the database enforces.

Rooms never go below zero on any night, gift cards pay only up to their balance, refunds never
exceed what was paid and points never go below zero. The policy's own rules (cancellation
windows and fees, who gets the member rate or a complimentary upgrade, points costs, goodwill
amounts) are the agent's to follow.
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

from typing import Any, Literal

import msgspec

from tau_sim.domains.hotel.access import (
    check_out_of,
    check_refund,
    load_night,
    load_property,
    load_reservation,
    load_user,
    new_reservation_id,
    pay_back,
    payer,
    require_confirmed,
    require_no_points,
    require_plan,
    require_room,
    require_rooms,
    reservation_view,
    stay,
    take_room,
)
from tau_sim.domains.hotel.catalog import Property
from tau_sim.domains.hotel.data import (
    CANCELLED,
    CHECKED_OUT,
    CONFIRMED,
    NOW,
    TODAY,
    Reservation,
    StayNight,
)
from tau_sim.domains.hotel.rules import MAX_GOODWILL, PLAN_FACTOR, ROOM_TYPES, plan_price
from tau_sim.domains.kit import identity
from tau_sim.domains.kit import tools as kit_tools
from tau_sim.domains.kit.payments import charge, check_funds, money, owned_method
from tau_sim.simulator.world import Database, ToolError, ToolKind, tool

RoomTypeCode = Literal["standard", "deluxe", "suite"]
RatePlan = Literal["flexible", "member", "non_refundable"]
SpecialRequest = Literal["late_checkout", "early_checkin", "crib", "accessible_room", "quiet_room"]

# ---- read tools -------------------------------------------------------------------------------

find_user_id_by_email = identity.find_user_id_by_email
find_user_id_by_name_zip = identity.find_user_id_by_name_zip


get_user_details = kit_tools.profile_tool(
    "get_user_details",
    "Get a guest's profile: name, address, email, tier, points, payment methods, reservations.",
    load_user,
)


@tool(ToolKind.READ)
def get_reservation_details(db: Database, reservation_id: str) -> dict[str, Any]:
    """Get a reservation: property, room type, dates, rate plan, nights, payments and status.

    Each night shows the price paid for it (and the points, when paid with points); net_paid is
    payments minus refunds; status is confirmed, checked_in, checked_out or cancelled. A
    checked-out stay shows the incident the hotel recorded (if any) and its housekeeping log:
    the nights the room was cleaned.

    Args:
        reservation_id: The six-character reservation code, e.g. "ZK3F9Q".
    """
    return reservation_view(load_reservation(db, reservation_id))


@tool(ToolKind.READ)
def list_user_reservations(db: Database, user_id: str) -> list[dict[str, Any]]:
    """List a guest's reservations, one summary each: code, hotel, room, dates, plan, status.

    The hotel is named, not located: list_properties gives each hotel's city.

    For the nights, payments, requests, incident and housekeeping log of one reservation, see
    get_reservation_details.

    Args:
        user_id: The guest whose reservations to list, e.g. "ava_smith_1234".
    """
    user = load_user(db, user_id)
    out = []
    for code in user.reservations:
        r = load_reservation(db, code)
        prop = load_property(db, r.property_id)
        out.append(
            {
                "reservation_id": r.reservation_id,
                "status": r.status,
                "hotel": prop.name,
                "room_type": r.room_type,
                "check_in": r.check_in,
                "check_out": r.check_out,
                "rate_plan": r.rate_plan,
            }
        )
    return out


@tool(ToolKind.READ)
def list_properties(db: Database) -> list[dict[str, str]]:
    """List the hotels of the group: property id, name and city."""
    props: list[Property] = [p for _, p in db.items("properties")]
    return [{"property_id": p.property_id, "name": p.name, "city": p.city} for p in props]


@tool(ToolKind.READ)
def get_property_details(db: Database, property_id: str) -> Property:
    """Get a hotel: name, city, check-in and check-out times and its room types.

    Args:
        property_id: The property id, e.g. "SEA01".
    """
    return load_property(db, property_id)


@tool(ToolKind.READ)
def search_availability(
    db: Database, property_id: str, room_type: RoomTypeCode, check_in: str, check_out: str
) -> dict[str, Any]:
    """Search one room type of a hotel for a stay: rooms left and prices for every night.

    Each night shows the rooms left and the price of that night on each rate plan; available
    is true when every night has a room left.

    Args:
        property_id: The property id, e.g. "SEA01".
        room_type: "standard", "deluxe" or "suite".
        check_in: The arrival date, "YYYY-MM-DD", e.g. "2026-07-20".
        check_out: The departure date, "YYYY-MM-DD", after check_in.
    """
    prop = load_property(db, property_id)
    require_room(prop, room_type)
    dates = stay(check_in, check_out)
    nights = [load_night(db, prop.property_id, room_type, d) for d in dates]
    return {
        "property_id": prop.property_id,
        "room_type": room_type,
        "available": all(n.rooms_left > 0 for n in nights),
        "nights": [
            {
                "date": n.date,
                "rooms_left": n.rooms_left,
                **{plan: plan_price(n.rate, plan) for plan in PLAN_FACTOR},
            }
            for n in nights
        ],
    }


calculate = kit_tools.calculate
transfer_to_human_agents = kit_tools.transfer_to_human_agents

# ---- write tools ------------------------------------------------------------------------------


@tool(ToolKind.WRITE)
def book_reservation(
    db: Database,
    user_id: str,
    property_id: str,
    room_type: RoomTypeCode,
    check_in: str,
    check_out: str,
    rate_plan: RatePlan,
    guests: int,
    payment_method_id: str,
    special_requests: list[SpecialRequest],
) -> dict[str, Any]:
    """Book a room for a stay and charge every night to one payment method of the guest.

    Each night costs that night's price on the rate plan (see search_availability).

    Args:
        user_id: The guest who books and pays, e.g. "ava_smith_1234".
        property_id: The property id, e.g. "SEA01".
        room_type: "standard", "deluxe" or "suite".
        check_in: The arrival date, "YYYY-MM-DD", today or later.
        check_out: The departure date, "YYYY-MM-DD", 1 to 14 nights after check_in.
        rate_plan: "flexible", "member" or "non_refundable".
        guests: How many people stay in the room (at most the room type's max_guests).
        payment_method_id: The guest's payment method that pays, e.g. "credit_card_1234567".
        special_requests: Requests to record, e.g. ["crib"]; [] for none.
    """
    user = load_user(db, user_id)
    method = owned_method(user, payment_method_id)
    prop = load_property(db, property_id)
    require_room(prop, room_type)
    require_plan(rate_plan)
    room = prop.room(room_type)
    assert room is not None
    if not 1 <= guests <= room.max_guests:
        raise ToolError(
            f"a {room_type} room at {prop.property_id} takes 1 to {room.max_guests} guests"
        )
    if len(set(special_requests)) != len(special_requests):
        raise ToolError("special_requests lists a request twice")
    dates = stay(check_in, check_out)
    nights = require_rooms(db, prop.property_id, room_type, dates)
    stay_nights = tuple(StayNight(n.date, plan_price(n.rate, rate_plan)) for n in nights)
    total = money(sum(n.price for n in stay_nights))
    check_funds(method, total)
    for night in nights:
        take_room(db, night, -1)
    user, payment = charge(db, user, method, total)
    code = new_reservation_id(
        db, msgspec.json.encode([user.user_id, prop.property_id, room_type, dates]).decode()
    )
    reservation = Reservation(
        code,
        user.user_id,
        prop.property_id,
        room_type,
        dates[0],
        check_out_of(dates),
        rate_plan,
        guests,
        stay_nights,
        (payment,) if payment is not None else (),
        NOW.isoformat(timespec="minutes"),
        CONFIRMED,
        tuple(special_requests),
    )
    db.put("reservations", code, reservation)
    db.put(
        "users",
        user.user_id,
        msgspec.structs.replace(user, reservations=(*user.reservations, code)),
    )
    return reservation_view(reservation)


@tool(ToolKind.WRITE)
def change_reservation_dates(
    db: Database, reservation_id: str, check_in: str, check_out: str, payment_method_id: str
) -> dict[str, Any]:
    """Move a confirmed reservation to new dates (same hotel, room type and rate plan).

    Nights the old and new stays share keep the price paid; every other new night is priced at
    today's price of the rate plan and needs a room left. The difference is charged to, or
    refunded to, the given payment method.

    Args:
        reservation_id: The six-character reservation code, e.g. "ZK3F9Q".
        check_in: The new arrival date, "YYYY-MM-DD", today or later.
        check_out: The new departure date, "YYYY-MM-DD", after check_in.
        payment_method_id: The guest's payment method that pays or receives the difference.
    """
    reservation = load_reservation(db, reservation_id)
    require_confirmed(reservation, "changed")
    require_no_points(reservation, "moved")
    user, method = payer(db, reservation, payment_method_id)
    dates = stay(check_in, check_out)
    old = {n.date: n for n in reservation.nights}
    if dates == list(old):
        raise ToolError("the new dates are the reservation's current dates")
    pid, room = reservation.property_id, reservation.room_type
    added = [d for d in dates if d not in old]
    fresh = {n.date: n for n in require_rooms(db, pid, room, added)}
    nights = tuple(
        old[d] if d in old else StayNight(d, plan_price(fresh[d].rate, reservation.rate_plan))
        for d in dates
    )
    difference = money(sum(n.price for n in nights) - sum(n.price for n in reservation.nights))
    if difference < 0:
        check_refund(reservation, -difference)
    check_funds(method, difference)
    for d in added:
        take_room(db, fresh[d], -1)
    for d in old:
        if d not in dates:
            take_room(db, load_night(db, pid, room, d), 1)
    user, payment = charge(db, user, method, difference)
    history = reservation.payment_history + ((payment,) if payment is not None else ())
    updated = msgspec.structs.replace(
        reservation,
        check_in=dates[0],
        check_out=check_out_of(dates),
        nights=nights,
        payment_history=history,
    )
    db.put("reservations", updated.reservation_id, updated)
    return reservation_view(updated)


@tool(ToolKind.WRITE)
def upgrade_room(
    db: Database,
    reservation_id: str,
    room_type: RoomTypeCode,
    payment_method_id: str,
    complimentary: bool,
) -> dict[str, Any]:
    """Move every night of a confirmed reservation to a higher room type of the same hotel.

    Paid: each night is repriced at today's price of the new room type on the reservation's
    rate plan and the difference is charged to the payment method. Complimentary: the prices
    stay and nothing is charged (at most one complimentary upgrade per reservation).

    Args:
        reservation_id: The six-character reservation code, e.g. "ZK3F9Q".
        room_type: The higher room type: "deluxe" or "suite".
        payment_method_id: The guest's payment method that pays the difference.
        complimentary: Whether the upgrade is free under the policy.
    """
    reservation = load_reservation(db, reservation_id)
    require_confirmed(reservation, "upgraded")
    require_no_points(reservation, "upgraded")
    if ROOM_TYPES.index(room_type) <= ROOM_TYPES.index(reservation.room_type):
        raise ToolError(f"{room_type} is not above the reservation's {reservation.room_type} room")
    if complimentary and reservation.complimentary_upgrade:
        raise ToolError(
            f"reservation {reservation.reservation_id} already had a complimentary upgrade"
        )
    user, method = payer(db, reservation, payment_method_id)
    dates = [n.date for n in reservation.nights]
    pid = reservation.property_id
    new = require_rooms(db, pid, room_type, dates)
    if complimentary:
        nights = reservation.nights
    else:
        nights = tuple(StayNight(n.date, plan_price(n.rate, reservation.rate_plan)) for n in new)
    difference = money(sum(n.price for n in nights) - sum(n.price for n in reservation.nights))
    check_funds(method, difference)
    for night in new:
        take_room(db, night, -1)
    for d in dates:
        take_room(db, load_night(db, pid, reservation.room_type, d), 1)
    user, payment = charge(db, user, method, difference)
    history = reservation.payment_history + ((payment,) if payment is not None else ())
    updated = msgspec.structs.replace(
        reservation,
        room_type=room_type,
        nights=nights,
        payment_history=history,
        complimentary_upgrade=reservation.complimentary_upgrade or complimentary,
    )
    db.put("reservations", updated.reservation_id, updated)
    return reservation_view(updated)


@tool(ToolKind.WRITE)
def cancel_reservation(db: Database, reservation_id: str, refund_amount: float) -> dict[str, Any]:
    """Cancel a confirmed reservation, free its rooms and refund refund_amount.

    The refund goes back to the methods that paid (in payment order), never more than the net
    amount paid; gift card refunds arrive at once, others in 5 to 7 business days.

    Args:
        reservation_id: The six-character reservation code, e.g. "ZK3F9Q".
        refund_amount: The amount to refund in dollars, as the policy sets it (0 when nothing
            is refunded), e.g. 412.5.
    """
    reservation = load_reservation(db, reservation_id)
    require_confirmed(reservation, "cancelled")
    check_refund(reservation, refund_amount)
    back = pay_back(db, reservation, refund_amount)
    for n in reservation.nights:
        take_room(db, load_night(db, reservation.property_id, reservation.room_type, n.date), 1)
    updated = msgspec.structs.replace(
        reservation, status=CANCELLED, payment_history=reservation.payment_history + back
    )
    db.put("reservations", updated.reservation_id, updated)
    return reservation_view(updated)


@tool(ToolKind.WRITE)
def add_special_request(
    db: Database, reservation_id: str, request: SpecialRequest
) -> dict[str, Any]:
    """Record a special request on a confirmed reservation (the hotel sees it at check-in).

    Args:
        reservation_id: The six-character reservation code, e.g. "ZK3F9Q".
        request: "late_checkout", "early_checkin", "crib", "accessible_room" or "quiet_room".
    """
    reservation = load_reservation(db, reservation_id)
    require_confirmed(reservation, "changed")
    if request in reservation.special_requests:
        raise ToolError(f"reservation {reservation.reservation_id} already has {request}")
    updated = msgspec.structs.replace(
        reservation, special_requests=(*reservation.special_requests, request)
    )
    db.put("reservations", updated.reservation_id, updated)
    return reservation_view(updated)


@tool(ToolKind.WRITE)
def redeem_points_for_night(
    db: Database, reservation_id: str, night: str, points: int
) -> dict[str, Any]:
    """Pay one night of a confirmed reservation with loyalty points and refund its price.

    The points are taken from the guest's balance (never below zero) and the price paid for
    that night goes back to the methods that paid.

    Args:
        reservation_id: The six-character reservation code, e.g. "ZK3F9Q".
        night: The date of the night, "YYYY-MM-DD" (check-in up to the day before check-out).
        points: The points the night costs under the policy, e.g. 20000.
    """
    reservation = load_reservation(db, reservation_id)
    require_confirmed(reservation, "changed")
    if reservation.check_in <= TODAY.isoformat():
        raise ToolError("points can only pay the nights of a stay that has not started")
    stay_night = next((n for n in reservation.nights if n.date == night.strip()), None)
    if stay_night is None:
        raise ToolError(f"{night!r} is not a night of reservation {reservation.reservation_id}")
    if stay_night.points:
        raise ToolError(f"the night of {stay_night.date} is already paid with points")
    if points <= 0:
        raise ToolError("points must be above zero")
    user = load_user(db, reservation.user_id)
    if points > user.points:
        raise ToolError(f"the guest has {user.points:,} points, {points:,} needed")
    db.put("users", user.user_id, msgspec.structs.replace(user, points=user.points - points))
    back = pay_back(db, reservation, stay_night.price)
    nights = tuple(
        msgspec.structs.replace(n, points=points) if n.date == stay_night.date else n
        for n in reservation.nights
    )
    updated = msgspec.structs.replace(
        reservation, nights=nights, payment_history=reservation.payment_history + back
    )
    db.put("reservations", updated.reservation_id, updated)
    view = reservation_view(updated)
    view["points_balance"] = user.points - points
    return view


@tool(ToolKind.WRITE)
def credit_goodwill_points(db: Database, reservation_id: str, points: int) -> dict[str, Any]:
    """Credit goodwill points to the guest for a completed stay (once per reservation).

    Args:
        reservation_id: The six-character reservation code of the checked-out stay.
        points: The goodwill points as the policy sets them, e.g. 3000.
    """
    reservation = load_reservation(db, reservation_id)
    if reservation.status != CHECKED_OUT:
        raise ToolError(
            f"reservation {reservation.reservation_id} is {reservation.status}: goodwill points "
            "are for checked-out stays"
        )
    if reservation.goodwill_points:
        raise ToolError(
            f"reservation {reservation.reservation_id} already received goodwill points"
        )
    if not 0 < points <= MAX_GOODWILL:
        raise ToolError(f"points must be above 0 and at most {MAX_GOODWILL:,}")
    user = load_user(db, reservation.user_id)
    credited = msgspec.structs.replace(user, points=user.points + points)
    db.put("users", user.user_id, credited)
    updated = msgspec.structs.replace(reservation, goodwill_points=points)
    db.put("reservations", updated.reservation_id, updated)
    return {
        "reservation_id": updated.reservation_id,
        "goodwill_points": points,
        "points_balance": credited.points,
    }
