"""Insurance records (frozen msgspec Structs) and the deterministic generator of the base database.

The world's clock is ``TODAY``: terms, days left, filing windows and ages are counted from it,
never from the real clock.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

import msgspec

from tau_sim.domains.insurance.catalog import AUTO_MODELS, CLAIM_STATUSES
from tau_sim.domains.insurance.rules import (
    ENDORSABLE,
    HOME_EXCLUSIONS,
    ITEM_CATEGORIES,
    LOSS_COVERAGE,
    RELATIONSHIPS,
)
from tau_sim.domains.kit.calc import days_from
from tau_sim.domains.kit.identity import ACCOUNT_PIN, EMAIL, NAME_ZIP, identity_indexes
from tau_sim.domains.kit.payments import money
from tau_sim.domains.kit.people import Address, Customer, Ids, customers, random_address
from tau_sim.domains.kit.vocab import FIRST_NAMES
from tau_sim.simulator.world import Base

TODAY = datetime.date(2025, 6, 15)
"""The fixed "today" of the insurance world."""

ACTIVE = "active"
CANCELLED = "cancelled"
EXPIRED = "expired"

AUTO = "auto"
HOME = "home"


class User(Customer, frozen=True, omit_defaults=True):
    """A policyholder with their payment methods and policy ids."""

    policies: tuple[str, ...] = ()


class Coverage(msgspec.Struct, frozen=True, omit_defaults=True):
    """One coverage of a policy: its limit and deductible in dollars."""

    name: str
    limit: float
    deductible: float = 0.0


class Driver(msgspec.Struct, frozen=True, omit_defaults=True):
    """A driver listed on an auto policy."""

    first_name: str
    last_name: str
    birth_date: str
    license_number: str
    relationship: str  # "policyholder" or one of RELATIONSHIPS


class Vehicle(msgspec.Struct, frozen=True, omit_defaults=True):
    """The insured vehicle of an auto policy."""

    year: int
    make: str
    model: str
    vin: str


class ScheduledItem(msgspec.Struct, frozen=True, omit_defaults=True):
    """A valuable item scheduled on a home policy, with its appraised value."""

    item_id: str
    category: str
    value: float
    annual_premium: float


class Payment(msgspec.Struct, frozen=True, omit_defaults=True):
    """One entry of a policy's payment history."""

    transaction_type: str  # "payment" | "refund"
    amount: float
    payment_method_id: str
    date: str


class Policy(msgspec.Struct, frozen=True, omit_defaults=True):
    """An auto or home policy: term, coverages, premium, payments and what it insures.

    ``premium`` is the premium of the whole term (endorsements raise it), ``paid`` what the
    policyholder has paid so far; the balance due is their difference.
    """

    policy_id: str
    user_id: str
    kind: str  # AUTO | HOME
    status: str
    start_date: str
    end_date: str
    premium: float
    paid: float
    payment_method_id: str
    coverages: tuple[Coverage, ...]
    exclusions: tuple[str, ...]
    cancellation_fee: float
    payments: tuple[Payment, ...]
    claims: tuple[str, ...] = ()
    vehicle: Vehicle | None = None
    drivers: tuple[Driver, ...] = ()
    property_address: Address | None = None
    scheduled_items: tuple[ScheduledItem, ...] = ()
    cancel_reason: str = ""
    cancelled_on: str = ""
    refund: float | None = None

    def coverage(self, name: str) -> Coverage | None:
        """The coverage ``name``, or None."""
        return next((c for c in self.coverages if c.name == name), None)

    @property
    def balance_due(self) -> float:
        """What is still owed on the term premium."""
        return money(max(0.0, self.premium - self.paid))


class Claim(msgspec.Struct, frozen=True, omit_defaults=True):
    """A claim filed on a policy."""

    claim_id: str
    policy_id: str
    loss_type: str
    coverage: str
    loss_date: str
    filed_date: str
    estimated_amount: float
    injury: bool
    status: str
    deductible: float
    paid_amount: float | None = None


Tables = dict[str, dict[str, Any]]


def parse_date(text: str) -> datetime.date:
    """An ISO date ("2025-06-15"); ``ValueError`` when it is not one."""
    return datetime.date.fromisoformat(text.strip())


def days(start: str, end: str) -> int:
    """Days from ``start`` to ``end`` (ISO dates)."""
    return days_from(start, end)


