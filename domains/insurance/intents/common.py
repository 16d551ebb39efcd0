"""The insurance intents' base class and the policy and claim helpers the themes share."""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable

from tau_sim.domains.insurance.access import coverage_for
from tau_sim.domains.insurance.data import ACTIVE, TODAY, Policy, User, parse_date
from tau_sim.domains.insurance.rules import LOSS_COVERAGE
from tau_sim.domains.insurance.scenario import UNKNOWN_IDS
from tau_sim.domains.kit.identity import ACCOUNT_PIN, EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import picker
from tau_sim.domains.kit.payments import PaymentMethod, can_pay, money_text
from tau_sim.domains.kit.tasks import ELSEWHERE, CustomerIntent
from tau_sim.simulator.world import Action, Domain, Task

CONFIRM = "When the agent lists the details and asks for confirmation, say yes."


class InsuranceIntent(CustomerIntent):
    """A policyholder: email (50%), name + zip (30%) or account number + PIN; never knows ids."""

    factors = ((EMAIL, 0.5), (NAME_ZIP, 0.3), (ACCOUNT_PIN, 0.2))
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
