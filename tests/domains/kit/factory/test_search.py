"""The search combinator of the kit's factory: a Shelf draws described records and finds them.

On the real hotel, retail and food-delivery bases: who is drawn, what the gold search opens
and in which order, the places listed only when a description names a city, the other records
of a customer, the cancellation with and without a fee check.
"""

from __future__ import annotations

import random

from tau_sim.domains.food_delivery.factory.common import ORDERS as FOOD_ORDERS
from tau_sim.domains.hotel.factory.common import STAYS
from tau_sim.domains.hotel.scenario import HOTEL_NAMES
from tau_sim.domains.kit.factory.search import meant_last, until_found
from tau_sim.domains.kit.identity import EMAIL, Identity
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.retail.factory.common import ORDERS as RETAIL_ORDERS
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.world import Action, Database

load_plugins()


def _who(db: Database, user_id: str) -> Identity:
    return Identity.draw(
        record(db, "users", user_id), random.Random(0), ((EMAIL, 1.0),), "get_user_details"
    )


def test_pick_draws_a_record_that_fits_from_a_customer_with_two_to_five() -> None:
    db = get_domain("hotel").new_database()
    for seed in range(20):
        found = STAYS.pick(db, random.Random(seed), lambda r: r.room_type == "suite")
        assert found is not None
        guest, r = found
        assert r.room_type == "suite" and r.user_id == guest.user_id
        assert 2 <= len(guest.reservations) <= 5 and r in STAYS.of(db, guest.user_id)


def test_a_listed_search_opens_the_stay_meant_and_reads_the_profile_last() -> None:
    db = get_domain("hotel").new_database()
    found = STAYS.pick(db, random.Random(3), lambda r: True)
    assert found is not None
    guest, r = found
    who = _who(db, guest.user_id)
    lookup, profile = who.actions
    listing = Action("list_user_reservations", {"user_id": guest.user_id})
    opened = Action("get_reservation_details", {"reservation_id": r.reservation_id})
    by_name = f"my stay at {HOTEL_NAMES[r.property_id]} from {r.check_in}"
    assert STAYS.reads(db, who, r, words=by_name) == [lookup, listing, opened, profile]
    by_city = STAYS.reads(db, who, r, words=f"my trip to the city, from {r.check_in}")
    assert by_city == [lookup, listing, Action("list_properties", {}), opened, profile]


def test_an_unlisted_search_reads_the_profile_first_and_opens_until_found() -> None:
    db = get_domain("retail").new_database()
    user = next(u for _, u in sorted(db.items("users")) if len(u.orders) >= 3)
    mine = RETAIL_ORDERS.of(db, user.user_id)
    who = _who(db, user.user_id)
    reads = RETAIL_ORDERS.reads(db, who, mine[1])
    opened = [a.arguments["order_id"] for a in reads[2:]]
    assert reads[:2] == list(who.actions) and opened == [o.order_id for o in mine[:2]]
    assert until_found(mine, [mine[2], mine[0]]) == mine[:3]
    assert meant_last(mine, [mine[0]]) == [*mine[1:], mine[0]]


def test_food_opens_the_orders_of_the_restaurant_named_only() -> None:
    db = get_domain("food_delivery").new_database()
    user = next(u for _, u in sorted(db.items("users")) if len(u.orders) >= 3)
    mine = FOOD_ORDERS.of(db, user.user_id)
    reads = FOOD_ORDERS.reads(db, _who(db, user.user_id), mine[0])
    opened = [
        record(db, "orders", a.arguments["order_id"]) for a in reads if "order_id" in a.arguments
    ]
    assert mine[0] in opened
    assert all(o.restaurant_id == mine[0].restaurant_id for o in opened)


def test_elsewhere_and_cancel() -> None:
    db = get_domain("hotel").new_database()
    found = STAYS.pick(db, random.Random(5), lambda r: True)
    assert found is not None
    guest, r = found
    write = Action("cancel_reservation", {"reservation_id": r.reservation_id})
    others = STAYS.elsewhere(db, write)
    assert r not in others and len(others) == len(guest.reservations) - 1
    assert STAYS.cancel(r, 90.0, None) == [
        Action("cancel_reservation", {"reservation_id": r.reservation_id, "refund_amount": 90.0})
    ]
    check, _ = STAYS.cancel(r, 90.0, (120.0, 30.0))
    assert check == Action("calculate", {"expression": "120.00 - 30.00"})


def test_a_described_stay_is_told_apart_by_its_check_in() -> None:
    db = get_domain("hotel").new_database()
    described = [STAYS.described(db, random.Random(seed), lambda r: True) for seed in range(10)]
    assert any(described)
    for r, words in filter(None, described):
        assert r.check_in in words
        others = [o for o in STAYS.of(db, r.user_id) if o.reservation_id != r.reservation_id]
        assert all(o.check_in != r.check_in for o in others)


def test_the_stay_meant_is_the_one_the_gold_path_opens_and_the_claim_names() -> None:
    domain = get_domain("hotel")
    for task in [t for t in domain.tasks if t.intent == "never_cleaned_claim"]:
        meant = STAYS.meant(domain, task)
        assert STAYS.detail(meant) in task.actions, task.id
        assert task.violations[0].arguments["reservation_id"] == meant.reservation_id, task.id


def test_a_base_tasks_search_opens_only_the_record_named() -> None:
    db = get_domain("hotel").new_database()
    found = STAYS.pick(db, random.Random(5), lambda r: True)
    assert found is not None
    guest, r = found
    who = _who(db, guest.user_id)
    listing = Action("list_user_reservations", {"user_id": guest.user_id})
    lookup, profile = who.actions
    assert STAYS.search(who, r) == [lookup, listing, STAYS.detail(r), profile]