def claim_id(policy_id: str, number: int) -> str:
    """The id of the ``number``-th claim of a policy, e.g. "CLM-4829301-02"."""
    return f"CLM-{policy_id.split('-')[1]}-{number:02d}"


def item_id(policy_id: str, number: int) -> str:
    """The id of the ``number``-th scheduled item of a home policy, e.g. "HOM-4829301-I2"."""
    return f"{policy_id}-I{number}"


def _add_months(day: datetime.date, months: int) -> datetime.date:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    return datetime.date(year, month, min(day.day, 28))


def _term(rng: random.Random, kind: str, status: str) -> tuple[datetime.date, datetime.date]:
    months = 6 if kind == AUTO else 12
    span = months * 30
    if status == EXPIRED:
        start = TODAY - datetime.timedelta(days=rng.randint(span + 20, span + 200))
    else:
        start = TODAY - datetime.timedelta(days=rng.randint(5, span - 10))
    start = start.replace(day=min(start.day, 28))
    return start, _add_months(start, months)


def _birth_date(rng: random.Random, low: int, high: int) -> str:
    year = TODAY.year - rng.randint(low, high)
    return datetime.date(year, rng.randint(1, 12), rng.randint(1, 28)).isoformat()


def license_number(rng: random.Random, ids: Ids) -> str:
    """A driver's license number, e.g. "D4829301"."""
    return f"{rng.choice('ABCDEFGHJKLMNPRSTW')}{ids.digits(7)}"


def _auto(rng: random.Random, ids: Ids, user: User) -> dict[str, Any]:
    year = rng.randint(2008, 2025)
    make, model = rng.choice(AUTO_MODELS)
    vin = "".join(rng.choice("ABCDEFGHJKLMNPRSTUVWXYZ0123456789") for _ in range(17))
    holder = Driver(
        user.name.first_name,
        user.name.last_name,
        _birth_date(rng, 22, 78),
        license_number(rng, ids),
        "policyholder",
    )
    drivers = [holder]
    if rng.random() < 0.35:
        relationship = rng.choice(RELATIONSHIPS)
        drivers.append(
            Driver(
                rng.choice(FIRST_NAMES),
                user.name.last_name,
                _birth_date(rng, 17, 70),
                license_number(rng, ids),
                relationship,
            )
        )
    coverages = [Coverage("liability", float(rng.choice((50_000, 100_000, 300_000))))]
    value = float(rng.randint(6, 60) * 1000)
    if rng.random() < 0.85:
        coverages.append(Coverage("collision", value, float(rng.choice((250, 500, 1000)))))
    if rng.random() < 0.8:
        coverages.append(Coverage("comprehensive", value, float(rng.choice((100, 250, 500)))))
    coverages.append(Coverage("uninsured motorist", float(rng.choice((25_000, 50_000)))))
    return {
        "coverages": tuple(coverages),
        "exclusions": ("mechanical breakdown", "racing", "rideshare or delivery use"),
        "vehicle": Vehicle(year, make, model, vin),
        "drivers": tuple(drivers),
        "premium": money(rng.uniform(420, 1400)),
    }


def _home(rng: random.Random, ids: Ids, user: User, policy_id: str) -> dict[str, Any]:
    dwelling = float(rng.randint(18, 95) * 10_000)
    deductible = float(rng.choice((500, 1000, 2500)))
    coverages = [
        Coverage("dwelling", dwelling, deductible),
        Coverage("personal property", money(dwelling / 2), deductible),
        Coverage("liability", float(rng.choice((100_000, 300_000, 500_000)))),
        Coverage("loss of use", money(dwelling / 5)),
    ]
    exclusions = list(HOME_EXCLUSIONS)
    for peril in ENDORSABLE:
        if rng.random() < 0.25:
            exclusions.remove(peril)
            coverages.append(Coverage(peril, dwelling, float(rng.choice((2500, 5000)))))
    items = []
    for n in range(rng.choice((0, 0, 0, 1, 1, 2))):
        category, rate = rng.choice(sorted(ITEM_CATEGORIES.items()))
        value = float(rng.randint(15, 300) * 100)
        items.append(ScheduledItem(item_id(policy_id, n + 1), category, value, money(value * rate)))
    address = user.address if rng.random() < 0.8 else random_address(rng)
    return {
        "coverages": tuple(coverages),
        "exclusions": tuple(exclusions),
        "property_address": address,
        "scheduled_items": tuple(items),
        "premium": money(rng.uniform(700, 3600) + sum(i.annual_premium for i in items)),
    }


