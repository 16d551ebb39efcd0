"""Utilities records (frozen msgspec Structs), bill arithmetic and the deterministic generator.

Premises (service addresses) hold the meters; an account is one customer's supply at one
premise. Readings of a meter are numbered ``{meter_id}-{n:03d}`` from 1 (the oldest) to the
meter's ``reading_count``. A bill line charges the units between a meter's last billed reading
and its newest one at the tariff's unit rate, plus the standing charge for every day of the
period; the bill's total is the sum of its lines, rounded to cents per charge (the kit's
``calc`` counts the days). Some accounts carry a late fee (some had one waived before), and
the outage history holds the outages of the last 90 days that are over, with their hours.
Every date is an ISO string relative to ``TODAY``, the fixed "today" of the world: tools and
intents never read the real clock.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from typing import Any

import msgspec

from tau_sim.domains.kit.calc import add_months, days_from
from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP, identity_indexes
from tau_sim.domains.kit.payments import money
from tau_sim.domains.kit.people import Address, Customer, Ids, customers, random_address
from tau_sim.simulator.world import Base, Index

ELECTRICITY = "electricity"
GAS = "gas"
UNITS = {ELECTRICITY: "kWh", GAS: "therms"}

ACTIVE = "active"
CLOSED = "closed"

FIXED = "fixed"
VARIABLE = "variable"

ACTUAL = "actual"
ESTIMATED = "estimated"
FINAL = "final"
"""Reading kinds: submitted by the customer or an engineer, estimated by us, final at move-out."""


class User(Customer, frozen=True, omit_defaults=True):
    """An energy customer and the ids of their accounts (open and closed)."""

    accounts: tuple[str, ...] = ()


class Rate(msgspec.Struct, frozen=True):
    """The price of one fuel: dollars per unit and dollars per day of supply."""

    unit_rate: float
    standing_charge: float


class Tariff(msgspec.Struct, frozen=True, omit_defaults=True):
    """A tariff: its prices per fuel; fixed tariffs run ``term_months`` and have an exit fee.

    ``exit_fee`` is charged per fuel when an account leaves the tariff before its fixed term
    ends. ``available`` is false for tariffs closed to new sign-ups and switches.
    """

    tariff_id: str
    name: str
    kind: str
    electricity: Rate
    gas: Rate
    available: bool
    term_months: int = 0
    exit_fee: float = 0.0


class Meter(msgspec.Struct, frozen=True, omit_defaults=True):
    """A meter at a premise; ``billed_reading`` numbers the last reading a bill used."""

    meter_id: str
    premise_id: str
    fuel: str
    serial: str
    unit: str
    reading_count: int
    billed_reading: int


class Reading(msgspec.Struct, frozen=True):
    """One meter reading: cumulative ``value`` in the meter's unit, and how it was taken."""

    reading_id: str
    meter_id: str
    date: str
    value: int
    kind: str


class Premise(msgspec.Struct, frozen=True, omit_defaults=True):
    """A service address with its meters; ``account_id`` is its open account ("" when vacant)."""

    premise_id: str
    address: Address
    meters: tuple[str, ...]
    account_id: str = ""


class Account(msgspec.Struct, frozen=True, omit_defaults=True):
    """One customer's supply at one premise.

    ``balance`` is what the customer owes (never below zero); ``billed_to`` is the last day
    billed; ``fixed_until`` is the end of a fixed tariff's term ("" on a variable tariff).
    Bills are ``{account_id}-B{n:02d}`` and payments ``{account_id}-P{n:02d}`` from 1 to their
    counts. ``late_fee`` is the unpaid late fee inside the balance, ``late_fee_waived`` the day
    a late fee was last waived ("" never); ``autopay`` the payment method that pays each new
    bill ("" none). A credit can take the balance below zero (money in credit).
    """

    account_id: str
    user_id: str
    premise_id: str
    status: str
    tariff_id: str
    balance: float
    billed_to: str
    opened: str
    bill_count: int
    fixed_until: str = ""
    closed: str = ""
    payment_count: int = 0
    payment_plan: str = ""
    paperless: bool = False
    late_fee: float = 0.0
    late_fee_waived: str = ""
    autopay: str = ""


