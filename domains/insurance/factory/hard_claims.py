"""Hard insurance intents about claims and policies the user describes or misremembers.

The user does not hand over ids: they name a claim by what happened ("my claim for the hail
damage") among several on file, or claim what the records disprove (a claim that is someone
else's, a loss their policy excludes, a policy still in force that has expired, a payment the
history lacks). The gold path reads the candidates and acts on the right one, or refuses and
states the fact.
"""

from __future__ import annotations

import datetime
import random

from tau_sim.domains.insurance.data import ACTIVE, HOME, TODAY, Claim, Policy, User, parse_date
from tau_sim.domains.insurance.factory.common import (
    InsuranceIntent,
    PolicyRef,
    claim_args,
    claim_known,
    loss_day,
    loss_types,
    pick_policy,
)
from tau_sim.domains.insurance.rules import FILING_WINDOW_DAYS
from tau_sim.domains.insurance.scenario import CLAIM_TEXT, LOSS_TEXT
from tau_sim.domains.kit.factory.claims import DisprovenClaim
from tau_sim.domains.kit.factory.refusals import refusing
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import can_pay, method_text, money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.simulator.world import Action, Database, Domain, Task

OPEN = ("submitted", "under review")
"""The claim statuses that may still be withdrawn."""


def described_claim(db: Database, rng: random.Random) -> tuple[Claim, Policy, list[Claim]] | None:
    """A claim its owner can name by its loss type alone, among two or more on its policy."""
    claim: Claim | None = pick(db, rng, "claims", lambda c: True)
    if claim is None:
        return None
    policy: Policy = record(db, "policies", claim.policy_id)
    owned = [record(db, "claims", c) for c in policy.claims]
    if len(owned) < 2 or [c.loss_type for c in owned].count(claim.loss_type) != 1:
        return None
    return claim, policy, owned


def _claim_reads(policy: Policy, owned: list[Claim]) -> list[Action]:
    """The policy holding the claims, then each claim on it (the candidates)."""
    return [
        Action("get_policy_details", {"policy_id": policy.policy_id}),
        *(Action("get_claim_details", {"claim_id": c.claim_id}) for c in owned),
    ]


