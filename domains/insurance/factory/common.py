"""The insurance intents' base class and the policy and claim helpers the themes share."""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable

from tau_sim.domains.insurance.access import coverage_for
from tau_sim.domains.insurance.data import (
    ACTIVE,
    TODAY,
    Driver,
    Policy,
    User,
    license_number,
    parse_date,
)
from tau_sim.domains.insurance.rules import FILING_WINDOW_DAYS, LOSS_COVERAGE, MIN_DRIVER_AGE
from tau_sim.domains.insurance.scenario import UNKNOWN_IDS
from tau_sim.domains.kit.identity import ACCOUNT_PIN, EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.payments import PaymentMethod, can_pay, money_text
from tau_sim.domains.kit.people import Ids
from tau_sim.domains.kit.tasks import ELSEWHERE, CustomerIntent
from tau_sim.domains.kit.vocab import FIRST_NAMES
from tau_sim.simulator.world import Action, Database, Domain, Task


class InsuranceIntent(CustomerIntent):
    """A policyholder: email (40%), name + zip (30%) or account number + PIN; never knows ids."""

    factors = ((EMAIL, 0.4), (NAME_ZIP, 0.3), (ACCOUNT_PIN, 0.3))
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """An unrequested change of the mailing address; the last write left out."""
        return [
            self.stray_write(task, "update_mailing_address", **ELSEWHERE),
            *self.last_write_left_out(domain, task),
        ]


pick_policy = picker("policies", Policy)


def active(kind: str) -> Callable[[Policy], bool]:
    """A filter of the active policies of ``kind``."""
    return lambda p: p.status == ACTIVE and p.kind == kind


def payer(user: User, amount: float, rng: random.Random) -> PaymentMethod | None:
    """A method of ``user``'s that can pay ``amount``, drawn by ``rng``; None when none can."""
    candidates = [m for m in user.payment_methods if can_pay(m, amount)]
    return rng.choice(candidates) if candidates else None


def loss_types(policy: Policy, *, excluded: bool) -> list[str]:
    """The loss types the tools accept on ``policy`` that are (not) excluded by it."""
    out = []
    for (kind, loss), coverage in LOSS_COVERAGE.items():
        if kind != policy.kind or (loss in policy.exclusions) != excluded:
            continue
        if policy.coverage(loss) is not None or policy.coverage(coverage) is not None:
            out.append(loss)
    return out


def loss_day(policy: Policy, rng: random.Random, low: int, high: int) -> str | None:
    """A loss date ``low`` to ``high`` days before today inside the policy's term, or None."""
    earliest = parse_date(policy.start_date)
    choices = [d for d in range(low, high + 1) if TODAY - datetime.timedelta(days=d) >= earliest]
    if not choices:
        return None
    return (TODAY - datetime.timedelta(days=rng.choice(choices))).isoformat()


def claim_args(
    policy: Policy, loss: str, loss_date: str, amount: float, injury: bool
) -> dict[str, object]:
    """The arguments of ``file_claim`` for one loss."""
    return {
        "policy_id": policy.policy_id,
        "loss_type": loss,
        "loss_date": loss_date,
        "estimated_amount": amount,
        "injury": injury,
    }


def claim_known(loss: str, loss_date: str, amount: float, injury: bool) -> dict[str, str]:
    """The slots a user holds about one loss."""
    return {
        "loss_type": loss,
        "loss_date": loss_date,
        "estimated_amount": money_text(amount),
        "injury": "yes, someone was hurt" if injury else "no, nobody was hurt",
    }


def deductible(policy: Policy, loss: str) -> float:
    """The deductible a claim for ``loss`` on ``policy`` carries."""
    coverage = policy.coverage(coverage_for(policy, loss))
    assert coverage is not None
    return coverage.deductible


def claim_reads(policy: Policy, loss: str, loss_date: str) -> list[Action]:
    """The gold reads before filing: the coverage check and the days since the loss."""
    return [
        Action("check_coverage", {"policy_id": policy.policy_id, "loss_type": loss}),
        Action("days_between", {"start_date": loss_date, "end_date": TODAY.isoformat()}),
    ]


