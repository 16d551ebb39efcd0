"""The kit pieces the domains share: date-of-birth factor, day counts, charges and refunds,
the address and profile tools, typed lookups and the common mistakes of ``CustomerIntent``."""

from __future__ import annotations

import random

import msgspec
import pytest

from tau_sim.domains.kit import tools as kit_tools
from tau_sim.domains.kit.identity import (
    EMAIL,
    NAME_DOB,
    Identity,
    find_patient_id_by_name_dob,
    identity_indexes,
)
from tau_sim.domains.kit.lookup import code_key, loader, picker
from tau_sim.domains.kit.payments import (
    Payment,
    PaymentMethod,
    balance_text,
    charge,
    credit_refunds,
    owned_method,
    refunds,
    settle,
)
from tau_sim.domains.kit.people import Address, Customer, Name
from tau_sim.domains.kit.tasks import ELSEWHERE, CustomerIntent
from tau_sim.simulator.world.database import Base, Database
from tau_sim.simulator.world.domain import Action, Domain, Task, UserScenario
from tau_sim.simulator.world.tools import ToolError, Toolkit


class Patient(Customer, frozen=True, omit_defaults=True):
    dob: str = ""


GIFT = PaymentMethod("gift_card_1", "gift_card", balance=50.0)
CARD = PaymentMethod("credit_card_2", "credit_card", "visa", "4242")
HOME = Address("1 Main Street", "", "Austin", "TX", "USA", "78701")


def _db() -> Database:
    ana = Patient(
        "ana_1", Name("Ana", "Lopez"), HOME, "ana@example.com", (GIFT, CARD), dob="1980-02-03"
    )
    base = Base({"users": {"ana_1": ana}}, identity_indexes([NAME_DOB]))
    return base.database()


def _ana(db: Database) -> Patient:
    ana = db.get("users", "ana_1")
    assert isinstance(ana, Patient)
    return ana


def test_name_and_birth_date_find_the_patient() -> None:
    db = _db()
    tools = Toolkit([find_patient_id_by_name_dob])
    args = NAME_DOB.values(_ana(db))
    assert args == {"first_name": "Ana", "last_name": "Lopez", "dob": "1980-02-03"}
    assert tools.call(db, NAME_DOB.tool, {**args, "first_name": " ana "}).content == "ana_1"
    wrong = tools.call(db, NAME_DOB.tool, {**args, "dob": "1980-02-04"})
    assert wrong.error and "no patient with this name and date of birth" in wrong.content


def test_days_between_counts_both_ways_and_names_a_bad_date() -> None:
    tools = Toolkit([kit_tools.days_between])
    db = _db()
    forward = {"start_date": "2025-04-07", "end_date": "2025-06-15"}
    assert tools.call(db, "days_between", forward).content == "69"
    back = {"start_date": "2025-06-15", "end_date": "2025-04-07"}
    assert tools.call(db, "days_between", back).content == "-69"
    bad = tools.call(db, "days_between", {"start_date": "15/06/2025", "end_date": "2025-06-15"})
    assert bad.error and "start_date must be a date as YYYY-MM-DD" in bad.content


def test_charge_moves_a_gift_card_balance_and_refuses_beyond_it() -> None:
    db = _db()
    ana, paid = charge(db, _ana(db), GIFT, 30.0)
    assert paid == Payment("payment", 30.0, GIFT.id)
    assert _ana(db).payment_method(GIFT.id) == msgspec.structs.replace(GIFT, balance=20.0)
    with pytest.raises(ToolError, match=r"balance \$20.00 is below \$25.00"):
        charge(db, ana, owned_method(ana, GIFT.id), 25.0)
    ana, back = charge(db, ana, owned_method(ana, GIFT.id), -5.0)
    assert back == Payment("refund", 5.0, GIFT.id)
    assert _ana(db).payment_method(GIFT.id) == msgspec.structs.replace(GIFT, balance=25.0)
    assert charge(db, ana, CARD, 0.0) == (ana, None)
    assert settle(db, ana, CARD, 999.0) is ana  # a card is settled outside the world


def test_refunds_follow_what_each_method_paid_net() -> None:
    history = [
        Payment("payment", 100.0, CARD.id),
        Payment("payment", 40.0, GIFT.id),
        Payment("refund", 10.0, CARD.id),
        Payment("refund", 5.0, "paypal_3"),  # refunded more than it paid: gets nothing back
    ]
    assert refunds(history, 95.0) == [
        Payment("refund", 90.0, CARD.id),
        Payment("refund", 5.0, GIFT.id),
    ]
    assert refunds(history) == [Payment("refund", 90.0, CARD.id), Payment("refund", 40.0, GIFT.id)]
    assert refunds(history, 0.0) == []
    db = _db()
    credited = credit_refunds(_ana(db), refunds(history))
    assert credited.payment_method(GIFT.id) == msgspec.structs.replace(GIFT, balance=90.0)
    assert credited.payment_method(CARD.id) == CARD


