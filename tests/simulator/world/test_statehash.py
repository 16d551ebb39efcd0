"""The state hash the reward compares is blind to the order of writes, not to what they wrote."""

from __future__ import annotations

import msgspec

from tau_sim.simulator.world.database import Base, Database
from tau_sim.simulator.world.statehash import exact_hash


class Account(msgspec.Struct, frozen=True):
    account_id: str
    requests: tuple[str, ...] = ()
    items: tuple[str, ...] = ()


class Entry(msgspec.Struct, frozen=True):
    entry_id: str
    account_id: str
    amount: float
    refers_to: str = ""


def fresh() -> Database:
    accounts = {"A1": Account("A1"), "A2": Account("A2")}
    entries = {"A1_001": Entry("A1_001", "A1", 5.0)}
    return Base({"accounts": accounts, "entries": entries}).database()


def post(db: Database, amount: float, refers_to: str = "") -> None:
    """Mint the next entry id of A1 from how many there are, as the domains' tools do."""
    key = f"A1_{len(list(db.keys('entries'))) + 1:03d}"
    db.put("entries", key, Entry(key, "A1", amount, refers_to))


def test_list_order_inside_a_record_does_not_count() -> None:
    one, two = fresh(), fresh()
    one.put("accounts", "A1", Account("A1", requests=("crib", "late_checkout")))
    two.put("accounts", "A1", Account("A1", requests=("late_checkout", "crib")))
    assert one.state_hash() == two.state_hash()
    assert exact_hash(one.changes()) != exact_hash(two.changes())


def test_ids_minted_in_creation_order_do_not_count() -> None:
    one, two = fresh(), fresh()
    post(one, 10.0)
    post(one, -3.0)
    post(two, -3.0)
    post(two, 10.0)
    assert one.state_hash() == two.state_hash()


def test_parts_minted_inside_a_record_do_not_count() -> None:
    one, two = fresh(), fresh()
    one.put("accounts", "A1", Account("A1", items=("A1-I1", "A1-I2")))
    two.put("accounts", "A1", Account("A1", items=("A1-I2", "A1-I1")))
    assert one.state_hash() == two.state_hash()


def test_different_writes_still_differ() -> None:
    one, two = fresh(), fresh()
    post(one, 10.0)
    post(two, 11.0)
    assert one.state_hash() != two.state_hash()
    one, two = fresh(), fresh()
    post(one, 10.0, refers_to="A1_001")
    post(two, 10.0, refers_to="A1_002")  # a reference to a record that is not there
    assert one.state_hash() != two.state_hash()
    one, two = fresh(), fresh()
    one.put("accounts", "A1", Account("A1", requests=("crib",)))
    two.put("accounts", "A2", Account("A2", requests=("crib",)))
    assert one.state_hash() != two.state_hash()
