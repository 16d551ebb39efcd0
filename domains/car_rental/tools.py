"""The car-rental tools the agent calls; each enforces the hard rules the database enforces.

Availability never goes below zero, a return date always follows the pick-up date, gift cards
pay only up to their balance, refunds never exceed what was paid and every record named must
exist. The policy's own rules (driver ages, the young-driver surcharge, cancellation windows,
late-fee caps, what goes to a human) are the agent's to follow.
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import msgspec

from tau_sim.domains.car_rental.access import (
    booking_days,
    booking_view,
    charge,
    check_driver,
    check_period,
    check_refund,
    class_rate,
    fee_between,
    load_booking,
    load_location,
    load_user,
    parse_date,
    pay_back,
    payer,
    require_status,
    take_vehicles,
    with_payment,
)
from tau_sim.domains.car_rental.data import (
    ACTIVE,
    CANCELLED,
    NOW,
    RESERVED,
    RETURNED,
    TODAY,
    Area,
    Availability,
    Booking,
    Cause,
    DamageReport,
    DamageType,
    Driver,
    Location,
    availability_key,
    rental_days,
)
from tau_sim.domains.car_rental.rules import (
    ADD_ONS,
    CLASSES,
    INSURANCE,
    LATE_FEE_PER_HOUR,
    MAX_LATE_HOURS,
    MIN_AGE,
    PREMIUM_CLASSES,
    PREMIUM_MIN_AGE,
    daily_cost,
)
from tau_sim.domains.kit import identity
from tau_sim.domains.kit import tools as kit_tools
from tau_sim.domains.kit.codes import new_code
from tau_sim.domains.kit.lookup import load
from tau_sim.domains.kit.payments import check_funds, money, owned_method
from tau_sim.simulator.world import Database, ToolError, ToolKind, tool

VehicleClass = Literal[
    "economy", "compact", "midsize", "fullsize", "suv", "minivan", "premium", "luxury"
]
AddOn = Literal["collision_damage_waiver", "liability_protection", "gps", "child_seat"]
Coverage = Literal["collision_damage_waiver", "liability_protection"]

# ---- read tools -------------------------------------------------------------------------------

find_user_id_by_email = identity.find_user_id_by_email
find_user_id_by_name_zip = identity.find_user_id_by_name_zip


get_user_details = kit_tools.profile_tool(
    "get_user_details",
    "Get a user's profile: name, address, email, birth date, license, payment methods, bookings.",
    load_user,
)


@tool(ToolKind.READ)
def get_booking_details(db: Database, booking_id: str) -> dict[str, Any]:
    """Get a booking: driver, class, branches, dates, add-ons, fees, payments and damage reports.

    Status is reserved (not picked up yet), active (on the road), returned or cancelled;
    rental_days counts the days from the pick-up date to the return date; net_paid is payments
    minus refunds.

    Args:
        booking_id: The booking code, e.g. "CR7KQ2MX".
    """
    return booking_view(db, load_booking(db, booking_id))


@tool(ToolKind.READ)
def list_user_bookings(db: Database, user_id: str) -> list[dict[str, Any]]:
    """List a user's bookings, one summary each: code, status, class, branches and dates.

    For the add-ons, payments and damage reports of one booking, see get_booking_details.

    Args:
        user_id: The user whose bookings to list, e.g. "ava_smith_1234".
    """
    user = load_user(db, user_id)
    out = []
    for code in user.bookings:
        b = load_booking(db, code)
        out.append(
            {
                "booking_id": b.booking_id,
                "status": b.status,
                "vehicle_class": b.vehicle_class,
                "pickup_location": b.pickup_location,
                "return_location": b.return_location,
                "pickup_date": b.pickup_date,
                "return_date": b.return_date,
            }
        )
    return out


@tool(ToolKind.READ)
def list_locations(db: Database) -> list[dict[str, str]]:
    """List the rental branches: code, name, city and kind (airport or city)."""
    locations: list[Location] = [v for _, v in db.items("locations")]
    return [{"code": x.code, "name": x.name, "city": x.city, "kind": x.kind} for x in locations]


@tool(ToolKind.READ)
def list_vehicle_classes(db: Database) -> list[dict[str, Any]]:
    """List the vehicle classes, cheapest first, with the minimum driver age of each.

    Daily rates differ by branch: see search_availability.
    """
    return [
        {
            "vehicle_class": name,
            "premium": name in PREMIUM_CLASSES,
            "minimum_driver_age": PREMIUM_MIN_AGE if name in PREMIUM_CLASSES else MIN_AGE,
        }
        for name in CLASSES
    ]


@tool(ToolKind.READ)
def list_add_ons(db: Database) -> list[dict[str, Any]]:
    """List the add-ons a booking can carry, each with its price per rental day."""
    return [
        {"add_on": name, "price_per_day": price, "insurance": name in INSURANCE}
        for name, price in ADD_ONS.items()
    ]


@tool(ToolKind.READ)
def search_availability(
    db: Database, location: str, pickup_date: str, return_date: str
) -> list[dict[str, Any]]:
    """Search the vehicle classes free at a branch for a whole rental period.

    For each class: the daily rate at this branch and how many vehicles are free on every day
    of the period (0 means the class cannot be booked for these dates).

    Args:
        location: The pick-up branch code, e.g. "SEA-AP".
        pickup_date: The pick-up date, "YYYY-MM-DD" (vehicles are picked up at 10:00).
        return_date: The return date, "YYYY-MM-DD", after the pick-up date.
    """
    branch = load_location(db, location)
    start = parse_date(pickup_date, "pickup_date")
    end = parse_date(return_date, "return_date")
    check_period(start, end)
    out = []
    for rate in branch.rates:
        free: list[Availability] = [
            load(db, "availability", availability_key(branch.code, rate.vehicle_class, d), "day")
            for d in rental_days(start, end)
        ]
        out.append(
            {
                "vehicle_class": rate.vehicle_class,
                "daily_rate": rate.daily_rate,
                "vehicles_available": min(f.available for f in free),
            }
        )
    return out


@tool(ToolKind.READ)
def get_one_way_fee(db: Database, pickup_location: str, return_location: str) -> dict[str, Any]:
    """Get the one-way fee of returning a vehicle at another branch than the pick-up branch.

    Args:
        pickup_location: The pick-up branch code, e.g. "SEA-AP".
        return_location: The return branch code, e.g. "PDX-DT".
    """
    fee = fee_between(db, pickup_location, return_location)
    return {
        "pickup_location": pickup_location.strip().upper(),
        "return_location": return_location.strip().upper(),
        "one_way_fee": fee,
    }


calculate = kit_tools.calculate
transfer_to_human_agents = kit_tools.transfer_to_human_agents

# ---- write tools ------------------------------------------------------------------------------


@tool(ToolKind.WRITE)
def create_booking(
    db: Database,
    user_id: str,
    driver: Driver,
    pickup_location: str,
    return_location: str,
    pickup_date: str,
    return_date: str,
    vehicle_class: VehicleClass,
    add_ons: list[AddOn],
    young_driver_surcharge: bool,
    payment_method_id: str,
) -> dict[str, Any]:
    """Book a vehicle class and charge the whole rental to one payment method of the user.

    The charge is, for every rental day, the class's daily rate at the pick-up branch plus the
    add-ons plus the young-driver surcharge when set ($27 a day), plus the one-way fee when the
    return branch differs.

    Args:
        user_id: The user who books and pays, e.g. "ava_smith_1234".
        driver: The driver's first_name, last_name, birth_date ("YYYY-MM-DD") and
            license_number.
        pickup_location: The pick-up branch code, e.g. "SEA-AP".
        return_location: The return branch code (the pick-up branch for a round trip).
        pickup_date: The pick-up date, "YYYY-MM-DD", today or later.
        return_date: The return date, "YYYY-MM-DD", after the pick-up date.
        vehicle_class: The vehicle class, e.g. "compact".
        add_ons: The add-ons, e.g. ["collision_damage_waiver", "gps"]; [] for none.
        young_driver_surcharge: Whether the young-driver surcharge applies (as the policy
            sets it).
        payment_method_id: The user's payment method that pays, e.g. "credit_card_1234567".
    """
    user = load_user(db, user_id)
    method = owned_method(user, payment_method_id)
    check_driver(driver)
    pickup = load_location(db, pickup_location)
    back = load_location(db, return_location)
    start = parse_date(pickup_date, "pickup_date")
    end = parse_date(return_date, "return_date")
    if start < TODAY:
        raise ToolError(f"pickup_date {start.isoformat()} is in the past")
    check_period(start, end)
    if len(set(add_ons)) != len(add_ons):
        raise ToolError("add_ons lists an add-on twice")
    rate = class_rate(pickup, vehicle_class)
    fee = fee_between(db, pickup.code, back.code)
    days = rental_days(start, end)
    total = money(daily_cost(rate, add_ons, young_driver_surcharge) * len(days) + fee)
    check_funds(method, total)
    take_vehicles(db, pickup.code, vehicle_class, days, -1)
    user, payment = charge(db, user, method, total, "rental")
    driver = Driver(
        driver.first_name.strip(),
        driver.last_name.strip(),
        driver.birth_date.strip(),
        driver.license_number.strip().upper(),
    )
    seed = msgspec.json.encode([user.user_id, driver, pickup.code, start, end, vehicle_class])
    code = new_code(db, "bookings", seed.decode(), prefix="CR")
    booking = Booking(
        code,
        user.user_id,
        driver,
        vehicle_class,
        pickup.code,
        back.code,
        start.isoformat(),
        end.isoformat(),
        rate,
        tuple(a for a in ADD_ONS if a in add_ons),
        young_driver_surcharge,
        fee,
        RESERVED,
        (payment,) if payment is not None else (),
        NOW.isoformat(timespec="minutes"),
    )
    db.put("bookings", code, booking)
    db.put("users", user.user_id, msgspec.structs.replace(user, bookings=(*user.bookings, code)))
    return booking_view(db, booking)


@tool(ToolKind.WRITE)
def extend_booking(
    db: Database, booking_id: str, new_return_date: str, payment_method_id: str
) -> dict[str, Any]:
    """Move the return date of a booking later, when its class is free on every extra day.

    Each extra day costs what a day of the booking costs: its daily rate, its add-ons and its
    young-driver surcharge; the total is charged to the given payment method.

    Args:
        booking_id: The booking code, e.g. "CR7KQ2MX".
        new_return_date: The new return date, "YYYY-MM-DD", after the current return date.
        payment_method_id: The user's payment method that pays the extra days.
    """
    booking = load_booking(db, booking_id)
    require_status(booking, RESERVED, ACTIVE, action="extended")
    old_end = dt.date.fromisoformat(booking.return_date)
    end = parse_date(new_return_date, "new_return_date")
    if end <= old_end:
        raise ToolError(
            f"new_return_date {end.isoformat()} must be after the current return date "
            f"{booking.return_date}"
        )
    start = dt.date.fromisoformat(booking.pickup_date)
    check_period(start, end)
    user, method = payer(db, booking, payment_method_id)
    extra = rental_days(old_end, end)
    cost = money(
        daily_cost(booking.daily_rate, booking.add_ons, booking.young_driver_surcharge) * len(extra)
    )
    check_funds(method, cost)
    take_vehicles(db, booking.pickup_location, booking.vehicle_class, extra, -1)
    user, payment = charge(db, user, method, cost, "extension")
    updated = with_payment(booking, payment, return_date=end.isoformat())
    db.put("bookings", updated.booking_id, updated)
    return booking_view(db, updated)


@tool(ToolKind.WRITE)
def change_vehicle_class(
    db: Database, booking_id: str, vehicle_class: VehicleClass, payment_method_id: str
) -> dict[str, Any]:
    """Move a booking not yet picked up to another vehicle class, free every day of the rental.

    The rate difference for all rental days (the new class's rate at the pick-up branch minus
    the booked rate) is charged to, or refunded to, the given payment method.

    Args:
        booking_id: The booking code, e.g. "CR7KQ2MX".
        vehicle_class: The new vehicle class, e.g. "suv".
        payment_method_id: The user's payment method that pays or receives the difference.
    """
    booking = load_booking(db, booking_id)
    require_status(booking, RESERVED, action="changed to another class")
    if vehicle_class == booking.vehicle_class:
        raise ToolError(f"booking {booking.booking_id} is already {vehicle_class}")
    user, method = payer(db, booking, payment_method_id)
    rate = class_rate(load_location(db, booking.pickup_location), vehicle_class)
    days = booking_days(booking)
    difference = money((rate - booking.daily_rate) * len(days))
    check_funds(method, difference)
    take_vehicles(db, booking.pickup_location, vehicle_class, days, -1)
    take_vehicles(db, booking.pickup_location, booking.vehicle_class, days, 1)
    user, payment = charge(db, user, method, difference, "class_change")
    updated = with_payment(booking, payment, vehicle_class=vehicle_class, daily_rate=rate)
    db.put("bookings", updated.booking_id, updated)
    return booking_view(db, updated)


@tool(ToolKind.WRITE)
def change_return_location(
    db: Database, booking_id: str, return_location: str, payment_method_id: str
) -> dict[str, Any]:
    """Change the branch where a reserved or active rental will be returned.

    The booking's one-way fee becomes the fee of the new return branch; the difference is
    charged to, or refunded to, the given payment method.

    Args:
        booking_id: The booking code, e.g. "CR7KQ2MX".
        return_location: The new return branch code, e.g. "PDX-DT".
        payment_method_id: The user's payment method that pays or receives the difference.
    """
    booking = load_booking(db, booking_id)
    require_status(booking, RESERVED, ACTIVE, action="changed")
    back = load_location(db, return_location)
    if back.code == booking.return_location:
        raise ToolError(f"booking {booking.booking_id} already returns at {back.code}")
    user, method = payer(db, booking, payment_method_id)
    fee = fee_between(db, booking.pickup_location, back.code)
    difference = money(fee - booking.one_way_fee)
    check_funds(method, difference)
    user, payment = charge(db, user, method, difference, "one_way_fee")
    updated = with_payment(booking, payment, return_location=back.code, one_way_fee=fee)
    db.put("bookings", updated.booking_id, updated)
    return booking_view(db, updated)


@tool(ToolKind.WRITE)
def add_insurance(
    db: Database, booking_id: str, coverage: Coverage, payment_method_id: str
) -> dict[str, Any]:
    """Add an insurance add-on to a reserved or active rental, charged for every rental day.

    Args:
        booking_id: The booking code, e.g. "CR7KQ2MX".
        coverage: "collision_damage_waiver" ($19 a day) or "liability_protection" ($14 a day).
        payment_method_id: The user's payment method that pays for it.
    """
    booking = load_booking(db, booking_id)
    require_status(booking, RESERVED, ACTIVE, action="changed")
    if coverage in booking.add_ons:
        raise ToolError(f"booking {booking.booking_id} already has {coverage}")
    user, method = payer(db, booking, payment_method_id)
    cost = money(ADD_ONS[coverage] * booking.days)
    check_funds(method, cost)
    user, payment = charge(db, user, method, cost, coverage)
    add_ons = tuple(a for a in ADD_ONS if a in booking.add_ons or a == coverage)
    updated = with_payment(booking, payment, add_ons=add_ons)
    db.put("bookings", updated.booking_id, updated)
    return booking_view(db, updated)


@tool(ToolKind.WRITE)
def cancel_booking(db: Database, booking_id: str, refund_amount: float) -> dict[str, Any]:
    """Cancel a booking not yet picked up, free its vehicle and refund refund_amount.

    The refund goes back to the methods that paid (in payment order), never more than the net
    amount paid.

    Args:
        booking_id: The booking code, e.g. "CR7KQ2MX".
        refund_amount: The amount to refund in dollars, as the policy sets it (0 when nothing
            is refunded), e.g. 212.0.
    """
    booking = load_booking(db, booking_id)
    require_status(booking, RESERVED, action="cancelled")
    check_refund(booking, refund_amount)
    back = pay_back(db, booking, refund_amount)
    take_vehicles(db, booking.pickup_location, booking.vehicle_class, booking_days(booking), 1)
    updated = msgspec.structs.replace(
        booking, status=CANCELLED, payment_history=booking.payment_history + tuple(back)
    )
    db.put("bookings", updated.booking_id, updated)
    return booking_view(db, updated)


@tool(ToolKind.WRITE)
def record_late_return(
    db: Database, booking_id: str, hours_late: int, late_fee: float, payment_method_id: str
) -> dict[str, Any]:
    """Record that an active rental will come back hours_late hours after its return time.

    The late fee is charged to the given payment method. A return a day or more late is an
    extension, not a late return.

    Args:
        booking_id: The booking code, e.g. "CR7KQ2MX".
        hours_late: Started hours after the 10:00 return time, 1 to 23.
        late_fee: The late fee in dollars, as the policy sets it, e.g. 45.0.
        payment_method_id: The user's payment method that pays the fee.
    """
    booking = load_booking(db, booking_id)
    require_status(booking, ACTIVE, action="returned late")
    if booking.late_hours:
        raise ToolError(f"booking {booking.booking_id} already has a late return recorded")
    if not 1 <= hours_late <= MAX_LATE_HOURS:
        raise ToolError(f"hours_late must be 1 to {MAX_LATE_HOURS}; a longer delay is an extension")
    if not 0 < late_fee <= LATE_FEE_PER_HOUR * hours_late:
        raise ToolError(
            f"late_fee must be above $0 and at most ${LATE_FEE_PER_HOUR:.2f} per hour late"
        )
    user, method = payer(db, booking, payment_method_id)
    check_funds(method, late_fee)
    user, payment = charge(db, user, method, late_fee, "late_fee")
    updated = with_payment(booking, payment, late_hours=hours_late)
    db.put("bookings", updated.booking_id, updated)
    return booking_view(db, updated)


@tool(ToolKind.WRITE)
def file_damage_report(
    db: Database,
    booking_id: str,
    damage_type: DamageType,
    area: Area,
    photos: list[str],
    cause: Cause,
    estimated_cost: float,
    customer_charge: float,
) -> dict[str, Any]:
    """Record damage on an active or returned rental, with the photos the user sent.

    Args:
        booking_id: The booking code, e.g. "CR7KQ2MX".
        damage_type: What the damage is, e.g. "scratch".
        area: Where on the vehicle, e.g. "rear".
        photos: The file names of the user's photos, e.g. ["IMG_4821.jpg"]; 1 to 10.
        cause: How the damage happened, by kind: "collision" (the user hit something),
            "parking_lot" (something hit the parked car), "road_hazard" (gravel, a pothole, a
            nail), "spill" (inside the car) or "unknown" (the user found it).
        estimated_cost: The repair estimate in dollars, e.g. 240.0.
        customer_charge: What the user pays for it, as the policy sets it (0 when covered).
    """
    booking = load_booking(db, booking_id)
    require_status(booking, ACTIVE, RETURNED, action="given a damage report")
    names = [p.strip() for p in photos]
    if not 1 <= len(names) <= 10 or not all(names):
        raise ToolError("photos must name 1 to 10 files")
    if not 0 < estimated_cost <= 20_000:
        raise ToolError("estimated_cost must be above $0 and at most $20,000")
    if not 0 <= customer_charge <= estimated_cost:
        raise ToolError("customer_charge must be between 0 and the estimated cost")
    seed = f"{booking.booking_id}|{len(booking.damage_reports)}"
    report_id = new_code(db, "damage_reports", seed, prefix="DR")
    report = DamageReport(
        report_id,
        booking.booking_id,
        damage_type,
        area,
        tuple(names),
        cause,
        money(estimated_cost),
        money(customer_charge),
    )
    db.put("damage_reports", report_id, report)
    updated = msgspec.structs.replace(booking, damage_reports=(*booking.damage_reports, report_id))
    db.put("bookings", updated.booking_id, updated)
    return msgspec.to_builtins(report)  # type: ignore[no-any-return]


@tool(ToolKind.WRITE)
def waive_damage_charge(db: Database, booking_id: str, report_id: str) -> dict[str, Any]:
    """Set the customer charge of an open damage report to $0 and mark it waived.

    Args:
        booking_id: The booking code the report belongs to, e.g. "CR7KQ2MX".
        report_id: The damage report id, e.g. "DR482913".
    """
    booking = load_booking(db, booking_id)
    rid = report_id.strip().upper()
    if rid not in booking.damage_reports:
        raise ToolError(f"damage report {rid!r} is not on booking {booking.booking_id}")
    report: DamageReport = load(db, "damage_reports", rid, "damage report")
    if report.status != "open" or report.customer_charge == 0:
        raise ToolError(f"damage report {rid} has no charge to waive")
    updated = msgspec.structs.replace(report, customer_charge=0.0, status="waived")
    db.put("damage_reports", rid, updated)
    return msgspec.to_builtins(updated)  # type: ignore[no-any-return]