class BillLine(msgspec.Struct, frozen=True):
    """One meter's part of a bill: the units between two readings and the standing charge."""

    meter_id: str
    fuel: str
    from_value: int
    to_value: int
    units: int
    unit_rate: float
    energy_charge: float
    days: int
    standing_charge: float
    estimated: bool


class Bill(msgspec.Struct, frozen=True, omit_defaults=True):
    """A bill for ``period_start`` to ``period_end``; ``final`` marks the move-out bill."""

    bill_id: str
    account_id: str
    issued: str
    period_start: str
    period_end: str
    lines: tuple[BillLine, ...]
    total: float
    final: bool = False


class Payment(msgspec.Struct, frozen=True):
    """A payment towards an account's balance."""

    payment_id: str
    account_id: str
    date: str
    amount: float
    payment_method_id: str


class PaymentPlan(msgspec.Struct, frozen=True):
    """A balance spread over ``months`` monthly instalments, collected from a payment method."""

    plan_id: str
    account_id: str
    amount: float
    months: int
    instalment: float
    payment_method_id: str
    start: str
    status: str


class Outage(msgspec.Struct, frozen=True):
    """A known supply outage in a zip code, with the estimated time supply comes back."""

    outage_id: str
    zip: str
    fuel: str
    started: str
    estimated_restoration: str
    cause: str


class PastOutage(msgspec.Struct, frozen=True):
    """A supply outage on file that is over: when it started, when supply came back, its hours."""

    outage_id: str
    zip: str
    fuel: str
    started: str
    restored: str
    hours: int
    cause: str


class OutageCredit(msgspec.Struct, frozen=True):
    """A credit given to an account for a day its supply of ``fuel`` was cut."""

    credit_id: str
    account_id: str
    date: str
    fuel: str
    amount: float


class Dispute(msgspec.Struct, frozen=True):
    """A customer's dispute of the reading a bill used, with the reading the customer gives."""

    dispute_id: str
    bill_id: str
    account_id: str
    meter_id: str
    billed_reading: int
    customer_reading: int
    date: str
    status: str


class OutageReport(msgspec.Struct, frozen=True):
    """A customer's report of a supply problem at their premise."""

    reference: str
    account_id: str
    premise_id: str
    fuel: str
    problem: str
    date: str


def reading_id(meter_id: str, n: int) -> str:
    """The id of the ``n``-th reading of a meter."""
    return f"{meter_id}-{n:03d}"


def bill_lines(
    tariff: Tariff,
    meters: Sequence[tuple[Meter, Reading, int]],
    start: str,
    end: str,
) -> list[BillLine]:
    """The lines of a bill from ``start`` to ``end``; ``meters``: (meter, newest reading, from).

    ``from`` is the value of the meter's last billed reading.
    """
    days = days_from(start, end)
    lines = []
    for meter, to, from_value in meters:
        rate = tariff.electricity if meter.fuel == ELECTRICITY else tariff.gas
        units = to.value - from_value
        lines.append(
            BillLine(
                meter.meter_id,
                meter.fuel,
                from_value,
                to.value,
                units,
                rate.unit_rate,
                money(units * rate.unit_rate),
                days,
                money(days * rate.standing_charge),
                to.kind == ESTIMATED,
            )
        )
    return lines


def bill_total(lines: Sequence[BillLine]) -> float:
    """The total of a bill: every line's energy and standing charge."""
    return money(sum(ln.energy_charge + ln.standing_charge for ln in lines))


TODAY = dt.date(2025, 11, 14)
"""The fixed "today" of the utilities world."""

PLAN_SYSTEM_MAX_MONTHS = 24
"""The most instalments the billing system can schedule (the tool refuses more)."""

