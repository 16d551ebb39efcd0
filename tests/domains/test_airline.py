"""The airline domain's own rules: what its tools refuse, what they allow, and the policy's figures.

Every rule the database enforces (seats never below zero, gift card balances, refunds never above
what was paid, compensation only for disrupted flights, bags only added) is tested with a real
call that is refused with an error outcome, next to its allowed counterpart.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from tau_sim.domains.airline import airline as make_airline
from tau_sim.domains.airline.data import (
    ACTIVE,
    CANCELLED,
    NOW,
    TODAY,
    Flight,
    Reservation,
    User,
    flight_key,
    net_paid,
)
from tau_sim.domains.airline.rules import (
    CANCELLED_RATE,
    COMPENSATION_CAP,
    DELAY_RATE,
    compensation,
    nonfree_bags,
)
from tau_sim.domains.kit.lookup import record
from tau_sim.simulator.core.registry import DOMAINS
from tau_sim.simulator.world.database import Database
from tau_sim.simulator.world.domain import Domain
from tests.domains.calls import ok, refused

# ---- helpers ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def domain() -> Domain:
    built: Domain = make_airline()
    return built


def first(db: Database, table: str, accept: Callable[[Any], bool]) -> Any:
    for _, value in db.items(table):
        if accept(value):
            return value
    raise AssertionError(f"nothing in {table} fits")


def day(date: str) -> dt.date:
    return dt.date.fromisoformat(date)


def upcoming(r: Reservation) -> bool:
    return r.status == ACTIVE and all(day(s.date) > TODAY for s in r.flights)


def seats(db: Database, number: str, date: str, cabin: str) -> int:
    flight: Flight | None = db.get("flights", flight_key(number, date))
    assert flight is not None
    fare = flight.fare(cabin)
    assert fare is not None
    return fare.seats_left


def user_of(db: Database, r: Reservation) -> User:
    user: User | None = db.get("users", r.user_id)
    assert user is not None
    return user


def card(user: User) -> str:
    return next(m.id for m in user.payment_methods if m.source != "gift_card")


def future_flight(db: Database, accept: Callable[[Flight], bool]) -> Flight:
    found: Flight = first(
        db, "flights", lambda f: day(f.date) > TODAY and f.status != CANCELLED and accept(f)
    )
    return found


def a_user(db: Database, accept: Callable[[User], bool] = lambda u: True) -> User:
    found: User = first(
        db, "users", lambda u: any(m.source != "gift_card" for m in u.payment_methods) and accept(u)
    )
    return found


PASSENGER = {"first_name": "Ava", "last_name": "Smith", "dob": "1990-04-02"}


def booking(
    user: User, flight: Flight, cabin: str, passengers: int, **extra: Any
) -> dict[str, Any]:
    args: dict[str, Any] = {
        "user_id": user.user_id,
        "origin": flight.origin,
        "destination": flight.destination,
        "trip_type": "one_way",
        "cabin": cabin,
        "flights": [{"flight_number": flight.flight_number, "date": flight.date}],
        "passengers": [PASSENGER] * passengers,
        "payment_method_id": card(user),
        "total_baggages": 0,
        "nonfree_baggages": 0,
        "insurance": False,
    }
    return {**args, **extra}


# ---- the base --------------------------------------------------------------------------------


def test_registered_with_a_world_of_hundreds(domain: Domain) -> None:
    assert DOMAINS["airline"] is make_airline
    tables = domain.base.tables
    assert len(tables["flights"]) >= 1000 and len(tables["reservations"]) >= 500
    assert len(tables["users"]) >= 200
    flights: list[Flight] = list(tables["flights"].values())
    dates = sorted({f.date for f in flights})
    assert (day(dates[-1]) - day(dates[0])).days >= 28, "flights over several weeks"
    assert {f.status for f in flights} == {"landed", "scheduled", "delayed", "cancelled"}
    assert all(fare.seats_left >= 0 for f in flights for fare in f.fares)
    tiers = {u.membership for u in tables["users"].values()}
    assert tiers == {"regular", "silver", "gold"}


def test_every_user_owns_the_reservations_listed_on_the_profile(domain: Domain) -> None:
    tables = domain.base.tables
    for user in tables["users"].values():
        for code in user.reservations:
            assert tables["reservations"][code].user_id == user.user_id


# ---- booking ---------------------------------------------------------------------------------


def test_booking_takes_seats_and_charges_fares_insurance_and_bags(domain: Domain) -> None:
    db = domain.new_database()
    flight = future_flight(db, lambda f: (f.fare("economy") or f.fares[0]).seats_left >= 3)
    user = a_user(db)
    before = seats(db, flight.flight_number, flight.date, "economy")
    price = flight.fare("economy").price  # type: ignore[union-attr]
    booked = ok(
        domain,
        db,
        "book_reservation",
        **booking(user, flight, "economy", 2, total_baggages=3, nonfree_baggages=1, insurance=True),
    )
    assert booked["payment_history"] == [
        {
            "transaction_type": "payment",
            "amount": round(price * 2 + 30 * 2 + 50, 2),
            "payment_method_id": card(user),
        }
    ]
    assert seats(db, flight.flight_number, flight.date, "economy") == before - 2
    owner: User | None = db.get("users", user.user_id)
    assert owner is not None and booked["reservation_id"] in owner.reservations
    # same calls, same database: the new reservation code is deterministic
    again = domain.new_database()
    args = booking(user, flight, "economy", 2, total_baggages=3, nonfree_baggages=1, insurance=True)
    assert (
        ok(domain, again, "book_reservation", **args)["reservation_id"] == booked["reservation_id"]
    )


def test_booking_never_takes_a_cabin_below_zero_seats(domain: Domain) -> None:
    db = domain.new_database()
    flight = future_flight(db, lambda f: any(fare.seats_left == 1 for fare in f.fares))
    cabin = next(fare.cabin for fare in flight.fares if fare.seats_left == 1)
    user = a_user(db)
    assert "seat(s) left" in refused(
        domain, db, "book_reservation", **booking(user, flight, cabin, 2)
    )
    ok(domain, db, "book_reservation", **booking(user, flight, cabin, 1))
    assert seats(db, flight.flight_number, flight.date, cabin) == 0
    assert f"has 0 {cabin} seat(s) left, 1 needed" in refused(
        domain, db, "book_reservation", **booking(user, flight, cabin, 1)
    )


def test_booking_refuses_departed_cancelled_and_wrong_route_flights(domain: Domain) -> None:
    db = domain.new_database()
    user = a_user(db)
    past: Flight = first(db, "flights", lambda f: day(f.date) < TODAY)
    assert "can no longer be booked" in refused(
        domain, db, "book_reservation", **booking(user, past, "economy", 1)
    )
    gone: Flight = first(db, "flights", lambda f: day(f.date) > TODAY and f.status == CANCELLED)
    assert "cancelled" in refused(
        domain, db, "book_reservation", **booking(user, gone, "economy", 1)
    )
    flight = future_flight(db, lambda f: (f.fare("economy") or f.fares[0]).seats_left >= 1)
    wrong = booking(
        user, flight, "economy", 1, origin=flight.destination, destination=flight.origin
    )
    backwards = f"flies {flight.origin}-{flight.destination}, not {flight.destination}-"
    assert backwards in refused(domain, db, "book_reservation", **wrong)


def test_a_gift_card_pays_only_up_to_its_balance(domain: Domain) -> None:
    db = domain.new_database()
    user = a_user(
        db,
        lambda u: any(
            m.source == "gift_card" and (m.balance or 0) >= 40 for m in u.payment_methods
        ),
    )
    gift = next(m for m in user.payment_methods if m.source == "gift_card")
    assert gift.balance is not None
    cheap = future_flight(
        db,
        lambda f: any(x.price <= gift.balance and x.seats_left > 0 for x in f.fares),  # type: ignore[operator]
    )
    fare = next(x for x in cheap.fares if x.price <= gift.balance and x.seats_left > 0)
    dear = future_flight(
        db,
        lambda f: any(x.price > gift.balance and x.seats_left > 0 for x in f.fares),  # type: ignore[operator]
    )
    dear_fare = next(x for x in dear.fares if x.price > gift.balance and x.seats_left > 0)
    args = booking(user, dear, dear_fare.cabin, 1, payment_method_id=gift.id)
    short = f"gift card {gift.id} balance ${gift.balance:.2f} is below"
    assert short in refused(domain, db, "book_reservation", **args)
    ok(
        domain,
        db,
        "book_reservation",
        **booking(user, cheap, fare.cabin, 1, payment_method_id=gift.id),
    )
    after = db.get("users", user.user_id)
    assert after is not None
    assert after.payment_method(gift.id).balance == round(gift.balance - fare.price, 2)


# ---- cancellation ----------------------------------------------------------------------------


def test_a_refund_never_exceeds_what_was_paid(domain: Domain) -> None:
    db = domain.new_database()
    r: Reservation = first(db, "reservations", upcoming)
    paid = net_paid(r)
    assert "above" in refused(
        domain, db, "cancel_reservation", reservation_id=r.reservation_id, refund_amount=paid + 0.01
    )
    assert "negative" in refused(
        domain, db, "cancel_reservation", reservation_id=r.reservation_id, refund_amount=-1.0
    )
    segment = r.flights[0]
    before = seats(db, segment.flight_number, segment.date, r.cabin)
    done = ok(domain, db, "cancel_reservation", reservation_id=r.reservation_id, refund_amount=paid)
    assert done["status"] == "cancelled" and done["net_paid"] == 0.0
    assert seats(db, segment.flight_number, segment.date, r.cabin) == before + len(r.passengers)
    assert "cancelled" in refused(
        domain, db, "cancel_reservation", reservation_id=r.reservation_id, refund_amount=0.0
    )


def test_a_reservation_with_a_departed_flight_cannot_be_cancelled_or_changed(
    domain: Domain,
) -> None:
    db = domain.new_database()
    r: Reservation = first(
        db, "reservations", lambda r: r.status == ACTIVE and day(r.flights[0].date) < TODAY
    )
    assert "already departed" in refused(
        domain, db, "cancel_reservation", reservation_id=r.reservation_id, refund_amount=0.0
    )
    other = "business" if r.cabin != "business" else "economy"
    method = user_of(db, r).payment_methods[0].id
    assert "already departed" in refused(
        domain,
        db,
        "change_reservation_cabin",
        reservation_id=r.reservation_id,
        cabin=other,
        payment_method_id=method,
    )


# ---- bags ------------------------------------------------------------------------------------


def test_bags_are_added_never_removed_and_new_nonfree_bags_cost_50_each(domain: Domain) -> None:
    db = domain.new_database()
    r: Reservation = first(db, "reservations", lambda r: upcoming(r) and r.nonfree_baggages > 0)
    method = card(user_of(db, r))
    rid = r.reservation_id
    assert "cannot be removed" in refused(
        domain,
        db,
        "update_reservation_baggages",
        reservation_id=rid,
        total_baggages=r.total_baggages - 1,
        nonfree_baggages=r.nonfree_baggages - 1,
        payment_method_id=method,
    )
    assert "cannot go below" in refused(
        domain,
        db,
        "update_reservation_baggages",
        reservation_id=rid,
        total_baggages=r.total_baggages + 1,
        nonfree_baggages=r.nonfree_baggages - 1,
        payment_method_id=method,
    )
    assert "at most 5" in refused(
        domain,
        db,
        "update_reservation_baggages",
        reservation_id=rid,
        total_baggages=5 * len(r.passengers) + 1,
        nonfree_baggages=r.nonfree_baggages,
        payment_method_id=method,
    )
    done = ok(
        domain,
        db,
        "update_reservation_baggages",
        reservation_id=rid,
        total_baggages=r.total_baggages + 2,
        nonfree_baggages=r.nonfree_baggages + 2,
        payment_method_id=method,
    )
    assert done["payment_history"][-1] == {
        "transaction_type": "payment",
        "amount": 100.0,
        "payment_method_id": method,
    }


# ---- compensation ----------------------------------------------------------------------------


def disrupted(db: Database, r: Reservation, hit: bool) -> bool:
    if r.status != ACTIVE or r.compensation:
        return False
    flight = db.get("flights", flight_key(r.flights[0].flight_number, r.flights[0].date))
    assert flight is not None
    is_hit: bool = flight.status == CANCELLED or flight.delay_minutes > 0
    return is_hit == hit


def test_compensation_only_for_a_disrupted_flight_once_and_within_the_tool_limit(
    domain: Domain,
) -> None:
    db = domain.new_database()
    calm: Reservation = first(
        db, "reservations", lambda r: disrupted(db, r, False) and len(r.flights) == 1
    )
    assert "neither delayed nor cancelled" in refused(
        domain,
        db,
        "issue_compensation",
        reservation_id=calm.reservation_id,
        flight_number=calm.flights[0].flight_number,
        amount=50.0,
    )
    hit: Reservation = first(db, "reservations", lambda r: disrupted(db, r, True))
    number = hit.flights[0].flight_number
    rid = hit.reservation_id
    assert "at most" in refused(
        domain, db, "issue_compensation", reservation_id=rid, flight_number=number, amount=1000.01
    )
    assert "not in reservation" in refused(
        domain, db, "issue_compensation", reservation_id=rid, flight_number="AT000", amount=50.0
    )
    credit = user_of(db, hit).travel_credit
    done = ok(
        domain, db, "issue_compensation", reservation_id=rid, flight_number=number, amount=75.0
    )
    assert done["travel_credit"] == credit + 75.0
    assert "already compensated" in refused(
        domain, db, "issue_compensation", reservation_id=rid, flight_number=number, amount=75.0
    )


def test_the_policy_caps_compensation_per_tier(domain: Domain) -> None:
    for tier, cap in COMPENSATION_CAP.items():  # the rates the tools use are the policy's table
        row = f"| {tier} | ${DELAY_RATE[tier]:.0f} | ${CANCELLED_RATE[tier]:.0f} | ${cap:.0f} |"
        assert row in domain.policy, row
    assert compensation("regular", False, 2) == (100.0, 100.0)
    assert compensation("regular", False, 4) == (200.0, 150.0)
    assert compensation("silver", True, 3) == (450.0, 300.0)
    assert compensation("gold", True, 2) == (400.0, 400.0)
    assert nonfree_bags("regular", "basic_economy", 2, 3) == 3
    assert nonfree_bags("gold", "economy", 1, 3) == 0
    assert nonfree_bags("silver", "business", 2, 7) == 1


# ---- changes ---------------------------------------------------------------------------------


def test_a_flight_change_moves_seats_and_charges_the_difference(domain: Domain) -> None:
    db = domain.new_database()

    def movable(r: Reservation) -> bool:
        return upcoming(r) and r.trip_type == "one_way"

    r: Reservation = first(db, "reservations", movable)
    old = r.flights[0]
    count = len(r.passengers)
    user = user_of(db, r)
    method = card(user)
    new = future_flight(
        db,
        lambda f: (
            (f.origin, f.destination) == (old.origin, old.destination)
            and f.date != old.date
            and (f.fare(r.cabin) or f.fares[0]).seats_left >= count
        ),
    )
    back = [{"flight_number": old.flight_number, "date": old.date}]
    elsewhere = future_flight(db, lambda f: f.origin != old.origin)
    assert "flies" in refused(
        domain,
        db,
        "change_reservation_flights",
        reservation_id=r.reservation_id,
        flights=[{"flight_number": elsewhere.flight_number, "date": elsewhere.date}],
        payment_method_id=method,
    )
    assert "current flights" in refused(
        domain,
        db,
        "change_reservation_flights",
        reservation_id=r.reservation_id,
        flights=back,
        payment_method_id=method,
    )
    before_old = seats(db, old.flight_number, old.date, r.cabin)
    before_new = seats(db, new.flight_number, new.date, r.cabin)
    done = ok(
        domain,
        db,
        "change_reservation_flights",
        reservation_id=r.reservation_id,
        flights=[{"flight_number": new.flight_number, "date": new.date}],
        payment_method_id=method,
    )
    assert seats(db, old.flight_number, old.date, r.cabin) == before_old + count
    assert seats(db, new.flight_number, new.date, r.cabin) == before_new - count
    new_price = new.fare(r.cabin).price  # type: ignore[union-attr]
    assert done["net_paid"] == round(net_paid(r) + (new_price - old.price) * count, 2)


def has_cancelled(db: Database, r: Reservation) -> bool:
    flights = [db.get("flights", flight_key(s.flight_number, s.date)) for s in r.flights]
    return any(f is not None and f.status == CANCELLED for f in flights)


def test_a_cabin_change_needs_another_cabin_and_free_seats(domain: Domain) -> None:
    db = domain.new_database()
    r: Reservation = first(db, "reservations", lambda r: upcoming(r) and r.cabin != "business")
    method = card(user_of(db, r))
    rid = r.reservation_id
    assert "already in" in refused(
        domain,
        db,
        "change_reservation_cabin",
        reservation_id=rid,
        cabin=r.cabin,
        payment_method_id=method,
    )
    full: Reservation = first(
        db,
        "reservations",
        lambda x: (
            upcoming(x)
            and x.cabin != "business"
            and not has_cancelled(db, x)
            and seats(db, x.flights[0].flight_number, x.flights[0].date, "business")
            < len(x.passengers)
        ),
    )
    hit: Reservation = first(
        db,
        "reservations",
        lambda x: upcoming(x) and x.cabin != "business" and has_cancelled(db, x),
    )
    assert "is cancelled" in refused(
        domain,
        db,
        "change_reservation_cabin",
        reservation_id=hit.reservation_id,
        cabin="business",
        payment_method_id=card(user_of(db, hit)),
    )
    assert "seat(s) left" in refused(
        domain,
        db,
        "change_reservation_cabin",
        reservation_id=full.reservation_id,
        cabin="business",
        payment_method_id=card(user_of(db, full)),
    )


def test_passengers_can_be_corrected_but_not_added(domain: Domain) -> None:
    db = domain.new_database()
    r: Reservation = first(db, "reservations", upcoming)
    people = [msgspec.to_builtins(p) for p in r.passengers]
    assert "cannot change" in refused(
        domain,
        db,
        "update_reservation_passengers",
        reservation_id=r.reservation_id,
        passengers=[*people, PASSENGER],
    )
    for bad in ({"dob": "01/02/1990"}, {"dob": "2030-01-01"}, {"last_name": " "}):
        wrong = [{**people[0], **bad}, *people[1:]]
        assert "passengers[0]" in refused(
            domain,
            db,
            "update_reservation_passengers",
            reservation_id=r.reservation_id,
            passengers=wrong,
        )
    people[0]["dob"] = "2001-01-01" if people[0]["dob"] != "2001-01-01" else "2002-02-02"
    done = ok(
        domain,
        db,
        "update_reservation_passengers",
        reservation_id=r.reservation_id,
        passengers=people,
    )
    assert done["passengers"] == people


# ---- tasks -----------------------------------------------------------------------------------


def test_forbidden_tasks_are_the_ones_the_policy_forbids(domain: Domain) -> None:
    base = domain.new_database()
    refused_tasks = [t for t in domain.tasks if t.intent == "basic_economy_cancel_refused"]
    assert refused_tasks
    for task in refused_tasks:
        rid = task.actions[2].arguments["reservation_id"]
        r: Reservation = record(base, "reservations", rid)
        created = dt.datetime.fromisoformat(r.created_at)
        assert r.cabin == "basic_economy" and not r.insurance
        assert created < NOW - dt.timedelta(hours=24), "booked more than 24 hours ago"
        assert task.required_outputs == ["non-refundable"]
    over_cap = [t for t in domain.tasks if t.intent == "compensation_over_cap_transfer"]
    assert over_cap
    for task in over_cap:
        wanted = float(task.scenario.known_info["wanted_amount"].lstrip("$").replace(",", ""))
        user: User = record(base, "users", task.actions[1].arguments["user_id"])
        assert wanted > COMPENSATION_CAP[user.membership], task.id  # the caller's own tier
        assert task.actions[-1].name == "transfer_to_human_agents"


# ---- the hard tier ---------------------------------------------------------------------------

SEARCH_INTENTS = {
    "search_change_flight",
    "family_trip_overhaul",
    "change_with_later_extras",
    "move_bag_between_trips",
    "change_and_basic_refund_refused",
    "basic_bags_change_refused",
    "family_fix_with_refusals",
    "disproven_delay_compensation",
    "disproven_cancelled_refund",
}


def test_every_refusal_rule_of_the_policy_has_an_intent(domain: Domain) -> None:
    rules = set(domain.policy_rules)
    assert len(rules) == 9
    assert rules == {rule for intent in domain.intents for rule in intent.rules}


def test_a_described_trip_is_read_last_among_every_reservation_of_the_profile(
    domain: Domain,
) -> None:
    base = domain.new_database()
    tasks = [t for t in domain.tasks if t.intent in SEARCH_INTENTS]
    assert len(tasks) == 5 * len(SEARCH_INTENTS)
    for task in tasks:
        user: User = record(base, "users", task.actions[1].arguments["user_id"])
        reads = [
            a.arguments["reservation_id"]
            for a in task.actions
            if a.name == "get_reservation_details"
        ]
        assert sorted(reads) == sorted(user.reservations) and len(reads) >= 2, task.id
        written = {
            a.arguments["reservation_id"]
            for a in domain.write_actions(task) + domain.violations(task)
            if "reservation_id" in a.arguments
        }
        assert written <= set(reads[-2:]), task.id
        text = "\n".join([task.scenario.opening, task.scenario.goal])
        assert not any(code in text for code in user.reservations), task.id
        assert task.scenario.known_info["trip"] in task.scenario.opening or task.intent.startswith(
            "disproven_delay"
        ), task.id


def test_a_flight_that_left_this_morning_still_lets_the_tools_cancel(domain: Domain) -> None:
    """The tools refuse only flights dated before today; today's departures are the agent's."""
    tasks = [t for t in domain.tasks if t.intent == "departed_today_cancel"]
    assert tasks
    for task in tasks:
        db = domain.new_database()
        rid = task.actions[2].arguments["reservation_id"]
        r: Reservation = record(db, "reservations", rid)
        flight: Flight = record(
            db, "flights", flight_key(r.flights[0].flight_number, r.flights[0].date)
        )
        hours, minutes = map(int, flight.departure.split(":"))
        assert flight.date == TODAY.isoformat()
        assert hours * 60 + minutes + flight.delay_minutes < 12 * 60
        assert task.required_outputs == [flight.departure]
        ok(domain, db, "cancel_reservation", reservation_id=rid, refund_amount=net_paid(r))


def test_a_delay_under_the_threshold_is_paid_by_the_tool_but_refused_by_the_policy(
    domain: Domain,
) -> None:
    tasks = [t for t in domain.tasks if t.intent == "disproven_delay_compensation"]
    assert tasks
    for task in tasks:
        db = domain.new_database()
        status = task.actions[-1]
        flight: Flight = record(
            db, "flights", flight_key(status.arguments["flight_number"], status.arguments["date"])
        )
        assert 0 < flight.delay_minutes < 180 and flight.status != CANCELLED
        assert task.required_outputs == [f"{flight.delay_minutes} minutes"]
        (paid,) = domain.violations(task)
        ok(domain, db, paid.name, **paid.arguments)


def test_mixed_tasks_make_the_allowed_writes_and_name_the_refused_one(domain: Domain) -> None:
    for name, refused_write in (
        ("change_and_basic_refund_refused", "cancel_reservation"),
        ("basic_bags_change_refused", "change_reservation_flights"),
    ):
        tasks = [t for t in domain.tasks if t.intent == name]
        assert tasks
        for task in tasks:
            writes = [a.name for a in domain.write_actions(task)]
            assert writes and refused_write not in writes, task.id
            assert [a.name for a in domain.violations(task)] == [refused_write], task.id
            assert task.scenario.demand and task.tier == "hard", task.id


def test_a_bag_cannot_come_off_one_trip_but_goes_on_the_other(domain: Domain) -> None:
    for task in [t for t in domain.tasks if t.intent == "move_bag_between_trips"]:
        db = domain.new_database()
        (add,) = domain.write_actions(task)
        reads = [a for a in task.actions if a.name == "get_reservation_details"]
        source: Reservation = record(db, "reservations", reads[-2].arguments["reservation_id"])
        assert source.reservation_id != add.arguments["reservation_id"]
        refused(
            domain,
            db,
            "update_reservation_baggages",
            "cannot be removed",
            reservation_id=source.reservation_id,
            total_baggages=source.total_baggages - 1,
            nonfree_baggages=0,
            payment_method_id=add.arguments["payment_method_id"],
        )
        ok(domain, db, add.name, **add.arguments)
