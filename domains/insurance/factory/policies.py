"""Insurance intents about a policy: scheduled items, payments, cancellation (with a claim)."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from tau_sim.domains.insurance.access import cancellation_quote, days_left, item_charge
from tau_sim.domains.insurance.data import ACTIVE, AUTO, HOME, Policy, User, claim_id
from tau_sim.domains.insurance.factory.common import (
    ClaimIntent,
    InsuranceIntent,
    PolicyRef,
    active,
    claim_args,
    claim_known,
    claim_reads,
    payer,
    pick_policy,
)
from tau_sim.domains.insurance.rules import ITEM_CATEGORIES
from tau_sim.domains.insurance.scenario import LOSS_TEXT, REASON_TEXT, gold_reads
from tau_sim.domains.kit.factory.base import OtherChoice, one_of
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import PaymentMethod, method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.simulator.world import Action, Database, Domain, Task


def _item_text(category: str, value: float) -> str:
    return f"a {category} item appraised at {money_text(value)}"


def _home_policy(db: Database, rng: random.Random) -> Policy | None:
    """An active home policy with at least 10 days left in its term."""
    policy = pick_policy(db, rng, active(HOME))
    return None if policy is None or days_left(policy) < 10 else policy


class _Scheduling(msgspec.Struct, frozen=True):
    """An item to schedule on a home policy: category, appraised value, the term's charge."""

    policy_id: str
    category: str
    value: float
    charge: float

    @property
    def args(self) -> dict[str, Any]:
        """The arguments of the quote and of the write."""
        return {"policy_id": self.policy_id, "category": self.category, "value": self.value}

    @property
    def text(self) -> str:
        """The item as the user names it."""
        return _item_text(self.category, self.value)


def _scheduling(rng: random.Random, policy: Policy) -> _Scheduling:
    """A random valuable item to schedule on ``policy`` and its charge for the rest of the term."""
    category = rng.choice(sorted(ITEM_CATEGORIES))
    value = float(rng.randint(10, 400) * 100)
    _, charge = item_charge(policy, category, value)
    return _Scheduling(policy.policy_id, category, value, charge)


class AddScheduledItem(OtherChoice, InsuranceIntent):
    """Schedule a valuable item on a home policy; learn the premium change."""

    name = "add_scheduled_item"
    choice, choices = "category", tuple(sorted(ITEM_CATEGORIES))

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = _home_policy(db, rng)
        if policy is None:
            return None
        item = _scheduling(rng, policy)
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        ref = PolicyRef(db, policy, rng)
        opening = one_of(
            rng,
            f"Hi, I want to add my {item.category} to my home insurance.",
            f"Hello, I just had my {item.category} appraised and want it insured.",
            "Can I schedule a valuable item on my home policy?",
        )
        return self.task(
            domain,
            who,
            goal=f"I want to schedule {item.text} on my {ref.text}. I "
            f"want to know how much the premium goes up and the new premium. {CONFIRM}",
            opening=opening + ref.say,
            known={**ref.known, "item": item.text},
            actions=[
                *gold_reads(who, *ref.reads),
                Action("quote_scheduled_item", item.args),
                Action("add_scheduled_item", item.args),
            ],
            outputs=[money_text(item.charge), money_text(money(policy.premium + item.charge))],
            summary=f"schedule {item.category} on {pid}: +{money_text(item.charge)}",
        )


class SwitchPaymentAndAddItem(InsuranceIntent):
    """Change the payment method on file, then schedule an item (two writes)."""

    name = "switch_payment_and_add_item"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = _home_policy(db, rng)
        if policy is None:
            return None
        user: User = record(db, "users", policy.user_id)
        others = [m for m in user.payment_methods if m.id != policy.payment_method_id]
        if not others:
            return None
        method = rng.choice(others)
        item = _scheduling(rng, policy)
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        ref = PolicyRef(db, policy, rng)
        return self.task(
            domain,
            who,
            goal=f"Two things on my {ref.text}: I want {method_text(method)} to be the "
            f"payment method on file from now on, and I want to schedule "
            f"{item.text}. I want to know the premium increase. {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I want to change how I pay for my home insurance and add an item to it.",
                f"Hello, I'd like to pay my home policy differently and insure my {item.category}.",
                "Two changes to my home policy, please: the payment method and a new item.",
            )
            + ref.say,
            known={**ref.known, "payment_method": method_text(method), "item": item.text},
            actions=[
                *gold_reads(who, *ref.reads),
                Action("quote_scheduled_item", item.args),
                Action(
                    "update_policy_payment_method",
                    {"policy_id": pid, "payment_method_id": method.id},
                ),
                Action("add_scheduled_item", item.args),
            ],
            outputs=[money_text(item.charge)],
            summary=f"switch payment of {pid} and schedule {item.category}",
        )


def _refund_method(user: User, policy: Policy, rng: random.Random) -> PaymentMethod | None:
    gift = [m for m in user.payment_methods if m.source == "gift_card"]
    if gift and rng.random() < 0.3:
        return rng.choice(gift)
    return user.payment_method(policy.payment_method_id)


