"""The hotel domain's own rules: what its tools refuse, what they allow, and the policy's figures.

Every rule the database enforces (rooms never below zero on any night, refunds never above what
was paid, points never below zero, gift card balances, upgrades only upwards, goodwill once and
capped) is tested with a real call that is refused with an error outcome, next to its allowed
counterpart.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from tau_sim.domains.hotel import hotel as make_hotel
from tau_sim.domains.hotel.data import (
    CANCELLED,
    CHECKED_IN,
    CHECKED_OUT,
    CONFIRMED,
    NOT_CLEANED,
    TODAY,
    Guest,
    Night,
    Reservation,
    net_paid,
    night_key,
)
from tau_sim.domains.hotel.factory.common import cancellation_refund, upgrade_due
from tau_sim.domains.hotel.rules import (
    EARN_PER_NIGHT,
    FREE_CANCELLATION_HOURS,
    GOODWILL_CAP,
    GOODWILL_PER_NIGHT,
    MEMBER_TIERS,
    POINTS_PER_NIGHT,
    goodwill_points,
)
from tau_sim.domains.kit.lookup import record as fetched
from tau_sim.domains.kit.payments import PaymentMethod
from tau_sim.simulator.world.database import Database
from tau_sim.simulator.world.domain import Domain
from tests.domains.calls import ok, refused

# ---- helpers ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def domain() -> Domain:
    built: Domain = make_hotel()
    return built


def first(db: Database, table: str, accept: Callable[[Any], bool]) -> Any:
    for _, value in db.items(table):
        if accept(value):
            return value
    raise AssertionError(f"nothing in {table} fits")


def rooms(db: Database, pid: str, room: str, date: str) -> int:
    night: Night = db.get("nights", night_key(pid, room, date))
    return night.rooms_left


def set_rooms(db: Database, pid: str, room: str, date: str, left: int) -> None:
    night: Night = db.get("nights", night_key(pid, room, date))
    db.put("nights", night_key(pid, room, date), msgspec.structs.replace(night, rooms_left=left))


def card(user: Guest) -> PaymentMethod:
    return next(m for m in user.payment_methods if m.source != "gift_card")


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def upcoming(r: Reservation) -> bool:
    return r.status == CONFIRMED and r.check_in > TODAY.isoformat()


def booking(user: Guest, check_in: str, check_out: str, **extra: Any) -> dict[str, Any]:
    return {
        "user_id": user.user_id,
        "property_id": "SEA01",
        "room_type": "standard",
        "check_in": check_in,
        "check_out": check_out,
        "rate_plan": "flexible",
        "guests": 2,
        "payment_method_id": card(user).id,
        "special_requests": [],
        **extra,
    }


def a_user(db: Database) -> Guest:
    user: Guest = first(
        db, "users", lambda u: any(m.source != "gift_card" for m in u.payment_methods)
    )
    return user


# ---- the base --------------------------------------------------------------------------------


def test_the_base_is_a_world_of_hundreds_of_stays_in_every_status(domain: Domain) -> None:
    db = domain.new_database()
    reservations: list[Reservation] = [r for _, r in db.items("reservations")]
    assert len(reservations) >= 500
    assert {r.status for r in reservations} == {CONFIRMED, CHECKED_IN, CHECKED_OUT, CANCELLED}
    assert {r.rate_plan for r in reservations} == {"flexible", "member", "non_refundable"}
    assert any(r.incident for r in reservations if r.status == CHECKED_OUT)
    users: dict[str, Guest] = dict(db.items("users"))
    assert all(
        users[r.user_id].tier in MEMBER_TIERS for r in reservations if r.rate_plan == "member"
    )
    assert len(list(db.keys("properties"))) == 8


def test_booking_takes_a_room_every_night_and_never_below_zero(domain: Domain) -> None:
    db = domain.new_database()
    user = a_user(db)
    dates = [day(10), day(11)]
    for d in dates:
        set_rooms(db, "SEA01", "standard", d, 1)
    set_rooms(db, "SEA01", "standard", day(12), 0)
    message = refused(domain, db, "book_reservation", **booking(user, day(11), day(13)))
    assert "no standard room left" in message and day(12) in message
    booked = ok(domain, db, "book_reservation", **booking(user, day(10), day(12)))
    assert [n["date"] for n in booked["nights"]] == dates
    assert all(rooms(db, "SEA01", "standard", d) == 0 for d in dates)
    rates = [db.get("nights", night_key("SEA01", "standard", d)).rate for d in dates]
    assert [n["price"] for n in booked["nights"]] == rates  # flexible: the nightly rate
    assert booked["net_paid"] == round(sum(rates), 2)
    full = f"no standard room left at SEA01 on the night of {day(10)}"
    assert full in refused(domain, db, "book_reservation", **booking(user, day(10), day(11)))


def test_booking_refuses_past_dates_too_many_guests_and_an_empty_gift_card(
    domain: Domain,
) -> None:
    db = domain.new_database()
    user = a_user(db)
    assert "before today" in refused(
        domain, db, "book_reservation", **booking(user, day(-1), day(1))
    )
    assert "1 to 2 guests" in refused(
        domain, db, "book_reservation", **booking(user, day(5), day(6), guests=3)
    )
    assert "at most 14 nights" in refused(
        domain, db, "book_reservation", **booking(user, day(1), day(16))
    )
    set_rooms(db, "SEA01", "standard", day(5), 3)
    gift = PaymentMethod("gift_card_9999999", "gift_card", balance=10.0)
    poor = msgspec.structs.replace(user, payment_methods=(*user.payment_methods, gift))
    db.put("users", user.user_id, poor)
    assert "gift card gift_card_9999999 balance $10.00 is below" in refused(
        domain,
        db,
        "book_reservation",
        **booking(user, day(5), day(6), payment_method_id=gift.id),
    )
    ok(domain, db, "book_reservation", **booking(user, day(5), day(6), guests=2))


def test_a_refund_never_exceeds_what_was_paid(domain: Domain) -> None:
    db = domain.new_database()
    r: Reservation = first(db, "reservations", upcoming)
    paid = net_paid(r)
    message = refused(
        domain, db, "cancel_reservation", reservation_id=r.reservation_id, refund_amount=paid + 0.01
    )
    assert f"above the ${paid:.2f} paid" in message
    refused(
        domain,
        db,
        "cancel_reservation",
        "must not be negative",
        reservation_id=r.reservation_id,
        refund_amount=-1.0,
    )
    before = {n.date: rooms(db, r.property_id, r.room_type, n.date) for n in r.nights}
    done = ok(domain, db, "cancel_reservation", reservation_id=r.reservation_id, refund_amount=paid)
    assert done["status"] == CANCELLED and done["net_paid"] == 0.0
    assert all(rooms(db, r.property_id, r.room_type, d) == n + 1 for d, n in before.items())
    refused(
        domain,
        db,
        "cancel_reservation",
        f"is {CANCELLED}: it cannot be cancelled",
        reservation_id=r.reservation_id,
        refund_amount=0.0,
    )


def test_a_completed_stay_cannot_be_cancelled_or_changed(domain: Domain) -> None:
    db = domain.new_database()
    r: Reservation = first(db, "reservations", lambda r: r.status == CHECKED_OUT)
    rid = r.reservation_id
    assert "checked_out" in refused(
        domain, db, "cancel_reservation", reservation_id=rid, refund_amount=0.0
    )
    assert "checked_out" in refused(
        domain, db, "add_special_request", reservation_id=rid, request="crib"
    )


def test_a_date_change_needs_a_room_on_every_new_night_and_keeps_shared_prices(
    domain: Domain,
) -> None:
    db = domain.new_database()
    r: Reservation = first(
        db, "reservations", lambda r: upcoming(r) and len(r.nights) >= 2 and r.check_out < day(30)
    )
    user: Guest = db.get("users", r.user_id)
    out = r.check_out
    set_rooms(db, r.property_id, r.room_type, out, 0)
    later = (dt.date.fromisoformat(out) + dt.timedelta(days=1)).isoformat()
    args = {"reservation_id": r.reservation_id, "payment_method_id": card(user).id}
    full = f"no {r.room_type} room left at {r.property_id} on the night of {out}"
    assert full in refused(
        domain, db, "change_reservation_dates", check_in=r.check_in, check_out=later, **args
    )
    set_rooms(db, r.property_id, r.room_type, out, 1)
    moved = ok(domain, db, "change_reservation_dates", check_in=r.check_in, check_out=later, **args)
    assert [n["price"] for n in moved["nights"][:-1]] == [n.price for n in r.nights]
    assert rooms(db, r.property_id, r.room_type, out) == 0
    added = moved["nights"][-1]["price"]
    assert moved["net_paid"] == round(net_paid(r) + added, 2)
    shorter = (dt.date.fromisoformat(r.check_in) + dt.timedelta(days=1)).isoformat()
    back = ok(
        domain, db, "change_reservation_dates", check_in=r.check_in, check_out=shorter, **args
    )
    assert back["net_paid"] == r.nights[0].price
    assert rooms(db, r.property_id, r.room_type, out) == 1


def test_an_upgrade_only_goes_up_and_is_complimentary_once(domain: Domain) -> None:
    db = domain.new_database()
    r: Reservation = first(db, "reservations", lambda r: upcoming(r) and r.room_type == "standard")
    user: Guest = db.get("users", r.user_id)
    for n in r.nights:
        for room in ("deluxe", "suite"):
            set_rooms(db, r.property_id, room, n.date, 2)
    args = {"reservation_id": r.reservation_id, "payment_method_id": card(user).id}
    free = ok(domain, db, "upgrade_room", room_type="deluxe", complimentary=True, **args)
    assert free["net_paid"] == net_paid(r) and free["complimentary_upgrade"]
    assert "not above" in refused(
        domain, db, "upgrade_room", room_type="deluxe", complimentary=False, **args
    )
    assert "already had" in refused(
        domain, db, "upgrade_room", room_type="suite", complimentary=True, **args
    )
    paid = ok(domain, db, "upgrade_room", room_type="suite", complimentary=False, **args)
    assert paid["room_type"] == "suite" and paid["net_paid"] > net_paid(r)
    assert paid["net_paid"] == round(sum(n["price"] for n in paid["nights"]), 2)


def test_points_pay_a_night_only_up_to_the_balance(domain: Domain) -> None:
    db = domain.new_database()
    r: Reservation = first(
        db,
        "reservations",
        lambda r: upcoming(r) and r.rate_plan != "non_refundable" and r.room_type == "standard",
    )
    user: Guest = db.get("users", r.user_id)
    db.put("users", user.user_id, msgspec.structs.replace(user, points=25_000))
    night = r.nights[0]
    args = {"reservation_id": r.reservation_id, "night": night.date}
    assert "25,000 points" in refused(domain, db, "redeem_points_for_night", points=30_000, **args)
    refused(domain, db, "redeem_points_for_night", "points must be above zero", points=0, **args)
    assert "not a night" in refused(
        domain,
        db,
        "redeem_points_for_night",
        reservation_id=r.reservation_id,
        night=day(60),
        points=20_000,
    )
    done = ok(domain, db, "redeem_points_for_night", points=POINTS_PER_NIGHT["standard"], **args)
    assert done["points_balance"] == 5_000 and done["nights"][0]["points"] == 20_000
    assert done["net_paid"] == round(net_paid(r) - night.price, 2)
    assert "already paid with points" in refused(
        domain, db, "redeem_points_for_night", points=1_000, **args
    )


def test_goodwill_points_go_to_checked_out_stays_once_and_capped(domain: Domain) -> None:
    db = domain.new_database()
    stay: Reservation = first(db, "reservations", lambda r: r.status == CHECKED_OUT)
    future: Reservation = first(db, "reservations", upcoming)
    assert "checked-out" in refused(
        domain, db, "credit_goodwill_points", reservation_id=future.reservation_id, points=1_000
    )
    rid = stay.reservation_id
    refused(
        domain, db, "credit_goodwill_points", "at most 10,000", reservation_id=rid, points=10_001
    )
    user: Guest = db.get("users", stay.user_id)
    done = ok(domain, db, "credit_goodwill_points", reservation_id=rid, points=3_000)
    assert done["points_balance"] == user.points + 3_000
    assert "already received goodwill points" in refused(
        domain, db, "credit_goodwill_points", reservation_id=rid, points=1_000
    )


def test_a_special_request_is_recorded_once(domain: Domain) -> None:
    db = domain.new_database()
    r: Reservation = first(db, "reservations", lambda r: upcoming(r) and not r.special_requests)
    done = ok(domain, db, "add_special_request", reservation_id=r.reservation_id, request="crib")
    assert done["special_requests"] == ["crib"]
    assert "already has crib" in refused(
        domain, db, "add_special_request", reservation_id=r.reservation_id, request="crib"
    )


# ---- the policy's figures --------------------------------------------------------------------


def _stay(check_in: str, plan: str) -> Reservation:
    return msgspec.convert(
        {
            "reservation_id": "TEST01",
            "user_id": "u",
            "property_id": "SEA01",
            "room_type": "standard",
            "check_in": check_in,
            "check_out": day(30),
            "rate_plan": plan,
            "guests": 1,
            "nights": [{"date": check_in, "price": 100.0}, {"date": day(29), "price": 120.0}],
            "payment_history": [
                {"transaction_type": "payment", "amount": 220.0, "payment_method_id": "m"}
            ],
            "created_at": "2026-07-01T10:00",
            "status": CONFIRMED,
        },
        type=Reservation,
    )


@pytest.mark.parametrize(
    ("offset", "plan", "refund"),
    [
        (2, "flexible", 220.0),  # 48 h before 15:00 in two days is today 15:00: still free
        (1, "flexible", 120.0),  # inside the 48 h window: the first night is kept
        (1, "member", 220.0),  # 24 h window: tomorrow 15:00 minus 24 h is today 15:00
        (0, "member", 120.0),
        (5, "non_refundable", 0.0),
    ],
)
def test_cancellation_windows_by_rate_plan(offset: int, plan: str, refund: float) -> None:
    assert cancellation_refund(_stay(day(offset), plan))[0] == refund


def test_goodwill_is_per_night_and_capped_and_upgrades_are_free_one_level_for_gold() -> None:
    assert goodwill_points(3) == (3_000, 3_000)
    assert goodwill_points(7) == (7_000, 5_000)
    assert upgrade_due("gold", "standard", "deluxe")
    assert not upgrade_due("gold", "standard", "suite")
    assert not upgrade_due("silver", "deluxe", "suite")


def test_gold_paths_follow_the_policy(domain: Domain) -> None:
    db = domain.new_database()
    member = [
        (task, action)
        for task in domain.tasks
        for action in task.actions
        if action.name == "book_reservation" and action.arguments["rate_plan"] == "member"
    ]
    assert member  # the check below runs over some gold member-rate booking
    for task, action in member:
        user: Guest = db.get("users", action.arguments["user_id"])
        assert user.tier in MEMBER_TIERS, task.id
    refunds = [t for t in domain.tasks if t.intent == "non_refundable_refund_refused"]
    transfers = [t for t in domain.tasks if t.intent == "bad_stay_compensation_transfer"]
    assert refunds and transfers
    assert all(t.required_outputs == ["non-refundable"] for t in refunds)
    assert all(t.actions[-1].name == "transfer_to_human_agents" for t in transfers)


# ---- the hard tier's reads and policy rules ----------------------------------------------------


def test_a_guests_reservations_are_listed_and_an_unknown_guest_is_refused(
    domain: Domain,
) -> None:
    db = domain.new_database()
    guest: Guest = first(db, "users", lambda u: len(u.reservations) >= 2)
    listed = ok(domain, db, "list_user_reservations", user_id=guest.user_id)
    assert [r["reservation_id"] for r in listed] == list(guest.reservations)
    head: Reservation = fetched(db, "reservations", guest.reservations[0])
    assert (listed[0]["check_in"], listed[0]["status"]) == (head.check_in, head.status)
    refused(domain, db, "list_user_reservations", "user", user_id="nobody_0000")


def test_checked_out_stays_carry_their_housekeeping_log(domain: Domain) -> None:
    db = domain.new_database()
    for _, r in db.items("reservations"):
        if r.status != CHECKED_OUT or r.incident == NOT_CLEANED:
            assert r.housekeeping == ()
        else:
            assert r.housekeeping == tuple(n.date for n in r.nights)
    cleaned: Reservation = first(db, "reservations", lambda r: r.housekeeping)
    shown = ok(domain, db, "get_reservation_details", reservation_id=cleaned.reservation_id)
    assert shown["housekeeping"] == list(cleaned.housekeeping)


def test_the_policy_marks_every_refusal_rule_a_task_tests(domain: Domain) -> None:
    rules = domain.policy_rules
    assert set(rules) == {
        "others-reservation",
        "member-rate-tiers",
        "non-refundable-no-refund",
        "non-refundable-no-date-change",
        "late-cancellation-first-night",
        "non-refundable-no-points",
        "goodwill-needs-incident",
        "completed-stay-transfer",
    }
    tested = {rule for task in domain.tasks for rule in domain.rules_of(task)}
    assert tested == set(rules)


def test_hard_tasks_describe_their_stays_without_codes(domain: Domain) -> None:
    db = domain.new_database()
    described = [t for t in domain.tasks if t.tier == "hard" and "stay" in t.scenario.known_info]
    assert len(described) >= 10
    for task in described:
        meant = next(
            a.arguments["reservation_id"]
            for a in task.actions
            if a.name == "get_reservation_details"
        )
        assert meant not in " ".join(task.scenario.known_info.values()), task.id
        r: Reservation = fetched(db, "reservations", meant)
        guest: Guest = fetched(db, "users", r.user_id)
        assert len(guest.reservations) >= 2, task.id


def test_the_policy_states_the_points_and_windows_the_tools_use(domain: Domain) -> None:
    earn = EARN_PER_NIGHT
    redeem = POINTS_PER_NIGHT
    for figure in (
        f"**{earn['blue']:,}** points for blue, **{earn['silver']:,}** for silver",
        f"**{redeem['standard']:,}** points a night for a standard room",
        f"**{redeem['deluxe']:,}** for a deluxe room",
        f"**{redeem['suite']:,}** for a suite",
        f"**{GOODWILL_PER_NIGHT:,} goodwill points per night**",
        f"at most **{GOODWILL_CAP:,}** points",
        f"Free cancellation until **{FREE_CANCELLATION_HOURS['flexible']} hours**",
        f"Free cancellation until **{FREE_CANCELLATION_HOURS['member']} hours**",
    ):
        assert figure in domain.policy, figure