LATE_FEE = 10.0
"""The late fee the billing system adds to an account that paid a bill late."""

OUTAGE_CREDIT = 30.0
"""The credit the billing system gives for one day of a fuel's supply cut by an outage."""

HISTORY_DAYS = 90
"""How far back the outage history goes, and how old an outage credit's day may be."""


def day(offset: int) -> str:
    """The ISO date ``offset`` days before ``TODAY``."""
    return (TODAY - dt.timedelta(days=offset)).isoformat()


def premise_key(address1: str, zip_code: str) -> str:
    """The normalized key of the premises-by-address index."""
    return f"{' '.join(address1.lower().split())}|{zip_code.strip()}"


Tables = dict[str, dict[str, Any]]


def _tariffs() -> dict[str, Tariff]:
    rows = [
        ("T-SV", "Standard Variable", VARIABLE, (0.189, 0.52), (1.42, 0.34), True, 0, 0.0),
        ("T-GV", "Green Variable", VARIABLE, (0.198, 0.52), (1.47, 0.34), True, 0, 0.0),
        ("T-F12", "Fixed Saver 12", FIXED, (0.172, 0.49), (1.31, 0.33), True, 12, 75.0),
        ("T-F24", "Fixed Saver 24", FIXED, (0.178, 0.49), (1.35, 0.33), True, 24, 120.0),
        ("T-GF18", "Green Fixed 18", FIXED, (0.181, 0.50), (1.38, 0.33), True, 18, 90.0),
        ("T-EV12", "EV Night Fixed 12", FIXED, (0.161, 0.58), (1.40, 0.34), True, 12, 60.0),
        ("T-F12L", "Fixed Price 12 (2023)", FIXED, (0.205, 0.47), (1.55, 0.31), False, 12, 50.0),
        ("T-LEG", "Legacy Economy Variable", VARIABLE, (0.176, 0.61), (1.29, 0.37), False, 0, 0.0),
    ]
    return {
        tid: Tariff(tid, name, kind, Rate(*e), Rate(*g), available, term, fee)
        for tid, name, kind, e, g, available, term, fee in rows
    }


