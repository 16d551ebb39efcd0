"""The utilities tools the agent calls; each enforces what the supplier's billing system enforces.

The tools refuse what the system cannot do: a reading lower than the meter's last one, a bill
without new readings, a payment above the balance owed, a second active payment plan or one
beyond 24 instalments, a switch to a tariff closed to sign-ups, closing an account whose meters
have no final reading, opening one at an occupied premise; ``billing`` adds the tools of
late fees, outage credits, bill disputes, balance transfers and autopay. The policy's own
rules (exit fees are never waived, plan limits, hardship to a human, confirmation, identity
first) are the agent's to follow.
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

from typing import Any, Literal

import msgspec

from tau_sim.domains.kit import identity
from tau_sim.domains.kit import tools as kit_tools
from tau_sim.domains.kit.calc import add_months
from tau_sim.domains.kit.lookup import load
from tau_sim.domains.kit.payments import check_funds, money, owned_method, with_balance
from tau_sim.domains.utilities import billing
from tau_sim.domains.utilities.access import (
    account_view,
    active_account,
    add_reading,
    check_payable,
    exit_fee,
    issue_bill,
    latest_reading,
    load_account,
    load_meter,
    load_premise,
    load_tariff,
    load_user,
    meters_of,
    new_account_id,
    premise_view,
    readings,
    report_reference,
)
from tau_sim.domains.utilities.data import (
    ACTIVE,
    ACTUAL,
    CLOSED,
    FINAL,
    FIXED,
    PLAN_SYSTEM_MAX_MONTHS,
    TODAY,
    Account,
    Bill,
    Outage,
    OutageReport,
    Payment,
    PaymentPlan,
    Reading,
    Tariff,
    premise_key,
)
from tau_sim.simulator.world import Database, ToolError, ToolKind, tool

# ---- read tools -------------------------------------------------------------------------------

find_user_id_by_email = identity.find_user_id_by_email
find_user_id_by_name_zip = identity.find_user_id_by_name_zip


get_user_details = kit_tools.profile_tool(
    "get_user_details",
    "Get a customer's profile: name, postal address, email, payment methods and account ids.",
    load_user,
)


@tool(ToolKind.READ)
def get_account_details(db: Database, account_id: str) -> dict[str, Any]:
    """Get an energy account: service address, status, tariff, meters, balance, bills and plan.

    ``balance`` is what the customer owes; ``billed_to`` the last day billed; ``fixed_until``
    the end of a fixed tariff's term; ``bills`` the bill ids, newest first; each meter shows its
    newest reading. ``exit_fee_if_switched_today`` is the fee a tariff switch would cost today.

    Args:
        account_id: The account id, e.g. "A12345678".
    """
    return account_view(db, load_account(db, account_id))


@tool(ToolKind.READ)
def get_meter_readings(db: Database, meter_id: str) -> list[Reading]:
    """List a meter's readings, newest first: date, cumulative value and kind.

    Kinds: "actual" (read by the customer or an engineer), "estimated" (by the supplier),
    "final" (the move-out reading).

    Args:
        meter_id: The meter id, e.g. "EM1234567" (electricity) or "GM1234567" (gas).
    """
    return readings(db, load_meter(db, meter_id))


@tool(ToolKind.READ)
def get_bill_details(db: Database, bill_id: str) -> Bill:
    """Get a bill: period, per-meter lines (units, unit rate, standing charge) and the total.

    A line is ``estimated`` when the reading it ends on was estimated.

    Args:
        bill_id: The bill id, e.g. "A12345678-B02".
    """
    bill: Bill = load(db, "bills", bill_id.strip(), "bill")
    return bill


@tool(ToolKind.READ)
def list_tariffs(db: Database) -> list[Tariff]:
    """List every tariff: kind, prices per fuel, fixed term, exit fee per fuel, availability.

    Only tariffs with ``available`` true can be switched to or opened on.
    """
    return [load_tariff(db, t) for t in db.keys("tariffs")]


@tool(ToolKind.READ)
def get_tariff_details(db: Database, tariff_id: str) -> Tariff:
    """Get one tariff: kind, unit rates and standing charges per fuel, term and exit fee.

    Args:
        tariff_id: The tariff id, e.g. "T-F12".
    """
    return load_tariff(db, tariff_id)


@tool(ToolKind.READ)
def find_premise_by_address(db: Database, address1: str, zip: str) -> dict[str, Any]:
    """Find a service address (premise) by its first address line and zip code.

    Returns its id, address, whether it has an open account, and its meters.

    Args:
        address1: The first line of the address, e.g. "123 Maple Street".
        zip: The zip code, e.g. "98101".
    """
    hits = db.find("premise_address", premise_key(address1, zip))
    if not hits:
        raise ToolError("no premise we supply at this address")
    return premise_view(db, load_premise(db, hits[0]))


@tool(ToolKind.READ)
def get_area_outages(db: Database, zip: str) -> list[Outage]:
    """List the known supply outages in a zip code, with their estimated restoration times.

    Args:
        zip: The zip code, e.g. "98101".
    """
    return [load(db, "outages", key, "outage") for key in db.find("outage_zip", zip.strip())]


calculate = kit_tools.calculate
transfer_to_human_agents = kit_tools.transfer_to_human_agents

# ---- write tools ------------------------------------------------------------------------------


@tool(ToolKind.WRITE)
def submit_meter_reading(db: Database, meter_id: str, value: int) -> Reading:
    """Record a meter reading the customer took today.

    Refused when the value is lower than the meter's last reading (readings never go down) or
    when the meter's premise has no open account.

    Args:
        meter_id: The meter id, e.g. "EM1234567".
        value: The whole number shown on the meter, e.g. 48213.
    """
    return add_reading(db, load_meter(db, meter_id), value, ACTUAL)


@tool(ToolKind.WRITE)
def create_bill(db: Database, account_id: str) -> dict[str, Any]:
    """Issue a bill now: each meter's units since the last bill plus standing charges to today.

    Every meter needs a reading since the last bill. The total is added to the balance.

    Args:
        account_id: The account id, e.g. "A12345678".
    """
    bill, account = issue_bill(db, active_account(db, account_id), final=False)
    return {"bill": bill, "balance": account.balance}


@tool(ToolKind.WRITE)
def make_payment(
    db: Database, account_id: str, amount: float, payment_method_id: str
) -> dict[str, Any]:
    """Take a payment towards an account's balance with one of the customer's payment methods.

    Refused when the amount is above the balance owed, or above a gift card's balance.

    Args:
        account_id: The account id, e.g. "A12345678".
        amount: The amount in dollars, more than zero, e.g. 120.5.
        payment_method_id: The customer's payment method, e.g. "credit_card_1234567".
    """
    account = load_account(db, account_id)
    amount = money(amount)
    check_payable(account, amount)
    user = load_user(db, account.user_id)
    method = owned_method(user, payment_method_id)
    check_funds(method, amount)
    if method.source == "gift_card":
        db.put("users", user.user_id, with_balance(user, method.id, -amount))
    n = account.payment_count + 1
    payment = Payment(
        f"{account.account_id}-P{n:02d}", account.account_id, TODAY.isoformat(), amount, method.id
    )
    db.put("payments", payment.payment_id, payment)
    updated = msgspec.structs.replace(
        account, balance=money(account.balance - amount), payment_count=n
    )
    db.put("accounts", account.account_id, updated)
    return {"payment": payment, "balance": updated.balance}


@tool(ToolKind.WRITE)
def create_payment_plan(
    db: Database, account_id: str, months: int, payment_method_id: str
) -> PaymentPlan:
    """Spread an account's whole current balance over monthly instalments, the first next month.

    The instalment is the balance divided by the months, rounded to cents. Refused when nothing
    is owed, when the account already has an active plan, or beyond 24 months.

    Args:
        account_id: The account id, e.g. "A12345678".
        months: The number of monthly instalments, e.g. 6.
        payment_method_id: The payment method the instalments are collected from.
    """
    account = load_account(db, account_id)
    if account.balance <= 0:
        raise ToolError(f"account {account.account_id} owes nothing")
    if account.payment_plan:
        raise ToolError(f"account {account.account_id} already has plan {account.payment_plan}")
    if not 2 <= months <= PLAN_SYSTEM_MAX_MONTHS:
        raise ToolError(f"a plan has 2 to {PLAN_SYSTEM_MAX_MONTHS} monthly instalments")
    owned_method(load_user(db, account.user_id), payment_method_id)
    plan = PaymentPlan(
        f"{account.account_id}-PP",
        account.account_id,
        account.balance,
        months,
        money(account.balance / months),
        payment_method_id,
        add_months(TODAY, 1).isoformat(),
        ACTIVE,
    )
    db.put("payment_plans", plan.plan_id, plan)
    db.put(
        "accounts", account.account_id, msgspec.structs.replace(account, payment_plan=plan.plan_id)
    )
    return plan


@tool(ToolKind.WRITE)
def change_tariff(db: Database, account_id: str, tariff_id: str) -> dict[str, Any]:
    """Switch an account to another available tariff from today.

    Leaving a fixed tariff before its term ends adds its exit fee (per fuel) to the balance.
    A new fixed tariff runs its term from today.

    Args:
        account_id: The account id, e.g. "A12345678".
        tariff_id: The tariff to switch to, e.g. "T-F12".
    """
    account = active_account(db, account_id)
    tariff = load_tariff(db, tariff_id)
    if tariff.tariff_id == account.tariff_id:
        raise ToolError(f"account {account.account_id} is already on {tariff.name}")
    if not tariff.available:
        raise ToolError(f"{tariff.name} is closed to new sign-ups and switches")
    fee = exit_fee(db, account)
    fixed_until = add_months(TODAY, tariff.term_months).isoformat() if tariff.kind == FIXED else ""
    updated = msgspec.structs.replace(
        account,
        tariff_id=tariff.tariff_id,
        fixed_until=fixed_until,
        balance=money(account.balance + fee),
    )
    db.put("accounts", account.account_id, updated)
    return {"account": account_view(db, updated), "exit_fee_charged": fee}


@tool(ToolKind.WRITE)
def record_final_reading(db: Database, meter_id: str, value: int) -> Reading:
    """Record the final reading of a meter on the day the customer moves out.

    Refused below the meter's last reading or when it already has a final reading.

    Args:
        meter_id: The meter id, e.g. "EM1234567".
        value: The whole number shown on the meter, e.g. 48213.
    """
    return add_reading(db, load_meter(db, meter_id), value, FINAL)


@tool(ToolKind.WRITE)
def close_account(db: Database, account_id: str) -> dict[str, Any]:
    """Close an account at move-out: issues the final bill and frees the premise.

    Every meter must have a final reading recorded today. No exit fee applies to a move-out.
    The balance left (final bill included) stays owed.

    Args:
        account_id: The account id, e.g. "A12345678".
    """
    account = active_account(db, account_id)
    premise = load_premise(db, account.premise_id)
    for meter in meters_of(db, premise):
        last = latest_reading(db, meter)
        if last.kind != FINAL or last.date != TODAY.isoformat():
            raise ToolError(
                f"meter {meter.meter_id} ({meter.fuel}) has no final reading today: "
                "record one before closing the account"
            )
    bill, account = issue_bill(db, account, final=True)
    closed = msgspec.structs.replace(account, status=CLOSED, closed=TODAY.isoformat())
    db.put("accounts", closed.account_id, closed)
    db.put("premises", premise.premise_id, msgspec.structs.replace(premise, account_id=""))
    return {"final_bill": bill, "balance": closed.balance}


@tool(ToolKind.WRITE)
def open_account(db: Database, user_id: str, premise_id: str, tariff_id: str) -> Account:
    """Open a new account for a customer moving in to a premise, supplied from today.

    Billing starts from each meter's newest reading. Refused when the premise already has an
    open account or the tariff is closed to new sign-ups.

    Args:
        user_id: The user id, e.g. "ava_smith_1234".
        premise_id: The premise found by address, e.g. "P1234567".
        tariff_id: The tariff to supply on, e.g. "T-SV".
    """
    user = load_user(db, user_id)
    premise = load_premise(db, premise_id)
    if premise.account_id:
        raise ToolError(f"premise {premise.premise_id} already has an open account")
    tariff = load_tariff(db, tariff_id)
    if not tariff.available:
        raise ToolError(f"{tariff.name} is closed to new sign-ups and switches")
    for meter in meters_of(db, premise):
        db.put(
            "meters",
            meter.meter_id,
            msgspec.structs.replace(meter, billed_reading=meter.reading_count),
        )
    account = Account(
        new_account_id(premise, user),
        user.user_id,
        premise.premise_id,
        ACTIVE,
        tariff.tariff_id,
        0.0,
        TODAY.isoformat(),
        TODAY.isoformat(),
        0,
        fixed_until=add_months(TODAY, tariff.term_months).isoformat()
        if tariff.kind == FIXED
        else "",
    )
    db.put("accounts", account.account_id, account)
    db.put(
        "premises",
        premise.premise_id,
        msgspec.structs.replace(premise, account_id=account.account_id),
    )
    db.put(
        "users",
        user.user_id,
        msgspec.structs.replace(user, accounts=(*user.accounts, account.account_id)),
    )
    return account


@tool(ToolKind.WRITE)
def report_outage(
    db: Database,
    account_id: str,
    fuel: Literal["electricity", "gas"],
    problem: Literal["no supply", "intermittent supply"],
) -> OutageReport:
    """Report a supply problem at an account's premise; returns the report's reference.

    Refused when the premise has no meter of that fuel or the same fuel was reported today.

    Args:
        account_id: The account id, e.g. "A12345678".
        fuel: "electricity" or "gas".
        problem: "no supply" (nothing at all) or "intermittent supply" (it keeps cutting out).
    """
    account = active_account(db, account_id)
    premise = load_premise(db, account.premise_id)
    if not any(m.fuel == fuel for m in meters_of(db, premise)):
        raise ToolError(f"the premise of account {account.account_id} has no {fuel} meter")
    reference = report_reference(account.account_id, fuel)
    if db.get("outage_reports", reference) is not None:
        raise ToolError(f"this {fuel} problem was already reported today: reference {reference}")
    report = OutageReport(
        reference, account.account_id, premise.premise_id, fuel, problem, TODAY.isoformat()
    )
    db.put("outage_reports", reference, report)
    return report


@tool(ToolKind.WRITE)
def set_paperless_billing(db: Database, account_id: str, enabled: bool) -> dict[str, Any]:
    """Turn paperless billing on (bills by email only) or off (bills also mailed).

    Args:
        account_id: The account id, e.g. "A12345678".
        enabled: True for paperless billing, False for paper bills.
    """
    account = active_account(db, account_id)
    updated = msgspec.structs.replace(account, paperless=enabled)
    db.put("accounts", account.account_id, updated)
    return account_view(db, updated)


get_outage_history = billing.get_outage_history
waive_late_fee = billing.waive_late_fee
apply_outage_credit = billing.apply_outage_credit
dispute_bill = billing.dispute_bill
transfer_balance = billing.transfer_balance
set_autopay = billing.set_autopay
