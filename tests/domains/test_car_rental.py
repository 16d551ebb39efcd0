"""The car-rental domain's own rules: what its tools refuse, what they allow, the policy's figures.

Every rule the database enforces (no vehicle count below zero, return dates after pick-up dates,
refunds never above what was paid, existing records only, changes only in the right status) is
tested with a real call that is refused with an error outcome, next to its allowed counterpart.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from tau_sim.domains.car_rental import car_rental as make_car_rental
from tau_sim.domains.car_rental.data import (
    ACTIVE,
    CANCELLED,
    RESERVED,
    RETURNED,
    TODAY,
    Availability,
    Booking,
    DamageReport,
    User,
    availability_key,
    net_paid,
)
from tau_sim.domains.car_rental.factory.common import cancellation_refund
from tau_sim.domains.car_rental.rules import (
    ADD_ONS,
    FREE_CANCELLATION_HOURS,
    LATE_FEE_PER_HOUR,
    OTHER_CITY_FEE,
    SAME_CITY_FEE,
    YOUNG_DRIVER_SURCHARGE,
    late_fee,
)
from tau_sim.domains.kit.calc import age_on
from tau_sim.domains.kit.lookup import record as fetched
from tau_sim.simulator.world.database import Database
from tau_sim.simulator.world.domain import Domain
from tests.domains.calls import ok, refused

# ---- helpers ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def domain() -> Domain:
    built: Domain = make_car_rental()
    return built


def booking(db: Database, accept: Callable[[Booking], bool]) -> Booking:
    for _, b in db.items("bookings"):
        if accept(b):
            found: Booking = b
            return found
    raise AssertionError("no such booking in the base")


def card_of(db: Database, user_id: str) -> str:
    user: User = db.get("users", user_id)
    return next(m.id for m in user.payment_methods if m.source != "gift_card")


def has_card(db: Database, b: Booking) -> bool:
    user: User = db.get("users", b.user_id)
    return any(m.source != "gift_card" for m in user.payment_methods)


def free(db: Database, location: str, vehicle_class: str, day: dt.date) -> int:
    record: Availability = db.get(
        "availability", availability_key(location, vehicle_class, day.isoformat())
    )
    return record.available


def open_start(db: Database) -> dt.date:
    """The first day from which an economy car is free three days running at SEA-DT."""
    for n in range(3, 30):
        start = TODAY + dt.timedelta(days=n)
        if all(free(db, "SEA-DT", "economy", start + dt.timedelta(days=d)) for d in range(3)):
            return start
    raise AssertionError("no three free days")


def new_booking(db: Database, user_id: str, **changes: Any) -> dict[str, Any]:
    user: User = db.get("users", user_id)
    start = open_start(db)
    arguments: dict[str, Any] = {
        "user_id": user_id,
        "driver": {
            "first_name": user.name.first_name,
            "last_name": user.name.last_name,
            "birth_date": "1980-03-04",
            "license_number": "WA1234567",
        },
        "pickup_location": "SEA-DT",
        "return_location": "SEA-DT",
        "pickup_date": start.isoformat(),
        "return_date": (start + dt.timedelta(days=3)).isoformat(),
        "vehicle_class": "economy",
        "add_ons": [],
        "young_driver_surcharge": False,
        "payment_method_id": card_of(db, user_id),
    }
    arguments.update(changes)
    return arguments


def a_user(db: Database) -> str:
    for uid, user in db.items("users"):
        if any(m.source != "gift_card" for m in user.payment_methods):
            return str(uid)
    raise AssertionError("no user with a card")


# ---- availability ----------------------------------------------------------------------------


def test_a_booking_takes_one_vehicle_a_day_and_never_below_zero(domain: Domain) -> None:
    db = domain.new_database()
    uid = a_user(db)
    start = open_start(db)
    zero = next(
        (loc, cls, day)
        for _, a in db.items("availability")
        if a.available == 0
        and (day := dt.date.fromisoformat(a.date)) > TODAY
        and (loc := a.location)
        and (cls := a.vehicle_class)
    )
    loc, cls, day = zero
    message = refused(
        domain,
        db,
        "create_booking",
        **new_booking(
            db,
            uid,
            pickup_location=loc,
            return_location=loc,
            vehicle_class=cls,
            pickup_date=day.isoformat(),
            return_date=(day + dt.timedelta(days=1)).isoformat(),
        ),
    )
    assert f"no {cls} vehicle is available at {loc} on {day.isoformat()}" in message
    before = [free(db, "SEA-DT", "economy", start + dt.timedelta(days=n)) for n in range(3)]
    assert min(before) > 0
    made = ok(domain, db, "create_booking", **new_booking(db, uid))
    after = [free(db, "SEA-DT", "economy", start + dt.timedelta(days=n)) for n in range(3)]
    assert after == [n - 1 for n in before]
    assert made["status"] == RESERVED and made["rental_days"] == 3
    assert made["net_paid"] == made["daily_rate"] * 3


def test_the_charge_adds_add_ons_surcharge_and_one_way_fee(domain: Domain) -> None:
    db = domain.new_database()
    uid = a_user(db)
    made = ok(
        domain,
        db,
        "create_booking",
        **new_booking(
            db,
            uid,
            return_location="PDX-AP",
            add_ons=["collision_damage_waiver", "gps"],
            young_driver_surcharge=True,
        ),
    )
    # SEA-DT economy $42 + waiver $19 + GPS $9 + surcharge $27, three days, plus $150 one way
    assert made["net_paid"] == (42 + 19 + 9 + 27) * 3 + 150
    assert made["one_way_fee"] == 150.0


def test_dates_must_be_in_order_and_not_in_the_past(domain: Domain) -> None:
    db = domain.new_database()
    uid = a_user(db)
    day = open_start(db).isoformat()
    assert "after pickup_date" in refused(
        domain, db, "create_booking", **new_booking(db, uid, return_date=day)
    )
    past = (TODAY - dt.timedelta(days=1)).isoformat()
    assert "in the past" in refused(
        domain, db, "create_booking", **new_booking(db, uid, pickup_date=past)
    )
    assert "not a date" in refused(
        domain, db, "create_booking", **new_booking(db, uid, return_date="next friday")
    )


# ---- extensions ------------------------------------------------------------------------------


def test_an_extension_must_move_the_return_date_later_and_pays_each_extra_day(
    domain: Domain,
) -> None:
    db = domain.new_database()
    b = booking(
        db,
        lambda b: (
            b.status == ACTIVE
            and b.return_date > TODAY.isoformat()
            and has_card(db, b)
            and free(db, b.pickup_location, b.vehicle_class, dt.date.fromisoformat(b.return_date))
            > 0
        ),
    )
    card = card_of(db, b.user_id)
    refused(
        domain,
        db,
        "extend_booking",
        "must be after the current return date",
        booking_id=b.booking_id,
        new_return_date=b.return_date,
        payment_method_id=card,
    )
    later = (dt.date.fromisoformat(b.return_date) + dt.timedelta(days=1)).isoformat()
    done = ok(
        domain,
        db,
        "extend_booking",
        booking_id=b.booking_id,
        new_return_date=later,
        payment_method_id=card,
    )
    per_day = b.daily_rate + (27 if b.young_driver_surcharge else 0)
    per_day += sum(
        {"collision_damage_waiver": 19, "liability_protection": 14, "gps": 9, "child_seat": 11}[a]
        for a in b.add_ons
    )
    assert done["return_date"] == later
    assert done["net_paid"] == pytest.approx(net_paid(b) + per_day)


def test_an_extension_needs_a_vehicle_every_extra_day(domain: Domain) -> None:
    db = domain.new_database()

    def blocked(b: Booking) -> bool:
        if b.status not in (RESERVED, ACTIVE) or not has_card(db, b):
            return False
        end = dt.date.fromisoformat(b.return_date)
        return end < dt.date(2026, 7, 15) and free(db, b.pickup_location, b.vehicle_class, end) == 0

    b = booking(db, blocked)
    later = (dt.date.fromisoformat(b.return_date) + dt.timedelta(days=1)).isoformat()
    full = f"no {b.vehicle_class} vehicle is available at {b.pickup_location} on {b.return_date}"
    assert full in refused(
        domain,
        db,
        "extend_booking",
        booking_id=b.booking_id,
        new_return_date=later,
        payment_method_id=card_of(db, b.user_id),
    )


# ---- cancellations and refunds ---------------------------------------------------------------


def test_a_refund_never_exceeds_what_was_paid_and_frees_the_vehicle(domain: Domain) -> None:
    db = domain.new_database()
    b = booking(db, lambda b: b.status == RESERVED)
    paid = net_paid(b)
    assert "above" in refused(
        domain, db, "cancel_booking", booking_id=b.booking_id, refund_amount=paid + 0.01
    )
    assert "negative" in refused(
        domain, db, "cancel_booking", booking_id=b.booking_id, refund_amount=-1.0
    )
    day = dt.date.fromisoformat(b.pickup_date)
    before = free(db, b.pickup_location, b.vehicle_class, day)
    done = ok(domain, db, "cancel_booking", booking_id=b.booking_id, refund_amount=paid)
    assert done["status"] == CANCELLED and done["net_paid"] == 0.0
    assert free(db, b.pickup_location, b.vehicle_class, day) == before + 1
    refused(
        domain,
        db,
        "cancel_booking",
        f"is {CANCELLED}: it cannot be cancelled",
        booking_id=b.booking_id,
        refund_amount=0.0,
    )


def test_only_a_booking_not_picked_up_can_be_cancelled_or_upgraded(domain: Domain) -> None:
    db = domain.new_database()
    b = booking(db, lambda b: b.status == ACTIVE and has_card(db, b))
    assert f"is {ACTIVE}: it cannot be cancelled" in refused(
        domain, db, "cancel_booking", booking_id=b.booking_id, refund_amount=0.0
    )
    assert f"is {ACTIVE}: it cannot be changed to another class" in refused(
        domain,
        db,
        "change_vehicle_class",
        booking_id=b.booking_id,
        vehicle_class="economy" if b.vehicle_class != "economy" else "compact",
        payment_method_id=card_of(db, b.user_id),
    )
    assert "not found" in refused(
        domain, db, "cancel_booking", booking_id="CRNOSUCH", refund_amount=0.0
    )


def test_the_48_hour_window_keeps_one_day_of_rate() -> None:
    domain = make_car_rental()
    db = domain.new_database()
    early = booking(
        db,
        lambda b: (
            b.status == RESERVED and b.pickup_date == (TODAY + dt.timedelta(days=2)).isoformat()
        ),
    )
    late = booking(
        db,
        lambda b: (
            b.status == RESERVED and b.pickup_date == (TODAY + dt.timedelta(days=1)).isoformat()
        ),
    )
    assert cancellation_refund(early) == (net_paid(early), False)  # 49 hours ahead
    assert cancellation_refund(late) == (round(net_paid(late) - late.daily_rate, 2), True)


# ---- late returns and damage -----------------------------------------------------------------


def test_late_fee_is_per_hour_up_to_one_day_of_rate(domain: Domain) -> None:
    assert late_fee(2, 42.0) == (30.0, 30.0)
    assert late_fee(7, 56.0) == (105.0, 56.0)
    db = domain.new_database()
    b = booking(db, lambda b: b.status == ACTIVE and not b.late_hours and has_card(db, b))
    card = card_of(db, b.user_id)
    args = {"booking_id": b.booking_id, "payment_method_id": card}
    assert "extension" in refused(
        domain, db, "record_late_return", hours_late=26, late_fee=40.0, **args
    )
    assert "per hour" in refused(
        domain, db, "record_late_return", hours_late=2, late_fee=31.0, **args
    )
    done = ok(domain, db, "record_late_return", hours_late=2, late_fee=30.0, **args)
    assert done["late_hours"] == 2 and done["net_paid"] == pytest.approx(net_paid(b) + 30.0)
    assert "already has a late return recorded" in refused(
        domain, db, "record_late_return", hours_late=1, late_fee=15.0, **args
    )
    returned = booking(db, lambda b: b.status == RETURNED and has_card(db, b))
    refused(
        domain,
        db,
        "record_late_return",
        f"is {RETURNED}: it cannot be returned late",
        booking_id=returned.booking_id,
        hours_late=1,
        late_fee=15.0,
        payment_method_id=card_of(db, returned.user_id),
    )


def test_a_damage_report_charges_at_most_the_estimate_on_a_rental_on_the_road(
    domain: Domain,
) -> None:
    db = domain.new_database()
    b = booking(db, lambda b: b.status == ACTIVE)
    report = {
        "booking_id": b.booking_id,
        "damage_type": "scratch",
        "area": "rear",
        "photos": ["IMG_1001.jpg"],
        "cause": "collision",
        "estimated_cost": 200.0,
    }
    assert "between 0" in refused(domain, db, "file_damage_report", customer_charge=250.0, **report)
    assert "photos" in refused(
        domain, db, "file_damage_report", customer_charge=0.0, **{**report, "photos": []}
    )
    reserved = booking(db, lambda b: b.status == RESERVED)
    refused(
        domain,
        db,
        "file_damage_report",
        f"is {RESERVED}: it cannot be given a damage report",
        customer_charge=0.0,
        **{**report, "booking_id": reserved.booking_id},
    )
    filed = ok(domain, db, "file_damage_report", customer_charge=200.0, **report)
    stored: DamageReport = db.get("damage_reports", filed["report_id"])
    assert stored.customer_charge == 200.0 and stored.photos == ("IMG_1001.jpg",)
    assert filed["report_id"] in db.get("bookings", b.booking_id).damage_reports


def test_a_damage_charge_is_waived_only_on_its_own_booking(domain: Domain) -> None:
    db = domain.new_database()
    b = booking(
        db,
        lambda b: any(db.get("damage_reports", r).customer_charge > 0 for r in b.damage_reports),
    )
    rid = next(r for r in b.damage_reports if db.get("damage_reports", r).customer_charge > 0)
    other = booking(db, lambda o: o.booking_id != b.booking_id and o.status == RETURNED)
    assert "not on booking" in refused(
        domain, db, "waive_damage_charge", booking_id=other.booking_id, report_id=rid
    )
    done = ok(domain, db, "waive_damage_charge", booking_id=b.booking_id, report_id=rid)
    assert done["customer_charge"] == 0.0 and done["status"] == "waived"
    refused(
        domain,
        db,
        "waive_damage_charge",
        f"{rid} has no charge to waive",
        booking_id=b.booking_id,
        report_id=rid,
    )


# ---- the base and its ages -------------------------------------------------------------------


def test_base_bookings_follow_the_age_rules(domain: Domain) -> None:
    db = domain.new_database()
    bookings: list[Booking] = [b for _, b in db.items("bookings")]
    assert len(bookings) >= 500
    for b in bookings:
        age = age_on(b.driver.birth_date, dt.date.fromisoformat(b.pickup_date))
        assert age >= 21, b.booking_id
        assert b.young_driver_surcharge == (age < 25), b.booking_id
        if age < 25:
            assert b.vehicle_class not in ("premium", "luxury"), b.booking_id
    assert age_on("2001-06-11", TODAY) == 24 and age_on("2001-06-10", TODAY) == 25


# ---- the hard tier's reads and policy rules ----------------------------------------------------


def test_a_users_bookings_are_listed_and_an_unknown_user_is_refused(domain: Domain) -> None:
    db = domain.new_database()
    uid = next(str(u) for u, user in db.items("users") if len(user.bookings) >= 2)
    user: User = fetched(db, "users", uid)
    listed = ok(domain, db, "list_user_bookings", user_id=uid)
    assert [b["booking_id"] for b in listed] == list(user.bookings)
    first: Booking = fetched(db, "bookings", user.bookings[0])
    assert listed[0]["pickup_date"] == first.pickup_date
    assert listed[0]["status"] == first.status
    refused(domain, db, "list_user_bookings", "user", user_id="nobody_0000")


def test_the_policy_marks_every_refusal_rule_a_task_tests(domain: Domain) -> None:
    rules = domain.policy_rules
    assert set(rules) == {
        "others-booking",
        "min-driver-age-21",
        "premium-min-age-25",
        "late-cancellation-fee",
        "damage-over-limit-transfer",
        "damage-dispute-transfer",
        "waiver-claim-checked",
    }
    tested = {rule for task in domain.tasks for rule in domain.rules_of(task)}
    assert tested == set(rules)


def test_hard_tasks_describe_their_bookings_and_the_description_is_unique(
    domain: Domain,
) -> None:
    db = domain.new_database()
    described = [
        (task, words)
        for task in domain.tasks
        if task.tier == "hard" and (words := task.scenario.known_info.get("rental")) is not None
    ]
    assert len(described) >= 10
    for task, words in described:
        meant = next(
            a.arguments["booking_id"] for a in task.actions if a.name == "get_booking_details"
        )
        assert meant not in " ".join(task.scenario.known_info.values()), task.id
        b: Booking = fetched(db, "bookings", meant)
        user: User = fetched(db, "users", b.user_id)
        others = [fetched(db, "bookings", c) for c in user.bookings if c != meant]
        assert len(others) >= 1, task.id
        assert all(o.pickup_date not in words or o.pickup_location not in words for o in others)


def test_the_policy_states_the_prices_the_tools_charge(domain: Domain) -> None:
    """The figures the tests above restate by hand are the tools' and the policy's both."""
    rows = [line for line in domain.policy.splitlines() if line.startswith("| ")]
    for name, price in ADD_ONS.items():  # its row of the add-on table names its price
        assert any(r.startswith(f"| {name}") and r.endswith(f"| ${price:.0f} |") for r in rows)
    for figure in (
        f"young-driver surcharge of ${YOUNG_DRIVER_SURCHARGE:.0f} per rental day",
        f"${SAME_CITY_FEE:.0f} for another branch of",
        f"${OTHER_CITY_FEE:.0f} for a branch in another city",
        f"**{FREE_CANCELLATION_HOURS} hours or more before the pick-up time**",
        f"**${LATE_FEE_PER_HOUR:.0f} per started",
    ):
        assert figure in domain.policy, figure