class _Builder:
    """Accumulates the tables while the generator draws from one ``random.Random``."""

    def __init__(self, rng: random.Random, tariffs: dict[str, Tariff]) -> None:
        self.rng = rng
        self.ids = Ids(rng)
        self.tariffs = tariffs
        self.premises: dict[str, Premise] = {}
        self.meters: dict[str, Meter] = {}
        self.readings: dict[str, Reading] = {}
        self.accounts: dict[str, Account] = {}
        self.bills: dict[str, Bill] = {}
        self.addresses: set[str] = set()

    def premise(self, address: Address, vacant: bool) -> tuple[Premise, list[str]] | None:
        """A premise at ``address`` with its meters and monthly reading dates (oldest first)."""
        rng = self.rng
        key = premise_key(address.address1, address.zip)
        if key in self.addresses:
            return None
        self.addresses.add(key)
        premise_id = f"P{self.ids.digits(7)}"
        fuels = [ELECTRICITY] + ([GAS] if rng.random() < 0.6 else [])
        last = rng.randint(40, 120) if vacant else rng.randint(8, 40)
        dates = [day(last + 30 * k + rng.randint(-2, 2)) for k in range(rng.randint(5, 9))]
        dates = sorted(set(dates))
        meter_ids = []
        for fuel in fuels:
            meter_id = f"{'E' if fuel == ELECTRICITY else 'G'}M{self.ids.digits(7)}"
            value = rng.randint(1000, 60000) if fuel == ELECTRICITY else rng.randint(200, 9000)
            for n, date in enumerate(dates, start=1):
                if n > 1:
                    value += rng.randint(180, 950) if fuel == ELECTRICITY else rng.randint(8, 130)
                kind = rng.choices((ACTUAL, ESTIMATED), (70, 30))[0]
                if vacant and n == len(dates):
                    kind = FINAL
                rid = reading_id(meter_id, n)
                self.readings[rid] = Reading(rid, meter_id, date, value, kind)
            serial = f"{'E' if fuel == ELECTRICITY else 'G'}{self.ids.digits(8)}"
            self.meters[meter_id] = Meter(
                meter_id, premise_id, fuel, serial, UNITS[fuel], len(dates), len(dates)
            )
            meter_ids.append(meter_id)
        premise = Premise(premise_id, address, tuple(meter_ids))
        self.premises[premise_id] = premise
        return premise, dates

    def account(self, user: User, premise: Premise, dates: list[str]) -> Account:
        """An open account at ``premise`` with its last bills and a balance made of unpaid ones."""
        rng = self.rng
        tariff = rng.choices(list(self.tariffs.values()), (20, 8, 18, 12, 10, 6, 8, 6))[0]
        account_id = f"A{self.ids.digits(8)}"
        fixed_until = ""
        if tariff.kind == FIXED:
            started = dt.date.fromisoformat(day(rng.randint(30, 30 * tariff.term_months + 200)))
            fixed_until = add_months(started, tariff.term_months).isoformat()
        meters = [self.meters[m] for m in premise.meters]
        bills: list[Bill] = []
        count = rng.randint(1, 3)
        first = len(dates) - count
        for b in range(count):
            n = first + b + 1
            lines = bill_lines(
                tariff,
                [
                    (m, self.readings[reading_id(m.meter_id, n)], m_value(self, m, n - 1))
                    for m in meters
                ],
                dates[n - 2],
                dates[n - 1],
            )
            bill_id = f"{account_id}-B{b + 1:02d}"
            total = bill_total(lines)
            bills.append(
                Bill(
                    bill_id,
                    account_id,
                    dates[n - 1],
                    dates[n - 2],
                    dates[n - 1],
                    tuple(lines),
                    total,
                )
            )
        for bill in bills:
            self.bills[bill.bill_id] = bill
        unpaid = rng.choices((0, 1, 2, 3), (35, 40, 15, 10))[0]
        balance = money(sum(b.total for b in bills[len(bills) - min(unpaid, len(bills)) :]))
        if unpaid == 3:
            balance = money(balance + rng.randint(60, 400))
        account = Account(
            account_id,
            user.user_id,
            premise.premise_id,
            ACTIVE,
            tariff.tariff_id,
            balance,
            dates[-1],
            dates[0],
            len(bills),
            fixed_until=fixed_until,
            paperless=rng.random() < 0.4,
        )
        self.accounts[account_id] = account
        self.premises[premise.premise_id] = msgspec.structs.replace(premise, account_id=account_id)
        return account


def m_value(build: _Builder, meter: Meter, n: int) -> int:
    """The value of reading ``n`` of ``meter`` (0 before the first)."""
    if n < 1:
        return 0
    return build.readings[reading_id(meter.meter_id, n)].value


def _outages(rng: random.Random, premises: dict[str, Premise]) -> dict[str, Outage]:
    zips = sorted({p.address.zip for p in premises.values()})
    outages: dict[str, Outage] = {}
    causes = ("storm damage", "substation fault", "planned maintenance", "damaged main")
    for zip_code in rng.sample(zips, 30):
        outage_id = f"OUT-{rng.randint(100000, 999999)}"
        fuel = rng.choices((ELECTRICITY, GAS), (75, 25))[0]
        hour = rng.randint(8, 22)
        started = f"{day(rng.randint(0, 1))}T{rng.randint(0, 7):02d}:{rng.choice((0, 30)):02d}"
        restoration = f"{TODAY.isoformat()}T{hour:02d}:00"
        outages[outage_id] = Outage(
            outage_id, zip_code, fuel, started, restoration, rng.choice(causes)
        )
    return outages