def _claims(rng: random.Random, policy: Policy) -> list[Claim]:
    claims = []
    start, end = parse_date(policy.start_date), min(parse_date(policy.end_date), TODAY)
    span = (end - start).days
    for n in range(rng.choice((0, 0, 0, 1, 1, 2))):
        covered = [
            (loss, loss if policy.coverage(loss) else cov)
            for (kind, loss), cov in LOSS_COVERAGE.items()
            if kind == policy.kind and loss not in policy.exclusions and policy.coverage(cov)
        ]
        if not covered:
            break
        loss, cov = rng.choice(covered)
        loss_day = start + datetime.timedelta(days=rng.randint(0, max(0, span - 1)))
        filed = min(loss_day + datetime.timedelta(days=rng.randint(0, 10)), TODAY)
        status = rng.choice(CLAIM_STATUSES)
        paid_from = policy.coverage(cov)
        assert paid_from is not None
        deductible = paid_from.deductible
        amount = money(rng.randint(8, 180) * 100 + deductible)
        paid = money(amount - deductible) if status == "paid" else None
        claims.append(
            Claim(
                claim_id(policy.policy_id, n + 1),
                policy.policy_id,
                loss,
                cov,
                loss_day.isoformat(),
                filed.isoformat(),
                amount,
                False,
                status,
                deductible,
                paid,
            )
        )
    return claims


def _policy(rng: random.Random, ids: Ids, user: User, kind: str) -> tuple[Policy, list[Claim]]:
    status = rng.choices((ACTIVE, CANCELLED, EXPIRED), (78, 8, 14))[0]
    prefix = "AUT" if kind == AUTO else "HOM"
    policy_id = f"{prefix}-{ids.digits(7)}"
    start, end = _term(rng, kind, status)
    fields = _auto(rng, ids, user) if kind == AUTO else _home(rng, ids, user, policy_id)
    premium = fields.pop("premium")
    method = rng.choice(user.payment_methods)
    installments = status == ACTIVE and rng.random() < 0.3
    paid = money(premium / 2) if installments else premium
    payments = [Payment("payment", paid, method.id, start.isoformat())]
    extra: dict[str, Any] = {}
    if status == CANCELLED:
        cancelled = start + datetime.timedelta(days=rng.randint(10, 100))
        left = (end - cancelled).days
        refund = money(premium * left / (end - start).days)
        payments.append(Payment("refund", refund, method.id, cancelled.isoformat()))
        extra = {
            "cancel_reason": "switching insurers",
            "cancelled_on": cancelled.isoformat(),
            "refund": refund,
        }
    policy = Policy(
        policy_id,
        user.user_id,
        kind,
        status,
        start.isoformat(),
        end.isoformat(),
        premium,
        paid,
        method.id,
        cancellation_fee=float(rng.choice((0, 0, 25, 50))),
        payments=tuple(payments),
        **fields,
        **extra,
    )
    claims = _claims(rng, policy) if status != CANCELLED else []
    return msgspec.structs.replace(policy, claims=tuple(c.claim_id for c in claims)), claims


def generate(seed: int, users: int = 320) -> Tables:
    """Generate the insurance tables (users, policies, claims) deterministically from ``seed``.

    Every policyholder has one or two policies: auto, home or both.
    """
    rng = random.Random(seed)
    ids = Ids(rng)
    people = customers(rng, ids, users, User, accounts=True)
    policies: dict[str, Policy] = {}
    claims: dict[str, Claim] = {}
    for uid, user in list(people.items()):
        kinds = rng.choice(((AUTO,), (HOME,), (AUTO, HOME), (AUTO, HOME), (AUTO, AUTO)))
        owned = []
        for kind in kinds:
            policy, filed = _policy(rng, ids, user, kind)
            policies[policy.policy_id] = policy
            claims.update((c.claim_id, c) for c in filed)
            owned.append(policy.policy_id)
        people[uid] = msgspec.structs.replace(user, policies=tuple(owned))
    return {"users": dict(people), "policies": policies, "claims": claims}


INDEXES = identity_indexes([EMAIL, NAME_ZIP, ACCOUNT_PIN])
"""Users by email, by name + zip and by account number + PIN."""


def build_base(seed: int) -> Base:
    """The insurance base: the tables generated from ``seed`` and their indexes."""
    return Base(generate(seed), INDEXES)