class CancelPolicy(OtherChoice, InsuranceIntent):
    """Cancel an active policy; learn the pro-rated refund and the fee."""

    name = "cancel_policy"
    choice, choices = "reason", tuple(sorted(REASON_TEXT))

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = pick_policy(db, rng, lambda p: p.status == ACTIVE and p.balance_due == 0)
        if policy is None:
            return None
        user: User = record(db, "users", policy.user_id)
        method = _refund_method(user, policy, rng)
        quote = cancellation_quote(policy)
        if method is None or quote.refund <= 0:
            return None
        who = self.owner(db, policy, rng)
        reason = rng.choice(self.choices)
        pid = policy.policy_id
        outputs = [money_text(quote.refund)]
        if quote.cancellation_fee:
            outputs.append(money_text(quote.cancellation_fee))
        ref = PolicyRef(db, policy, rng)
        opening = one_of(
            rng,
            f"Hi, I want to cancel my {policy.kind} insurance.",
            f"Hello, {REASON_TEXT[reason]}, so please cancel my {policy.kind} policy.",
            f"I'd like to end my {policy.kind} policy today. What do I get back?",
        )
        return self.task(
            domain,
            who,
            goal=f"I want to cancel my {ref.text} today because "
            f"{REASON_TEXT[reason]}. The refund should go to {method_text(method)}. I want to "
            f"know how much I get back and whether there is a fee. {CONFIRM}",
            opening=opening + ref.say,
            known={
                **ref.known,
                "cancel_reason": reason,
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, *ref.reads),
                Action("quote_cancellation", {"policy_id": pid}),
                Action(
                    "cancel_policy",
                    {"policy_id": pid, "reason": reason, "refund_payment_method_id": method.id},
                ),
            ],
            outputs=outputs,
            summary=f"cancel {pid}: refund {money_text(quote.refund)}",
        )


class MakePayment(InsuranceIntent):
    """Pay the whole balance due on a policy, or half of it, with a chosen payment method."""

    name = "make_payment"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        policy = pick_policy(db, rng, lambda p: p.status == ACTIVE and p.balance_due > 0)
        if policy is None:
            return None
        user: User = record(db, "users", policy.user_id)
        balance = policy.balance_due
        method = payer(user, balance, rng)
        if method is None:
            return None
        who = self.owner(db, policy, rng)
        pid = policy.policy_id
        ref = PolicyRef(db, policy, rng)
        opening = one_of(
            rng,
            f"Hi, I'd like to pay what I owe on my {policy.kind} policy.",
            f"Hello, I want to clear the balance on my {policy.kind} insurance.",
            f"Can I pay off my {policy.kind} policy today?",
        )
        halved = rng.random() < 0.4 and money(balance / 2) > 0
        share = "half of the balance due" if halved else "the whole balance due"
        amount = money(balance / 2) if halved else balance
        half = [Action("calculate", {"expression": f"{balance:.2f} / 2"})] if halved else []
        return self.task(
            domain,
            who,
            goal=f"I want to pay {share} on my {ref.text} today with "
            f"{method_text(method)}. I want to know how much I paid. {CONFIRM}",
            opening=opening + ref.say,
            known={**ref.known, "payment_method": method_text(method)},
            actions=[
                *gold_reads(who, *ref.reads),
                *half,
                Action(
                    "make_payment",
                    {"policy_id": pid, "payment_method_id": method.id, "amount": amount},
                ),
            ],
            outputs=[money_text(amount)],
            summary=f"pay {money_text(amount)} of {money_text(balance)} on {pid}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the other share paid (half instead of all, or all)."""
        paid = float(task.actions[-1].arguments["amount"])
        halved = any(a.name == "calculate" for a in task.actions)
        other = money(paid / 2)
        if halved:
            policy = record(
                domain.new_database(), "policies", task.actions[-1].arguments["policy_id"]
            )
            other = policy.balance_due
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, amount=other),
        ]


class CancelHomeAndFileAutoClaim(ClaimIntent):
    """Cancel a home policy (the house was sold) and file a claim on the auto policy."""

    name = "cancel_home_and_file_auto_claim"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = self.drawn_claim(db, rng, AUTO)
        if picked is None:
            return None
        auto, loss, day, amount = picked
        user: User = record(db, "users", auto.user_id)
        homes = [
            h
            for h in (record(db, "policies", p) for p in user.policies)
            if h.kind == HOME and h.status == ACTIVE and h.balance_due == 0
        ]
        if not homes:
            return None
        home: Policy = homes[0]
        quote = cancellation_quote(home)
        method = user.payment_method(home.payment_method_id)
        if method is None or quote.refund <= 0:
            return None
        who = self.owner(db, auto, rng)
        a, h = auto.policy_id, home.policy_id
        cancel = {
            "policy_id": h,
            "reason": "sold the insured property",
            "refund_payment_method_id": method.id,
        }
        return self.task(
            domain,
            who,
            goal=f"Two things: I sold my house, so I want my home policy {h} cancelled today with "
            f"the refund to {method_text(method)}; and on {day} {LOSS_TEXT[loss]}, so I want to "
            f"file a claim on my auto policy {a} (estimate {money_text(amount)}, nobody was "
            f"hurt). I want the refund amount and the claim number. {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I sold my house and need to cancel its insurance, and I also need to "
                "file a car claim.",
                "Hello, two things: my home policy has to go, and my car needs a claim.",
                f"I've moved out of my house, and on top of that {LOSS_TEXT[loss]}.",
            ),
            known={
                "policy_id_1": h,
                "cancel_reason": "sold the insured property",
                "payment_method": method_text(method),
                "policy_id_2": a,
                **claim_known(loss, day, amount, False),
            },
            actions=[
                *gold_reads(who, h),
                Action("quote_cancellation", {"policy_id": h}),
                Action("cancel_policy", cancel),
                Action("get_policy_details", {"policy_id": a}),
                *claim_reads(auto, loss, day),
                Action("file_claim", claim_args(auto, loss, day, amount, False)),
            ],
            outputs=[money_text(quote.refund), claim_id(a, len(auto.claims) + 1)],
            summary=f"cancel {h} and file a {loss} claim on {a}",
        )
