"""The utilities tools for fees, credits, disputes, balance transfers, autopay and outage history.

``tools`` lists them beside the others. Like those, they refuse only what the billing system
cannot do: waiving a late fee an account does not have, a second credit for the same day and
fuel, a fuel the premise is not supplied with, a second dispute of one bill, a meter that is
not on the bill, a balance moved from an open account or to another customer's, autopay from a
gift card. Which fee may be waived, which outage earns a credit and which reading is disputed
is the policy's, and the agent's to follow.
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import msgspec

from tau_sim.domains.kit.calc import parse_day
from tau_sim.domains.kit.lookup import load
from tau_sim.domains.kit.payments import money, owned_method
from tau_sim.domains.utilities.access import (
    account_view,
    active_account,
    load_account,
    load_meter,
    load_premise,
    load_user,
    meters_of,
)
from tau_sim.domains.utilities.data import (
    ACTIVE,
    CLOSED,
    HISTORY_DAYS,
    OUTAGE_CREDIT,
    TODAY,
    Bill,
    Dispute,
    OutageCredit,
    PastOutage,
)
from tau_sim.simulator.world import Database, ToolError, ToolKind, tool


@tool(ToolKind.READ)
def get_outage_history(db: Database, zip: str) -> list[PastOutage]:
    """List the outages of the last 90 days in a zip code that are over, oldest first.

    Each shows its fuel, when it started, when supply came back and how many hours it lasted.

    Args:
        zip: The zip code, e.g. "98101".
    """
    found: list[PastOutage] = [
        load(db, "past_outages", key, "outage") for key in db.find("past_outage_zip", zip.strip())
    ]
    return sorted(found, key=lambda o: o.started)


@tool(ToolKind.WRITE)
def waive_late_fee(db: Database, account_id: str) -> dict[str, Any]:
    """Waive the late fee on an account: it comes off the balance and today is the waiver's date.

    Refused when the account has no late fee.

    Args:
        account_id: The account id, e.g. "A12345678".
    """
    account = active_account(db, account_id)
    if account.late_fee <= 0:
        raise ToolError(f"account {account.account_id} has no late fee")
    updated = msgspec.structs.replace(
        account,
        balance=money(account.balance - account.late_fee),
        late_fee=0.0,
        late_fee_waived=TODAY.isoformat(),
    )
    db.put("accounts", account.account_id, updated)
    return {"waived": account.late_fee, "balance": updated.balance}


@tool(ToolKind.WRITE)
def apply_outage_credit(
    db: Database, account_id: str, date: str, fuel: Literal["electricity", "gas"]
) -> dict[str, Any]:
    """Credit an account $30.00 for a day its supply of a fuel was cut; lowers the balance.

    Refused for a fuel the premise is not supplied with, a day in the future or more than 90
    days ago, or a day and fuel already credited.

    Args:
        account_id: The account id, e.g. "A12345678".
        date: The day the supply was cut, as YYYY-MM-DD, e.g. "2025-10-02".
        fuel: "electricity" or "gas".
    """
    account = active_account(db, account_id)
    try:
        when = parse_day(date, "date")
    except ValueError as error:
        raise ToolError(str(error)) from None
    if not TODAY - dt.timedelta(days=HISTORY_DAYS) <= when <= TODAY:
        raise ToolError(f"a credit is for a day in the last {HISTORY_DAYS} days")
    premise = load_premise(db, account.premise_id)
    if not any(m.fuel == fuel for m in meters_of(db, premise)):
        raise ToolError(f"the premise of account {account.account_id} has no {fuel} meter")
    credit_id = f"{account.account_id}-OC-{when.isoformat()}-{fuel[0].upper()}"
    if db.get("outage_credits", credit_id) is not None:
        raise ToolError(f"{fuel} on {when.isoformat()} was already credited ({credit_id})")
    credit = OutageCredit(credit_id, account.account_id, when.isoformat(), fuel, OUTAGE_CREDIT)
    db.put("outage_credits", credit_id, credit)
    updated = msgspec.structs.replace(account, balance=money(account.balance - OUTAGE_CREDIT))
    db.put("accounts", account.account_id, updated)
    return {"credit": credit, "balance": updated.balance}


@tool(ToolKind.WRITE)
def dispute_bill(db: Database, bill_id: str, meter_id: str, customer_reading: int) -> Dispute:
    """Open a dispute of the reading a bill used for one meter, with the customer's reading.

    Refused when the meter is not on the bill or the bill is already disputed.

    Args:
        bill_id: The bill id, e.g. "A12345678-B02".
        meter_id: The meter whose reading is disputed, e.g. "EM1234567".
        customer_reading: The whole number the customer reads on the meter, e.g. 48213.
    """
    bill: Bill = load(db, "bills", bill_id.strip(), "bill")
    meter = load_meter(db, meter_id)
    line = next((ln for ln in bill.lines if ln.meter_id == meter.meter_id), None)
    if line is None:
        raise ToolError(f"meter {meter.meter_id} is not on bill {bill.bill_id}")
    dispute_id = f"D-{bill.bill_id}"
    if db.get("disputes", dispute_id) is not None:
        raise ToolError(f"bill {bill.bill_id} is already disputed ({dispute_id})")
    dispute = Dispute(
        dispute_id,
        bill.bill_id,
        bill.account_id,
        meter.meter_id,
        line.to_value,
        customer_reading,
        TODAY.isoformat(),
        "open",
    )
    db.put("disputes", dispute_id, dispute)
    return dispute


@tool(ToolKind.WRITE)
def transfer_balance(db: Database, from_account_id: str, to_account_id: str) -> dict[str, Any]:
    """Move the whole balance of a closed account onto the same customer's open account.

    Refused when the first account is not closed or owes nothing, when the second is not open,
    or when they belong to different customers.

    Args:
        from_account_id: The closed account, e.g. "A12345678".
        to_account_id: The open account that takes the balance, e.g. "N1234567-2".
    """
    source = load_account(db, from_account_id)
    target = load_account(db, to_account_id)
    if source.status != CLOSED:
        raise ToolError(f"account {source.account_id} is still open: close it first")
    if target.status != ACTIVE:
        raise ToolError(f"account {target.account_id} is not open")
    if source.user_id != target.user_id:
        raise ToolError("a balance moves only between one customer's own accounts")
    if source.balance <= 0:
        raise ToolError(f"account {source.account_id} owes nothing")
    moved = source.balance
    db.put("accounts", source.account_id, msgspec.structs.replace(source, balance=0.0))
    updated = msgspec.structs.replace(target, balance=money(target.balance + moved))
    db.put("accounts", target.account_id, updated)
    return {"moved": moved, "balance": updated.balance, "closed_account_balance": 0.0}


@tool(ToolKind.WRITE)
def set_autopay(db: Database, account_id: str, payment_method_id: str) -> dict[str, Any]:
    """Pay each new bill of an account automatically from one of the customer's methods.

    Refused for a gift card (autopay needs a credit card or PayPal) or another's method.

    Args:
        account_id: The account id, e.g. "A12345678".
        payment_method_id: The credit card or PayPal method, e.g. "credit_card_1234567".
    """
    account = active_account(db, account_id)
    method = owned_method(load_user(db, account.user_id), payment_method_id)
    if method.source == "gift_card":
        raise ToolError("autopay needs a credit card or PayPal, not a gift card")
    updated = msgspec.structs.replace(account, autopay=method.id)
    db.put("accounts", account.account_id, updated)
    return account_view(db, updated)
