"""The insurance intents' base class and the policy helpers they share."""

from __future__ import annotations

import random
from collections.abc import Callable

from tau_sim.domains.insurance.data import ACTIVE, Policy, User
from tau_sim.domains.insurance.scenario import UNKNOWN_IDS
from tau_sim.domains.kit.identity import ACCOUNT_PIN, EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import picker
from tau_sim.domains.kit.payments import PaymentMethod, can_pay
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
