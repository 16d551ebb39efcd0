"""Lookups, views and the hard-rule checks of the utilities tools (they raise ``ToolError``)."""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from tau_sim.domains.kit.lookup import load, loader
from tau_sim.domains.kit.payments import money, money_text
from tau_sim.domains.utilities.data import (
    ACTIVE,
    FINAL,
    FIXED,
    TODAY,
    Account,
    Bill,
    Meter,
    Premise,
    Reading,
    Tariff,
    User,
    bill_lines,
    bill_total,
    reading_id,
)
from tau_sim.simulator.world import Database, ToolError

load_user = loader("users", "user", User)
load_account = loader("accounts", "account", Account)
load_meter = loader("meters", "meter", Meter)
load_premise = loader("premises", "premise", Premise)
load_tariff = loader("tariffs", "tariff", Tariff)


def active_account(db: Database, account_id: str) -> Account:
    """The account ``account_id``, refused when it is closed."""
    account = load_account(db, account_id)
    if account.status != ACTIVE:
        raise ToolError(f"account {account.account_id} was closed on {account.closed}")
    return account


def meters_of(db: Database, premise: Premise) -> list[Meter]:
    """The premise's meters."""
    return [load_meter(db, m) for m in premise.meters]


def latest_reading(db: Database, meter: Meter) -> Reading:
    """The meter's newest reading."""
    reading: Reading = load(
        db, "readings", reading_id(meter.meter_id, meter.reading_count), "reading"
    )
    return reading


def readings(db: Database, meter: Meter) -> list[Reading]:
    """The meter's readings, newest first."""
    return [
        load(db, "readings", reading_id(meter.meter_id, n), "reading")
        for n in range(meter.reading_count, 0, -1)
    ]


def supplied_account(db: Database, meter: Meter) -> Account:
    """The open account that the meter's premise is supplied under; refused when vacant."""
    premise = load_premise(db, meter.premise_id)
    if not premise.account_id:
        raise ToolError(f"meter {meter.meter_id} is at a premise with no open account")
    return active_account(db, premise.account_id)


def add_reading(db: Database, meter: Meter, value: int, kind: str) -> Reading:
    """Record a reading dated today; refused after a final reading or below the last value."""
    supplied_account(db, meter)
    last = latest_reading(db, meter)
    if last.kind == FINAL:
        raise ToolError(f"meter {meter.meter_id} already has a final reading ({last.date})")
    if value < last.value:
        raise ToolError(
            f"a reading of {value} is lower than the meter's last reading of {last.value} "
            f"{meter.unit} ({last.kind}, {last.date}): readings never go down"
        )
    n = meter.reading_count + 1
    reading = Reading(reading_id(meter.meter_id, n), meter.meter_id, TODAY.isoformat(), value, kind)
    db.put("readings", reading.reading_id, reading)
    db.put("meters", meter.meter_id, msgspec.structs.replace(meter, reading_count=n))
    return reading


def exit_fee(db: Database, account: Account) -> float:
    """The exit fee due if the account left its tariff today (fixed term not yet over)."""
    tariff = load_tariff(db, account.tariff_id)
    if tariff.kind != FIXED or not account.fixed_until or account.fixed_until <= TODAY.isoformat():
        return 0.0
    return tariff.exit_fee * len(load_premise(db, account.premise_id).meters)


def issue_bill(db: Database, account: Account, final: bool) -> tuple[Bill, Account]:
    """Bill every meter from its last billed reading to its newest one, standing charges to today.

    Refused when a meter has no reading since the last bill or the account was billed today.
    """
    if account.billed_to >= TODAY.isoformat():
        raise ToolError(f"account {account.account_id} was already billed up to today")
    tariff = load_tariff(db, account.tariff_id)
    parts = []
    for meter in meters_of(db, load_premise(db, account.premise_id)):
        if meter.reading_count <= meter.billed_reading:
            raise ToolError(
                f"meter {meter.meter_id} ({meter.fuel}) has no reading since the last bill "
                f"(billed to {account.billed_to}): a reading is needed first"
            )
        billed: Reading = load(
            db, "readings", reading_id(meter.meter_id, meter.billed_reading), "reading"
        )
        parts.append((meter, latest_reading(db, meter), billed.value))
    lines = bill_lines(tariff, parts, account.billed_to, TODAY.isoformat())
    n = account.bill_count + 1
    bill = Bill(
        f"{account.account_id}-B{n:02d}",
        account.account_id,
        TODAY.isoformat(),
        account.billed_to,
        TODAY.isoformat(),
        tuple(lines),
        bill_total(lines),
        final=final,
    )
    db.put("bills", bill.bill_id, bill)
    for meter, reading, _ in parts:
        n_read = int(reading.reading_id.rsplit("-", 1)[1])
        db.put("meters", meter.meter_id, msgspec.structs.replace(meter, billed_reading=n_read))
    updated = msgspec.structs.replace(
        account,
        balance=money(account.balance + bill.total),
        billed_to=TODAY.isoformat(),
        bill_count=n,
    )
    db.put("accounts", account.account_id, updated)
    return bill, updated


def check_payable(account: Account, amount: float) -> None:
    """Refuse a payment of zero or less, or above the balance owed."""
    if amount <= 0:
        raise ToolError("amount must be more than zero")
    if amount > account.balance:
        raise ToolError(
            f"{money_text(amount)} is more than the balance of {money_text(account.balance)} "
            f"owed on account {account.account_id}"
        )


def report_reference(account_id: str, fuel: str) -> str:
    """The reference of today's outage report of ``fuel`` on an account (deterministic)."""
    digest = hashlib.sha256(f"{account_id}|{fuel}|{TODAY.isoformat()}".encode()).digest()
    return f"R-{int.from_bytes(digest[:4], 'big') % 1_000_000:06d}"


def new_account_id(premise: Premise, user: User) -> str:
    """The id of the account a customer opens at a premise (deterministic)."""
    return f"N{premise.premise_id[1:]}-{len(user.accounts) + 1}"


def meter_view(db: Database, meter: Meter) -> dict[str, Any]:
    """A meter with its newest reading."""
    view: dict[str, Any] = msgspec.to_builtins(meter)
    view.pop("billed_reading", None)
    view.pop("reading_count", None)
    view["latest_reading"] = msgspec.to_builtins(latest_reading(db, meter))
    return view


def account_view(db: Database, account: Account) -> dict[str, Any]:
    """An account as the agent sees it: address, meters, tariff, bills, the exit fee today."""
    view: dict[str, Any] = msgspec.to_builtins(account)
    premise = load_premise(db, account.premise_id)
    view["service_address"] = msgspec.to_builtins(premise.address)
    view["tariff_name"] = load_tariff(db, account.tariff_id).name
    view["meters"] = [meter_view(db, m) for m in meters_of(db, premise)]
    view["bills"] = [f"{account.account_id}-B{n:02d}" for n in range(account.bill_count, 0, -1)]
    view.pop("bill_count", None)
    view.pop("payment_count", None)
    if account.status == ACTIVE:
        view["exit_fee_if_switched_today"] = exit_fee(db, account)
    return view


def premise_view(db: Database, premise: Premise) -> dict[str, Any]:
    """A premise as the agent sees it: address, meters, whether it has an open account."""
    return {
        "premise_id": premise.premise_id,
        "address": msgspec.to_builtins(premise.address),
        "occupied": bool(premise.account_id),
        "meters": [meter_view(db, m) for m in meters_of(db, premise)],
    }