def test_balance_text_puts_the_sign_first() -> None:
    assert balance_text(-42.1) == "-$42.10"
    assert balance_text(1234.5) == "$1,234.50"


def test_address_and_profile_tools_take_the_domain_name_and_description() -> None:
    moved = kit_tools.address_tool("update_home", "Change the home address.")
    shown = kit_tools.profile_tool(
        "get_patient", "Get a patient.", lambda db, uid: {"id": uid}, user_id_doc="The patient."
    )
    assert (moved.name, moved.kind.value, moved.spec.description) == (
        "update_home",
        "write",
        "Change the home address.",
    )
    assert list(moved.spec.parameters["properties"]) == ["user_id", *ELSEWHERE]
    assert shown.spec.parameters["properties"]["user_id"]["description"] == "The patient."
    db = _db()
    tools = Toolkit([moved, shown])
    assert not tools.call(db, "update_home", {"user_id": "ana_1", **ELSEWHERE}).error
    assert _ana(db).address.city == "Reno"
    blank = tools.call(db, "update_home", {"user_id": "ana_1", **ELSEWHERE, "city": " "})
    assert blank.error and "address1, city, state, country and zip are required" in blank.content
    assert _ana(db).address.city == "Reno"  # the refused move changed nothing
    assert tools.call(db, "get_patient", {"user_id": "x"}).content == '{"id":"x"}'


def test_loader_and_picker_are_typed_and_say_what_is_missing() -> None:
    db = _db()
    load_patient = loader("users", "patient", Patient)
    assert load_patient(db, " ana_1 ") == _ana(db)
    with pytest.raises(ToolError, match="patient 'bob' not found"):
        load_patient(db, "bob")
    with pytest.raises(TypeError, match="not a Address"):
        loader("users", "user", Address)(db, "ana_1")
    assert code_key(" zk3f9q ") == "ZK3F9Q"
    pick_patient = picker("users", Patient)
    assert pick_patient(db, random.Random(1), lambda p: p.dob < "1990") == _ana(db)
    assert pick_patient(db, random.Random(1), lambda p: False) is None


def test_customer_intent_mistakes_build_on_the_gold_path() -> None:
    tools = Toolkit([kit_tools.address_tool("move", "Move."), kit_tools.calculate])
    domain = Domain(name="t", title="t", policy="", toolkit=tools, build_base=lambda: Base({}))
    lookup = Action("find_user_id_by_email", {"email": "ana@example.com"})
    profile = Action("get_user_details", {"user_id": "ana_1"})
    write = Action("move", {"user_id": "ana_1", **ELSEWHERE})
    task = Task(
        id="t-0",
        domain="t",
        intent="x",
        scenario=UserScenario(goal="", opening="", known_info={}, unknown_info=[]),
        auth_slots=[],
        actions=[lookup, profile, write, Action("calculate", {"expression": "1"})],
    )
    intent = CustomerIntent()
    assert intent.profile_user(task) == "ana_1"
    stray = intent.stray_write(task, "move", city="Elko")
    assert stray[-1] == Action("move", {"user_id": "ana_1", "city": "Elko"})
    assert intent.last_write_left_out(domain, task) == [[lookup, profile, task.actions[-1]]]
    changed = intent.last_write_changed(domain, task, zip="00000")
    assert changed[2].arguments["zip"] == "00000" and changed[3] == task.actions[3]
    reads_only = msgspec.structs.replace(task, actions=[lookup, profile])
    assert intent.last_write_left_out(domain, reads_only) == []


class _Refused(CustomerIntent):
    name = "refused"
    forbidden = True


def test_a_forbidden_intent_must_say_what_the_user_insists_on() -> None:
    domain = Domain(
        name="t", title="t", policy="", toolkit=Toolkit([]), build_base=lambda: Base({})
    )
    who = Identity(_ana(_db()), EMAIL, "get_user_details")

    def task(intent: CustomerIntent, demand: str = "") -> Task:
        return intent.task(
            domain,
            who,
            goal="I want it.",
            opening="Hi.",
            known={},
            actions=[],
            summary="s",
            demand=demand,
        )

    with pytest.raises(ValueError, match="'refused' is forbidden: give the user's demand"):
        task(_Refused())
    assert task(_Refused(), " my money back ").scenario.demand == "my money back"
    assert task(CustomerIntent()).scenario.demand == ""