def new_driver(db: Database, rng: random.Random, user: User, relationship: str) -> Driver:
    """A household member to add, with a fresh license number (drawn from ``rng``)."""
    ids = Ids(rng)
    for _, policy in db.items("policies"):
        if policy.user_id == user.user_id:
            ids.used.update(d.license_number[1:] for d in policy.drivers)
    low = MIN_DRIVER_AGE if relationship == "child" else 18
    high = 30 if relationship == "child" else 80
    born = TODAY.year - rng.randint(low, high)
    birth = datetime.date(born, rng.randint(1, 12), rng.randint(1, 28))
    if birth > TODAY.replace(year=born):  # not yet had this year's birthday: a year younger
        birth = birth.replace(year=born - 1)
    return Driver(
        rng.choice(FIRST_NAMES),
        user.name.last_name,
        birth.isoformat(),
        license_number(rng, ids),
        relationship,
    )


def driver_args(policy: Policy, driver: Driver) -> dict[str, object]:
    """The arguments of ``add_driver`` for ``driver`` on ``policy``."""
    return {
        "policy_id": policy.policy_id,
        "first_name": driver.first_name,
        "last_name": driver.last_name,
        "birth_date": driver.birth_date,
        "license_number": driver.license_number,
        "relationship": driver.relationship,
    }


def policy_label(policy: Policy) -> str:
    """A policy as its holder names it: "car policy for the Toyota Camry", "home policy for ..."."""
    if policy.vehicle is not None:
        car = policy.vehicle
        return f"car policy for the {car.year} {car.make} {car.model}"
    if policy.property_address is not None:
        where = policy.property_address
        return f"home policy for {where.address1}, {where.city}"
    return f"{policy.kind} policy"


class PolicyRef:
    """How a user refers to one of their policies: by number, or by what it insures.

    A user whose other policy is of another kind may leave the number out (``rng``, four
    times in five) and say which one they mean ("my home policy for 12 Oak Street, not my car
    policy for the Toyota Camry", in the opening: ``say``): the gold path then reads every
    policy they hold.
    """

    def __init__(self, db: Database, policy: Policy, rng: random.Random) -> None:
        user: User = record(db, "users", policy.user_id)
        held = [record(db, "policies", p) for p in user.policies]
        others = [p for p in held if p.policy_id != policy.policy_id]
        described = len(others) == 1 and others[0].kind != policy.kind and rng.random() < 0.8
        self.policy_id = policy.policy_id
        if described:
            which = f"my {policy_label(policy)}, not my {policy_label(others[0])}"
            self.known = {"which_policy": which}
            self.say = f" I mean {which}."
        else:
            self.known = {"policy_id": policy.policy_id}
            self.say = ""
        number = "" if described else f" {policy.policy_id}"
        self.text = f"{policy.kind} policy{number}"
        self.reads = list(user.policies) if described else [policy.policy_id]


class ClaimIntent(InsuranceIntent):
    """A claim on an active policy: the loss, its date, the estimate (shared sampling)."""

    def drawn_claim(
        self,
        db: Database,
        rng: random.Random,
        kind: str | None = None,
        *,
        excluded: bool = False,
        days: tuple[int, int] = (1, FILING_WINDOW_DAYS - 15),
    ) -> tuple[Policy, str, str, float] | None:
        """An active policy (of ``kind``), a loss type, its date and an estimate.

        The loss is one the policy covers, or one it ``excluded``; its date ``days`` (low,
        high) before today inside the policy's term: by default inside the filing window.
        """
        policy = pick_policy(
            db, rng, lambda p: p.status == ACTIVE and (kind is None or p.kind == kind)
        )
        if policy is None:
            return None
        losses = loss_types(policy, excluded=excluded)
        day = loss_day(policy, rng, *days)
        if not losses or day is None:
            return None
        return policy, rng.choice(losses), day, float(rng.randint(6, 120) * 100)
