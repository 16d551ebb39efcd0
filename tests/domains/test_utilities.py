"""The utilities domain's rules: what its tools enforce, and what its tasks hold to the policy."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest

from tau_sim.domains.kit.calc import add_months, days_from
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.utilities import utilities as make_utilities
from tau_sim.domains.utilities.data import (
    ACTIVE,
    CLOSED,
    ELECTRICITY,
    FINAL,
    FIXED,
    GAS,
    HISTORY_DAYS,
    LATE_FEE,
    OUTAGE_CREDIT,
    PLAN_SYSTEM_MAX_MONTHS,
    TODAY,
    VARIABLE,
    Account,
    Bill,
    Meter,
    PastOutage,
    Premise,
    Reading,
    Tariff,
    User,
    reading_id,
)
from tau_sim.domains.utilities.rules import (
    CREDIT_MIN_HOURS,
    PLAN_MAX_MONTHS,
    PLAN_MIN_INSTALMENT,
    PLAN_MIN_MONTHS,
    WAIVER_CUTOFF,
)
from tau_sim.simulator.core.registry import DOMAINS
from tau_sim.simulator.world.database import Database
from tau_sim.simulator.world.domain import Domain
from tests.domains.calls import ok, refused


@pytest.fixture(scope="module")
def utilities() -> Domain:
    return make_utilities()


@pytest.fixture
def db(utilities: Domain) -> Database:
    return utilities.new_database()


def first(db: Database, table: str, accept: Callable[[Any], bool]) -> Any:
    for _, value in db.items(table):
        if accept(value):
            return value
    raise AssertionError(f"no matching record in {table}")


def get(db: Database, table: str, key: str) -> Any:
    found = db.get(table, key)
    assert found is not None, (table, key)
    return found


def meters(db: Database, account: Account) -> list[Meter]:
    premise: Premise = get(db, "premises", account.premise_id)
    return [get(db, "meters", m) for m in premise.meters]


def last(db: Database, meter: Meter) -> Reading:
    return get(db, "readings", reading_id(meter.meter_id, meter.reading_count))  # type: ignore[no-any-return]


def dual_fuel(db: Database, accept: Callable[[Account], bool] = lambda a: True) -> Account:
    return first(  # type: ignore[no-any-return]
        db, "accounts", lambda a: a.status == ACTIVE and len(meters(db, a)) == 2 and accept(a)
    )


def read_all(domain: Domain, db: Database, account: Account, final: bool = False) -> None:
    tool = "record_final_reading" if final else "submit_meter_reading"
    for meter in meters(db, account):
        ok(domain, db, tool, meter_id=meter.meter_id, value=last(db, meter).value + 100)


# ---- the base --------------------------------------------------------------------------------


def test_registered_and_sized_like_a_supplier(utilities: Domain) -> None:
    assert DOMAINS["utilities"] is make_utilities
    tables = utilities.base.tables
    assert len(tables["users"]) >= 300 and len(tables["accounts"]) >= 350
    assert len(tables["meters"]) >= 600 and len(tables["readings"]) >= 4000
    fuels = {m.fuel for m in tables["meters"].values()}
    assert fuels == {ELECTRICITY, GAS}
    assert {t.kind for t in tables["tariffs"].values()} == {FIXED, VARIABLE}
    assert any(not p.account_id for p in tables["premises"].values()), "vacant premises"
    for meter in tables["meters"].values():
        values = [
            tables["readings"][reading_id(meter.meter_id, n)].value
            for n in range(1, meter.reading_count + 1)
        ]
        assert values == sorted(values), meter.meter_id


def test_the_base_bills_agree_with_their_readings_and_tariff(utilities: Domain) -> None:
    tables = utilities.base.tables
    for bill in list(tables["bills"].values())[:200]:
        account = tables["accounts"][bill.account_id]
        tariff: Tariff = tables["tariffs"][account.tariff_id]
        days = days_from(bill.period_start, bill.period_end)
        for line in bill.lines:
            rate = tariff.electricity if line.fuel == ELECTRICITY else tariff.gas
            assert line.units == line.to_value - line.from_value >= 0
            assert line.energy_charge == round(line.units * rate.unit_rate, 2)
            assert line.days == days
            assert line.standing_charge == round(days * rate.standing_charge, 2)
        charges = sum(ln.energy_charge + ln.standing_charge for ln in bill.lines)
        assert bill.total == round(charges, 2)


# ---- readings and bills ----------------------------------------------------------------------


def test_a_reading_below_the_last_is_refused_and_an_equal_one_recorded(
    utilities: Domain, db: Database
) -> None:
    account = dual_fuel(db)
    meter = meters(db, account)[0]
    previous = last(db, meter)
    refused(
        utilities,
        db,
        "submit_meter_reading",
        "lower than the meter's last reading",
        meter_id=meter.meter_id,
        value=previous.value - 1,
    )
    reading = ok(
        utilities, db, "submit_meter_reading", meter_id=meter.meter_id, value=previous.value
    )
    assert reading["date"] == TODAY.isoformat() and reading["kind"] == "actual"
    assert get(db, "meters", meter.meter_id).reading_count == meter.reading_count + 1


def test_a_bill_needs_a_new_reading_on_every_meter(utilities: Domain, db: Database) -> None:
    account = dual_fuel(db)
    elec, gas = meters(db, account)
    refused(
        utilities,
        db,
        "create_bill",
        "has no reading since the last bill",
        account_id=account.account_id,
    )
    ok(
        utilities,
        db,
        "submit_meter_reading",
        meter_id=elec.meter_id,
        value=last(db, elec).value + 250,
    )
    refused(utilities, db, "create_bill", gas.meter_id, account_id=account.account_id)
    ok(utilities, db, "submit_meter_reading", meter_id=gas.meter_id, value=last(db, gas).value + 40)
    made = ok(utilities, db, "create_bill", account_id=account.account_id)
    tariff: Tariff = get(db, "tariffs", account.tariff_id)
    days = days_from(account.billed_to, TODAY.isoformat())
    expected = round(
        round(250 * tariff.electricity.unit_rate, 2)
        + round(days * tariff.electricity.standing_charge, 2)
        + round(40 * tariff.gas.unit_rate, 2)
        + round(days * tariff.gas.standing_charge, 2),
        2,
    )
    assert made["bill"]["total"] == expected
    assert made["balance"] == round(account.balance + expected, 2)
    refused(utilities, db, "create_bill", "already billed", account_id=account.account_id)


# ---- payments and plans ----------------------------------------------------------------------


def test_a_payment_above_the_balance_is_refused_the_whole_balance_taken(
    utilities: Domain, db: Database
) -> None:
    account: Account = first(db, "accounts", lambda a: a.status == ACTIVE and a.balance > 30)
    user: User = get(db, "users", account.user_id)
    method = next(m for m in user.payment_methods if m.source != "gift_card")
    args = {"account_id": account.account_id, "payment_method_id": method.id}
    refused(
        utilities,
        db,
        "make_payment",
        "more than the balance",
        amount=account.balance + 0.01,
        **args,
    )
    refused(utilities, db, "make_payment", "more than zero", amount=0.0, **args)
    paid = ok(utilities, db, "make_payment", amount=account.balance, **args)
    assert paid["balance"] == 0.0 and paid["payment"]["amount"] == account.balance
    refused(utilities, db, "make_payment", "more than the balance", amount=1.0, **args)


def test_a_payment_needs_the_customers_own_method_with_funds(
    utilities: Domain, db: Database
) -> None:
    def low_gift(a: Account) -> bool:
        user: User = get(db, "users", a.user_id)
        return a.status == ACTIVE and any(
            m.source == "gift_card" and 1 <= (m.balance or 0) < a.balance - 5
            for m in user.payment_methods
        )

    account: Account = first(db, "accounts", low_gift)
    user: User = get(db, "users", account.user_id)
    gift = next(m for m in user.payment_methods if m.source == "gift_card")
    assert gift.balance is not None
    refused(
        utilities,
        db,
        "make_payment",
        f"gift card {gift.id} balance ${gift.balance:.2f} is below ${gift.balance + 5:.2f}",
        account_id=account.account_id,
        amount=gift.balance + 5,
        payment_method_id=gift.id,
    )
    other: User = first(db, "users", lambda u: u.user_id != user.user_id and u.payment_methods)
    refused(
        utilities,
        db,
        "make_payment",
        "does not belong",
        account_id=account.account_id,
        amount=1.0,
        payment_method_id=other.payment_methods[0].id,
    )
    ok(
        utilities,
        db,
        "make_payment",
        account_id=account.account_id,
        amount=1.0,
        payment_method_id=gift.id,
    )
    after: User = get(db, "users", user.user_id)
    assert after.payment_method(gift.id).balance == round(gift.balance - 1, 2)  # type: ignore[union-attr]


def test_payment_plans_are_limited_to_one_and_to_24_instalments(
    utilities: Domain, db: Database
) -> None:
    account: Account = first(db, "accounts", lambda a: a.status == ACTIVE and a.balance > 100)
    method = get(db, "users", account.user_id).payment_methods[0].id
    args = {"account_id": account.account_id, "payment_method_id": method}
    refused(
        utilities, db, "create_payment_plan", "2 to 24", months=PLAN_SYSTEM_MAX_MONTHS + 1, **args
    )
    refused(utilities, db, "create_payment_plan", "2 to 24", months=1, **args)
    plan = ok(utilities, db, "create_payment_plan", months=6, **args)
    assert plan["instalment"] == round(account.balance / 6, 2) and plan["amount"] == account.balance
    assert plan["start"] == add_months(TODAY, 1).isoformat()
    refused(utilities, db, "create_payment_plan", "already has plan", months=6, **args)
    settled: Account = first(db, "accounts", lambda a: a.status == ACTIVE and a.balance == 0)
    refused(
        utilities,
        db,
        "create_payment_plan",
        "owes nothing",
        account_id=settled.account_id,
        months=6,
        payment_method_id=get(db, "users", settled.user_id).payment_methods[0].id,
    )


# ---- tariffs ---------------------------------------------------------------------------------


def test_leaving_a_fixed_term_early_charges_the_exit_fee_per_fuel(
    utilities: Domain, db: Database
) -> None:
    def early(a: Account) -> bool:
        return a.fixed_until > TODAY.isoformat()

    account = dual_fuel(db, early)
    tariff: Tariff = get(db, "tariffs", account.tariff_id)
    refused(
        utilities,
        db,
        "change_tariff",
        "closed to new sign-ups",
        account_id=account.account_id,
        tariff_id="T-LEG",
    )
    refused(
        utilities,
        db,
        "change_tariff",
        "already on",
        account_id=account.account_id,
        tariff_id=tariff.tariff_id,
    )
    target = "T-SV"
    shown = ok(utilities, db, "get_account_details", account_id=account.account_id)
    assert shown["exit_fee_if_switched_today"] == 2 * tariff.exit_fee
    switched = ok(utilities, db, "change_tariff", account_id=account.account_id, tariff_id=target)
    assert switched["exit_fee_charged"] == 2 * tariff.exit_fee
    assert switched["account"]["balance"] == round(account.balance + 2 * tariff.exit_fee, 2)
    assert "fixed_until" not in switched["account"], "a variable tariff has no term"
    again = ok(utilities, db, "change_tariff", account_id=account.account_id, tariff_id="T-F12")
    assert again["exit_fee_charged"] == 0.0, "a variable tariff has no exit fee"
    assert again["account"]["fixed_until"] == add_months(TODAY, 12).isoformat()


# ---- moving ----------------------------------------------------------------------------------


def test_an_account_closes_only_with_final_readings_on_every_meter(
    utilities: Domain, db: Database
) -> None:
    account = dual_fuel(db)
    refused(utilities, db, "close_account", "no final reading today", account_id=account.account_id)
    elec, gas = meters(db, account)
    ok(
        utilities,
        db,
        "record_final_reading",
        meter_id=elec.meter_id,
        value=last(db, elec).value + 10,
    )
    refused(utilities, db, "close_account", gas.meter_id, account_id=account.account_id)
    refused(
        utilities,
        db,
        "record_final_reading",
        "already has a final reading",
        meter_id=elec.meter_id,
        value=last(db, elec).value + 20,
    )
    ok(utilities, db, "record_final_reading", meter_id=gas.meter_id, value=last(db, gas).value)
    closed = ok(utilities, db, "close_account", account_id=account.account_id)
    assert closed["final_bill"]["final"] is True
    assert closed["balance"] == round(account.balance + closed["final_bill"]["total"], 2)
    after: Account = get(db, "accounts", account.account_id)
    assert after.status == CLOSED and after.closed == TODAY.isoformat()
    assert get(db, "premises", account.premise_id).account_id == ""
    assert last(db, get(db, "meters", elec.meter_id)).kind == FINAL
    refused(utilities, db, "close_account", "was closed", account_id=account.account_id)
    refused(
        utilities,
        db,
        "submit_meter_reading",
        "no open account",
        meter_id=elec.meter_id,
        value=10**7,
    )


def test_an_account_opens_only_at_a_vacant_premise_on_an_available_tariff(
    utilities: Domain, db: Database
) -> None:
    user: User = first(db, "users", lambda u: len(u.accounts) == 1)
    vacant: Premise = first(db, "premises", lambda p: not p.account_id)
    occupied: Premise = first(db, "premises", lambda p: bool(p.account_id))
    found = ok(
        utilities,
        db,
        "find_premise_by_address",
        address1=vacant.address.address1.upper(),
        zip=vacant.address.zip,
    )
    assert found["premise_id"] == vacant.premise_id and found["occupied"] is False
    args = {"user_id": user.user_id, "tariff_id": "T-SV"}
    refused(
        utilities,
        db,
        "open_account",
        "already has an open account",
        premise_id=occupied.premise_id,
        **args,
    )
    refused(
        utilities,
        db,
        "open_account",
        "closed to new sign-ups",
        user_id=user.user_id,
        premise_id=vacant.premise_id,
        tariff_id="T-F12L",
    )
    opened = ok(utilities, db, "open_account", premise_id=vacant.premise_id, **args)
    assert opened["status"] == ACTIVE and opened["balance"] == 0.0
    assert get(db, "users", user.user_id).accounts == (*user.accounts, opened["account_id"])
    assert get(db, "premises", vacant.premise_id).account_id == opened["account_id"]
    # billing starts at the newest reading: a bill without a new reading is refused
    refused(utilities, db, "create_bill", "already billed", account_id=opened["account_id"])


# ---- outages ---------------------------------------------------------------------------------


def test_an_outage_is_reported_once_a_day_and_only_for_a_supplied_fuel(
    utilities: Domain, db: Database
) -> None:
    account: Account = first(
        db, "accounts", lambda a: a.status == ACTIVE and len(meters(db, a)) == 1
    )
    args = {"account_id": account.account_id, "problem": "no supply"}
    refused(utilities, db, "report_outage", "no gas meter", fuel=GAS, **args)
    report = ok(utilities, db, "report_outage", fuel=ELECTRICITY, **args)
    assert report["reference"].startswith("R-") and report["date"] == TODAY.isoformat()
    refused(utilities, db, "report_outage", report["reference"], fuel=ELECTRICITY, **args)


# ---- late fees, outage credits, disputes, balance transfers, autopay -------------------------


def test_a_late_fee_is_waived_off_the_balance_and_only_when_there_is_one(
    utilities: Domain, db: Database
) -> None:
    account: Account = first(db, "accounts", lambda a: a.status == ACTIVE and a.late_fee > 0)
    assert account.late_fee == LATE_FEE
    waived = ok(utilities, db, "waive_late_fee", account_id=account.account_id)
    assert waived == {"waived": LATE_FEE, "balance": round(account.balance - LATE_FEE, 2)}
    after: Account = get(db, "accounts", account.account_id)
    assert after.late_fee == 0 and after.late_fee_waived == TODAY.isoformat()
    refused(utilities, db, "waive_late_fee", "no late fee", account_id=account.account_id)


def test_the_outage_history_lists_outages_over_in_the_zip_code_oldest_first(
    utilities: Domain, db: Database
) -> None:
    past: PastOutage = next(iter(utilities.base.tables["past_outages"].values()))
    listed = ok(utilities, db, "get_outage_history", zip=past.zip)
    assert past.outage_id in [o["outage_id"] for o in listed]
    assert [o["started"] for o in listed] == sorted(o["started"] for o in listed)
    for outage in listed:
        assert outage["zip"] == past.zip and outage["restored"] > outage["started"]
    assert ok(utilities, db, "get_outage_history", zip="00000") == []


def test_an_outage_credit_is_once_a_day_and_fuel_for_a_supplied_fuel_in_the_window(
    utilities: Domain, db: Database
) -> None:
    account: Account = first(
        db, "accounts", lambda a: a.status == ACTIVE and len(meters(db, a)) == 1
    )
    args = {"account_id": account.account_id}
    day = (TODAY - dt.timedelta(days=10)).isoformat()
    refused(utilities, db, "apply_outage_credit", "no gas meter", date=day, fuel=GAS, **args)
    old = (TODAY - dt.timedelta(days=HISTORY_DAYS + 1)).isoformat()
    refused(
        utilities, db, "apply_outage_credit", "last 90 days", date=old, fuel=ELECTRICITY, **args
    )
    refused(
        utilities,
        db,
        "apply_outage_credit",
        "YYYY-MM-DD",
        date="last week",
        fuel=ELECTRICITY,
        **args,
    )
    made = ok(utilities, db, "apply_outage_credit", date=day, fuel=ELECTRICITY, **args)
    assert made["balance"] == round(account.balance - OUTAGE_CREDIT, 2)
    assert made["credit"]["amount"] == OUTAGE_CREDIT
    refused(
        utilities, db, "apply_outage_credit", "already credited", date=day, fuel=ELECTRICITY, **args
    )


def test_a_bill_is_disputed_once_and_only_for_a_meter_on_it(
    utilities: Domain, db: Database
) -> None:
    bill: Bill = next(iter(utilities.base.tables["bills"].values()))
    line = bill.lines[0]
    other: Meter = first(
        db, "meters", lambda m: m.meter_id not in {ln.meter_id for ln in bill.lines}
    )
    args = {"bill_id": bill.bill_id, "customer_reading": line.to_value - 50}
    refused(utilities, db, "dispute_bill", "not on bill", meter_id=other.meter_id, **args)
    dispute = ok(utilities, db, "dispute_bill", meter_id=line.meter_id, **args)
    assert dispute["dispute_id"] == f"D-{bill.bill_id}" and dispute["status"] == "open"
    assert dispute["billed_reading"] == line.to_value
    refused(utilities, db, "dispute_bill", "already disputed", meter_id=line.meter_id, **args)


def test_a_balance_moves_only_from_a_closed_account_to_the_same_customers_open_one(
    utilities: Domain, db: Database
) -> None:
    account = dual_fuel(db, lambda a: a.billed_to < TODAY.isoformat())
    user: User = get(db, "users", account.user_id)
    vacant: Premise = first(db, "premises", lambda p: not p.account_id)
    stranger: Account = first(
        db, "accounts", lambda a: a.status == ACTIVE and a.user_id != user.user_id
    )
    new = ok(
        utilities,
        db,
        "open_account",
        user_id=user.user_id,
        premise_id=vacant.premise_id,
        tariff_id="T-SV",
    )["account_id"]
    moving = {"from_account_id": account.account_id, "to_account_id": new}
    refused(utilities, db, "transfer_balance", "still open", **moving)
    read_all(utilities, db, account, final=True)
    closed = ok(utilities, db, "close_account", account_id=account.account_id)
    refused(
        utilities,
        db,
        "transfer_balance",
        "one customer's own",
        from_account_id=account.account_id,
        to_account_id=stranger.account_id,
    )
    moved = ok(utilities, db, "transfer_balance", **moving)
    assert moved["moved"] == closed["balance"] and moved["balance"] == closed["balance"]
    assert get(db, "accounts", account.account_id).balance == 0.0
    refused(utilities, db, "transfer_balance", "owes nothing", **moving)


def test_autopay_takes_the_customers_card_or_paypal_never_a_gift_card(
    utilities: Domain, db: Database
) -> None:
    def with_gift(a: Account) -> bool:
        user: User = get(db, "users", a.user_id)
        sources = {m.source for m in user.payment_methods}
        return a.status == ACTIVE and "gift_card" in sources and len(sources) > 1

    account: Account = first(db, "accounts", with_gift)
    user: User = get(db, "users", account.user_id)
    gift = next(m for m in user.payment_methods if m.source == "gift_card")
    card = next(m for m in user.payment_methods if m.source != "gift_card")
    args = {"account_id": account.account_id}
    refused(utilities, db, "set_autopay", "not a gift card", payment_method_id=gift.id, **args)
    other: User = first(db, "users", lambda u: u.user_id != user.user_id and u.payment_methods)
    refused(
        utilities,
        db,
        "set_autopay",
        "does not belong",
        payment_method_id=other.payment_methods[0].id,
        **args,
    )
    shown = ok(utilities, db, "set_autopay", payment_method_id=card.id, **args)
    assert shown["autopay"] == card.id


# ---- the tasks hold to the policy ------------------------------------------------------------


def test_tasks_follow_the_plan_limits_and_the_transfers_of_the_policy(utilities: Domain) -> None:
    checked: set[str] = set()
    for task in utilities.tasks:
        for action in task.actions:
            checked.add(action.name)
            if action.name == "create_payment_plan":
                months = action.arguments["months"]
                assert PLAN_MIN_MONTHS <= months <= PLAN_MAX_MONTHS, task.id
                account = utilities.base.tables["accounts"][action.arguments["account_id"]]
                assert account.balance / months >= PLAN_MIN_INSTALMENT, task.id
            if action.name in ("change_tariff", "open_account"):
                assert utilities.base.tables["tariffs"][action.arguments["tariff_id"]].available
        ends = task.actions[-1].name == "transfer_to_human_agents"
        assert ends == (task.intent in ("hardship_disconnection", "gas_smell")), task.id
        if task.intent == "waive_exit_fee":
            assert not utilities.write_actions(task) and task.required_outputs, task.id
            checked.add(task.intent)
    assert {"create_payment_plan", "change_tariff", "open_account", "waive_exit_fee"} <= checked


def test_tasks_credit_waive_and_dispute_only_as_the_policy_allows(utilities: Domain) -> None:
    tables = utilities.base.tables
    seen = set()

    def on_file(args: dict[str, Any]) -> bool:
        """An outage of the fuel that day at the account's zip, long enough for a credit."""
        account = tables["accounts"][args["account_id"]]
        zip_code = tables["premises"][account.premise_id].address.zip
        return any(
            o.zip == zip_code
            and o.fuel == args["fuel"]
            and o.started[:10] == args["date"]
            and o.hours >= CREDIT_MIN_HOURS
            for o in tables["past_outages"].values()
        )

    for task in utilities.tasks:
        for action in utilities.write_actions(task):
            args = action.arguments
            seen.add(action.name)
            if action.name == "apply_outage_credit":
                assert on_file(args), task.id
            if action.name == "waive_late_fee":
                assert tables["accounts"][args["account_id"]].late_fee_waived <= WAIVER_CUTOFF
            if action.name == "dispute_bill":
                bill = tables["bills"][args["bill_id"]]
                line = next(ln for ln in bill.lines if ln.meter_id == args["meter_id"])
                assert line.estimated and args["customer_reading"] < line.to_value, task.id
            if action.name == "set_autopay":
                user = next(
                    u
                    for u in tables["users"].values()
                    if u.payment_method(args["payment_method_id"]) is not None
                )
                assert user.payment_method(args["payment_method_id"]).source != "gift_card"
        for violation in utilities.violations(task):
            assert utilities.intent(task.intent).rules, task.id
            seen.add(f"violation:{violation.name}")
            if violation.name == "waive_late_fee":  # forbidden: a waiver in the last 12 months
                account = tables["accounts"][violation.arguments["account_id"]]
                assert account.late_fee > 0 and account.late_fee_waived > WAIVER_CUTOFF, task.id
            if violation.name == "apply_outage_credit":  # forbidden: no such outage on file
                assert not on_file(violation.arguments), task.id
    assert {"apply_outage_credit", "dispute_bill", "transfer_balance", "set_autopay"} <= seen
    assert {"violation:waive_late_fee", "violation:apply_outage_credit"} <= seen


def test_the_policy_states_the_figures_the_tasks_use(utilities: Domain) -> None:
    for figure in (
        f"**{PLAN_MIN_MONTHS} to {PLAN_MAX_MONTHS} months**",
        f"at least **{money_text(PLAN_MIN_INSTALMENT)}**",
        f"for **{CREDIT_MIN_HOURS} hours or more**",
        f"a date after {WAIVER_CUTOFF}",
    ):
        assert figure in utilities.policy, figure
