"""Hard insurance intents about the policies themselves: their start date and how they are paid.

A user whose loss came days before their new policy started asks for the coverage to be
backdated (the records show the start date: refuse); another moves both policies to one
payment method and pays what is due, on the second policy only if it owes anything.
"""

from __future__ import annotations

import datetime
import random

from tau_sim.domains.insurance.data import ACTIVE, TODAY, Policy, User, parse_date
from tau_sim.domains.insurance.factory.common import (
    InsuranceIntent,
    PolicyRef,
    claim_known,
    loss_types,
    pick_policy,
    policy_label,
)
from tau_sim.domains.insurance.scenario import LOSS_TEXT, gold_reads
from tau_sim.domains.kit.factory.claims import DisprovenClaim
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import can_pay, method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, sum_action
from tau_sim.simulator.world import Action, Database, Domain, Task


class BackdatedCoverage(DisprovenClaim, InsuranceIntent):
    """A loss a few days before a new policy started; the user wants it backdated: refuse."""

    name = "backdated_coverage"
    rules = ("no-backdating",)
    challenges = frozenset({"disproven"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = pick_policy(db, rng, lambda p: p.status == ACTIVE)
        if policy is None:
            return None
        start = parse_date(policy.start_date)
        if not 8 <= (TODAY - start).days <= 50:
            return None
        losses = loss_types(policy, excluded=False)
        if not losses:
            return None
        loss = rng.choice(losses)
        day = (start - datetime.timedelta(days=rng.randint(1, 6))).isoformat()
        amount = float(rng.randint(8, 150) * 100)
        who = self.owner(db, policy, rng)
        ref = PolicyRef(db, policy, rng)
        opening = rng.choice(
            (
                f"Hi, {LOSS_TEXT[loss]} just before my {policy.kind} policy kicked in. Can you "
                "move its start date back a few days?",
                f"Hello, I need my {policy.kind} coverage to start a little earlier: "
                f"{LOSS_TEXT[loss]} right around when I bought it.",
                f"I was insured when {LOSS_TEXT[loss]}, I had already called to buy my "
                f"{policy.kind} policy. I want to claim it.",
            )
        )
        return self.task(
            domain,
            who,
            goal=f"On {day} {LOSS_TEXT[loss]}, and I want a claim on my {ref.text} for "
            f"{money_text(amount)}; nobody was hurt. I believe I was covered then, since I had "
            "already called to buy the policy, and if the records say otherwise I want its start "
            "date moved back to cover that day. If the agent shows me the start date and that "
            "coverage cannot be backdated, I accept that in the end.",
            demand=f"my {ref.text} backdated to cover {day} and the claim filed",
            opening=opening + ref.say,
            known={**ref.known, **claim_known(loss, day, amount, False)},
            actions=gold_reads(who, *ref.reads),
            outputs=[policy.start_date],
            summary=f"{loss} on {day}, before {policy.policy_id} started {policy.start_date}",
        )


class OnePaymentMethod(InsuranceIntent):
    """Both policies moved to one payment method, what is due paid with it (3 or 4 writes)."""

    name = "one_payment_method"
    tier = "hard"
    challenges = frozenset({"long", "conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        owing = pick_policy(db, rng, lambda p: p.status == ACTIVE and p.balance_due > 0)
        if owing is None:
            return None
        user: User = record(db, "users", owing.user_id)
        held: list[Policy] = [record(db, "policies", p) for p in user.policies]
        if len(held) != 2 or any(p.status != ACTIVE for p in held):
            return None
        due = [p for p in held if p.balance_due > 0]
        total = money(sum(p.balance_due for p in due))
        methods = [
            m
            for m in user.payment_methods
            if can_pay(m, total) and all(m.id != p.payment_method_id for p in held)
        ]
        if not methods:
            return None
        method = rng.choice(methods)
        who = self.identity(db, user.user_id, rng)
        first, second = held
        writes = [
            *(
                Action(
                    "update_policy_payment_method",
                    {"policy_id": p.policy_id, "payment_method_id": method.id},
                )
                for p in held
            ),
            *(
                Action(
                    "make_payment",
                    {
                        "policy_id": p.policy_id,
                        "payment_method_id": method.id,
                        "amount": p.balance_due,
                    },
                )
                for p in due
            ),
        ]
        other = next(p for p in held if p is not owing)
        opening = rng.choice(
            (
                "Hi, I want all my insurance paid from one account from now on.",
                "Hello, I'd like to tidy up how I pay for my two policies.",
                f"Can you switch both my policies to {method_text(method)} and settle what I owe?",
            )
        )
        return self.task(
            domain,
            who,
            goal=f"I want {method_text(method)} to be the payment method on file for both of my "
            f"policies, my {policy_label(first)} and my {policy_label(second)}. Then I want to "
            f"pay the whole balance due on my {policy_label(owing)} with it, and if my "
            f"{policy_label(other)} has a balance due too, pay that as well. I want to know how "
            f"much I paid in total. {CONFIRM}",
            opening=opening,
            known={
                "policies": f"my {policy_label(first)} and my {policy_label(second)}",
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, *user.policies),
                *sum_action([p.balance_due for p in due]),
                *writes,
            ],
            outputs=[money_text(total)],
            summary=f"switch {first.policy_id} and {second.policy_id} to {method.id}, pay "
            f"{money_text(total)}",
        )
