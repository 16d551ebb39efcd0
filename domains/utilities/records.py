"""The records of the utilities world (frozen msgspec Structs) and the names of their kinds.

Premises (service addresses) hold the meters; an account is one customer's supply at one
premise. Readings of a meter are numbered ``{meter_id}-{n:03d}`` from 1 (the oldest) to the
meter's ``reading_count``.
"""

from __future__ import annotations

import msgspec

from tau_sim.domains.kit.people import Address, Customer

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
    counts.
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


class OutageReport(msgspec.Struct, frozen=True):
    """A customer's report of a supply problem at their premise."""

    reference: str
    account_id: str
    premise_id: str
    fuel: str
    problem: str
    date: str