def _late_fees(rng: random.Random, accounts: dict[str, Account]) -> None:
    """Add a late fee to some accounts that owe money; some had one waived before."""
    for account_id, account in accounts.items():
        if account.balance < 40 or rng.random() > 0.4:
            continue
        waived = day(rng.randint(20, 700)) if rng.random() < 0.55 else ""
        accounts[account_id] = msgspec.structs.replace(
            account,
            balance=money(account.balance + LATE_FEE),
            late_fee=LATE_FEE,
            late_fee_waived=waived,
        )


def _past_outages(rng: random.Random, premises: dict[str, Premise]) -> dict[str, PastOutage]:
    """Outages of the last ``HISTORY_DAYS`` days that are over, a few per zip code."""
    zips = sorted({p.address.zip for p in premises.values() if p.account_id})
    past: dict[str, PastOutage] = {}
    causes = ("storm damage", "substation fault", "planned maintenance", "damaged main")
    for zip_code in rng.sample(zips, len(zips) // 2):
        for offset in sorted(rng.sample(range(3, HISTORY_DAYS - 5), rng.randint(1, 3))):
            outage_id = f"OUT-{rng.randint(100000, 999999)}"
            hours = rng.choice((2, 3, 4, 5, 6, 8, 9, 10, 14, 16, 18, 20, 26, 30))
            start = dt.datetime.combine(
                TODAY - dt.timedelta(days=offset), dt.time(rng.randint(0, 9))
            )
            fuel = rng.choices((ELECTRICITY, GAS), (75, 25))[0]
            past[outage_id] = PastOutage(
                outage_id,
                zip_code,
                fuel,
                start.isoformat(timespec="minutes"),
                (start + dt.timedelta(hours=hours)).isoformat(timespec="minutes"),
                hours,
                rng.choice(causes),
            )
    return past


def generate(seed: int, users: int = 320) -> Tables:
    """Generate the tables (users, tariffs, premises, meters, readings, accounts, bills …).

    Late fees and the outage history draw from a second generator seeded ``seed + 1``, so the
    records drawn before them are the same as before they existed.
    """
    rng = random.Random(seed)
    tariffs = _tariffs()
    build = _Builder(rng, tariffs)
    people = customers(rng, build.ids, users, User)
    for uid, user in list(people.items()):
        homes = [user.address] + ([random_address(rng)] if rng.random() < 0.15 else [])
        accounts = []
        for address in homes:
            made = build.premise(address, vacant=False)
            if made is not None:
                accounts.append(build.account(user, *made).account_id)
        people[uid] = msgspec.structs.replace(user, accounts=tuple(accounts))
    for _ in range(90):
        build.premise(random_address(rng), vacant=True)
    outages = _outages(rng, build.premises)
    extra = random.Random(seed + 1)  # the later additions draw apart: the rest stays as it was
    _late_fees(extra, build.accounts)
    return {
        "users": dict(people),
        "tariffs": dict(tariffs),
        "premises": dict(build.premises),
        "meters": dict(build.meters),
        "readings": dict(build.readings),
        "accounts": dict(build.accounts),
        "bills": dict(build.bills),
        "payments": {},
        "payment_plans": {},
        "outages": outages,
        "past_outages": _past_outages(extra, build.premises),
        "outage_credits": {},
        "disputes": {},
        "outage_reports": {},
    }


def _premise_keys(premise: Premise) -> tuple[str]:
    return (premise_key(premise.address.address1, premise.address.zip),)


def _outage_keys(outage: Outage | PastOutage) -> tuple[str]:
    return (outage.zip,)


INDEXES: dict[str, Index] = {
    **identity_indexes([EMAIL, NAME_ZIP]),
    "premise_address": Index("premises", _premise_keys),
    "outage_zip": Index("outages", _outage_keys),
    "past_outage_zip": Index("past_outages", _outage_keys),
}
"""Users by email and by name + zip, premises by street address + zip, outages by zip."""


def build_base(seed: int) -> Base:
    """The utilities base: the tables generated from ``seed`` and their indexes."""
    return Base(generate(seed), INDEXES)