class DescribedClaimWithdrawal(InsuranceIntent):
    """Withdraw a claim the user names by what happened; refuse when it is no longer open."""

    name = "described_claim_withdrawal"
    tier = "hard"
    rules = ("withdraw-open-only",)
    challenges = frozenset({"search", "conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = described_claim(db, rng)
        if found is None:
            return None
        claim, policy, owned = found
        who = self.owner(db, policy, rng)
        what = CLAIM_TEXT[claim.loss_type]
        opening = rng.choice(
            (
                f"Hi, I'd like to withdraw my claim for {what}.",
                f"Hello, I filed a claim about {what} and I want to take it back.",
                f"I don't need my claim for {what} anymore, can you withdraw it?",
            )
        )
        reads = [*who.actions, *_claim_reads(policy, owned)]
        withdrawable = claim.status in OPEN
        writes = [Action("withdraw_claim", {"claim_id": claim.claim_id})] if withdrawable else []
        return self.task(
            domain,
            who,
            goal=f"I filed a claim for {what} (the loss was on {claim.loss_date}); I do not know "
            "its claim number. I paid for the damage myself and want that claim withdrawn. "
            "If the agent says it can no longer be withdrawn, I want to know its status and "
            f"accept that. {CONFIRM}",
            opening=opening,
            known={"claim": what},
            actions=[*reads, *writes],
            outputs=["withdrawn"] if withdrawable else [claim.status],
            summary=f"withdraw the {claim.loss_type} claim {claim.claim_id} ({claim.status})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and another open claim of the user's withdrawn instead."""
        paths = super().mistakes(domain, task)
        db = domain.new_database()
        read = [
            record(db, "claims", a.arguments["claim_id"])
            for a in task.actions
            if a.name == "get_claim_details"
        ]
        meant = task.scenario.known_info["claim"]
        others = [c for c in read if CLAIM_TEXT[c.loss_type] != meant and c.status in OPEN]
        if others:
            wrong = Action("withdraw_claim", {"claim_id": others[0].claim_id})
            kept = [a for a in task.actions if a.name != "withdraw_claim"]
            paths.append([*kept, wrong])
        return paths


class DescribedClaimStatus(InsuranceIntent):
    """The status of a claim the user describes; later, a new payment method for its policy."""

    name = "described_claim_status"
    tier = "hard"
    challenges = frozenset({"search", "later"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = described_claim(db, rng)
        if found is None:
            return None
        claim, policy, owned = found
        user: User = record(db, "users", policy.user_id)
        others = [m for m in user.payment_methods if m.id != policy.payment_method_id]
        if policy.status != ACTIVE or not others:
            return None
        method = rng.choice(others)
        who = self.identity(db, user.user_id, rng)
        what = CLAIM_TEXT[claim.loss_type]
        opening = rng.choice(
            (
                f"Hi, what's the status of my claim for {what}?",
                f"Hello, I never heard back about my claim for {what}. Where does it stand?",
                f"Can you check on the claim I filed for {what}?",
            )
        )
        outputs = [claim.status]
        if claim.paid_amount is not None:
            outputs.append(money_text(claim.paid_amount))
        reads = [*who.actions, *_claim_reads(policy, owned)]
        switch = Action(
            "update_policy_payment_method",
            {"policy_id": policy.policy_id, "payment_method_id": method.id},
        )
        return self.task(
            domain,
            who,
            goal=f"I filed a claim for {what} (the loss was on {claim.loss_date}) and want to "
            "know its status and, if it was paid, how much. I do not know its claim number. "
            f"{CONFIRM}",
            opening=opening,
            known={"claim": what, "payment_method": method_text(method)},
            actions=[*reads, switch],
            outputs=outputs,
            summary=f"status of the {claim.loss_type} claim {claim.claim_id}, then switch payment",
            later=f"Oh, and while I have you, could you also make {method_text(method)} the "
            "payment method on file for the policy that claim is on?",
            later_at=len(reads),
        )


class DisprovenForeignClaim(DisprovenClaim, InsuranceIntent):
    """Withdraw a claim the user says is theirs; it is on another person's policy: refuse."""

    name = "disproven_foreign_claim"
    rules = ("not-own-record",)
    challenges = frozenset({"disproven"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        claim: Claim | None = pick(db, rng, "claims", lambda c: c.status in OPEN)
        if claim is None:
            return None
        owner = record(db, "policies", claim.policy_id).user_id
        caller: User | None = pick(db, rng, "users", lambda u: u.user_id != owner)
        if caller is None:
            return None
        who = self.identity(db, caller.user_id, rng)
        cid = claim.claim_id
        opening = rng.choice(
            (
                f"Hi, please withdraw my claim {cid}.",
                f"I'd like to withdraw claim {cid}, it's mine.",
                f"Hello, my claim {cid} needs to be withdrawn, I sorted the damage out myself.",
            )
        )
        task = self.task(
            domain,
            who,
            goal=f"I want claim {cid} withdrawn. I am sure it is mine: I wrote the number down "
            "myself. If the agent says it is not on any of my policies, I accept that in the "
            "end and ask for nothing else.",
            demand=f"claim {cid} withdrawn",
            opening=opening,
            known={"claim_id": cid},
            actions=[*who.actions, Action("get_claim_details", {"claim_id": cid})],
            outputs=["belong"],
            summary=f"withdraw claim {cid}: on another policyholder's policy, refuse",
        )
        # the other person's claim withdrawn as the user asks
        return refusing(task, Action("withdraw_claim", {"claim_id": cid}))


class DisprovenCoverage(DisprovenClaim, InsuranceIntent):
    """A loss the user was told is covered; their home policy excludes it: refuse to file."""

    name = "disproven_coverage"
    rules = ("excluded-loss",)
    challenges = frozenset({"search", "disproven"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        home = pick_policy(db, rng, lambda p: p.status == ACTIVE and p.kind == HOME)
        if home is None:
            return None
        user: User = record(db, "users", home.user_id)
        excluded = loss_types(home, excluded=True)
        day = loss_day(home, rng, 2, FILING_WINDOW_DAYS - 20)
        if len(user.policies) < 2 or not excluded or day is None:
            return None
        loss = rng.choice(excluded)
        amount = float(rng.randint(12, 180) * 100)
        who = self.identity(db, user.user_id, rng)
        opening = rng.choice(
            (
                f"Hi, my home insurance covers {loss}, right? I need to file a claim.",
                f"I was told I'm covered for {loss}, and now I need to claim it.",
                f"Hello, I need to claim {loss} damage at my house; my agent said it is covered.",
            )
        )
        task = self.task(
            domain,
            who,
            goal=f"On {day} {LOSS_TEXT[loss]} at my house. The agent who sold me my home policy "
            f"told me {loss} is covered, so I want a claim filed on it for {money_text(amount)}. "
            "Nobody was hurt. If the agent shows me that my policy excludes it, I accept that in "
            "the end and ask for nothing else.",
            demand=f"my {loss} claim filed on my home policy for {money_text(amount)}",
            opening=opening,
            known={"which_policy": "my home policy", **claim_known(loss, day, amount, False)},
            actions=[
                *who.actions,
                Action("get_policy_details", {"policy_id": home.policy_id}),
                Action("check_coverage", {"policy_id": home.policy_id, "loss_type": loss}),
            ],
            outputs=["excluded"],
            summary=f"{loss} claim on {home.policy_id}: excluded although 'covered', refuse",
        )
        # the excluded claim filed as the user asks
        return refusing(task, Action("file_claim", claim_args(home, loss, day, amount, False)))


class ExpiredPolicyClaim(DisprovenClaim, InsuranceIntent):
    """A claim on a policy the user believes is in force; it expired or was cancelled: refuse."""

    name = "expired_policy_claim"
    rules = ("active-policy-only",)
    challenges = frozenset({"disproven"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = pick_policy(db, rng, lambda p: p.status != ACTIVE)
        if policy is None:
            return None
        ended = parse_date(policy.cancelled_on or policy.end_date)
        gap = (TODAY - ended).days
        if gap < 3:
            return None
        back = rng.randint(1, min(gap - 1, FILING_WINDOW_DAYS - 10))
        day = (TODAY - datetime.timedelta(days=back)).isoformat()
        loss = rng.choice(sorted(loss for kind, loss in _KINDS if kind == policy.kind))
        amount = float(rng.randint(6, 120) * 100)
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        opening = rng.choice(
            (
                f"Hi, I need to file a claim on my {policy.kind} policy: {LOSS_TEXT[loss]}.",
                f"Hello, {LOSS_TEXT[loss]} and I'd like to claim it on my {policy.kind} insurance.",
                f"My {policy.kind} policy is still good, right? {LOSS_TEXT[loss].capitalize()}.",
            )
        )
        return self.task(
            domain,
            who,
            goal=f"On {day} {LOSS_TEXT[loss]}, and I want to file a claim on my {policy.kind} "
            f"policy {pid} for {money_text(amount)}. Nobody was hurt. I am sure the policy is "
            "still in force. If the agent shows me it is no longer active, I accept that in the "
            "end and ask for nothing else.",
            demand=f"my claim on policy {pid} filed for {money_text(amount)}",
            opening=opening,
            known={"policy_id": pid, **claim_known(loss, day, amount, False)},
            actions=[*who.actions, Action("get_policy_details", {"policy_id": pid})],
            outputs=[policy.status],
            summary=f"{loss} claim on {pid} ({policy.status}): refuse",
        )


_KINDS = {
    ("auto", "collision"),
    ("auto", "theft"),
    ("auto", "vandalism"),
    ("auto", "hail"),
    ("auto", "glass"),
    ("home", "fire"),
    ("home", "wind"),
    ("home", "water damage"),
    ("home", "theft"),
}
"""(policy kind, loss) a user reports on a policy that no longer covers anything."""


class DisprovenPayment(DisprovenClaim, InsuranceIntent):
    """The user says they paid the balance; the payment history lacks it: refuse to count it."""

    name = "disproven_payment"
    rules = ("unrecorded-payment",)
    challenges = frozenset({"disproven"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = pick_policy(db, rng, lambda p: p.status == ACTIVE and p.balance_due > 0)
        if policy is None:
            return None
        user: User = record(db, "users", policy.user_id)
        method = rng.choice(user.payment_methods)
        balance = money_text(policy.balance_due)
        since = (TODAY - max(parse_date(p.date) for p in policy.payments)).days
        if since < 4:
            return None
        day = (TODAY - datetime.timedelta(days=rng.randint(2, min(20, since - 1)))).isoformat()
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        ref = PolicyRef(db, policy, rng)
        paid = f"I paid {balance} on {day} with {method_text(method)}"
        opening = rng.choice(
            (
                f"Hi, why does my {policy.kind} policy still show a balance? I paid it off.",
                f"Hello, I already paid what I owed on my {policy.kind} insurance, please fix "
                "your records.",
                f"I got a reminder to pay my {policy.kind} policy, but I paid it weeks ago.",
            )
        )
        return self.task(
            domain,
            who,
            goal=f"{paid} to clear the balance on my {ref.text}, and I want it "
            "marked as paid. If the agent shows me that no such payment is on file, I accept "
            "that in the end and will check with my bank; I do not want to pay again today.",
            demand=f"my payment of {balance} credited to my {ref.text}",
            opening=opening + ref.say,
            known={**ref.known, "claimed_payment": paid},
            actions=[
                *who.actions,
                *(Action("get_policy_details", {"policy_id": p}) for p in ref.reads),
            ],
            outputs=[balance],
            summary=f"'paid' {balance} on {pid}: not in the history, refuse",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the balance charged again unasked."""
        db = domain.new_database()
        read = [record(db, "policies", a.arguments["policy_id"]) for a in task.actions[2:]]
        policy: Policy = next(p for p in read if money_text(p.balance_due) in task.required_outputs)
        user: User = record(db, "users", policy.user_id)
        paths = super().mistakes(domain, task)
        method = next((m for m in user.payment_methods if can_pay(m, policy.balance_due)), None)
        if method is not None:
            pay = {
                "policy_id": policy.policy_id,
                "payment_method_id": method.id,
                "amount": policy.balance_due,
            }
            paths.append([*task.actions, Action("make_payment", pay)])
        return paths
