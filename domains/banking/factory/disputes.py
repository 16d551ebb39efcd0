"""Banking intents that dispute a card purchase, report fraud or ask after a dispute."""

from __future__ import annotations

import random
from collections.abc import Callable

from tau_sim.domains.banking.data import (
    CARD_PURCHASE,
    Account,
    Dispute,
    Transaction,
    User,
    days_ago,
    dispute_id,
)
from tau_sim.domains.banking.factory.common import (
    CLAIMS,
    REASONS,
    BankingIntent,
    card_purchases,
    checking,
    dispute_action,
    history,
    holder,
    in_window,
    looked_up,
    nameable,
    pick_user,
    transactions_read,
)
from tau_sim.domains.banking.factory.side import caller
from tau_sim.domains.banking.rules import DISPUTE_WINDOW_DAYS
from tau_sim.domains.banking.scenario import account_text, gold_reads, transaction_text
from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.simulator.world import Action, Database, Domain, Task

_REASON_TEXT = {
    "duplicate charge": "I was charged twice for it",
    "goods not received": "I paid but never received what I bought",
    "wrong amount": "I was charged more than the price I agreed to",
}


def _purchase(
    db: Database, rng: random.Random, accept: Callable[[Transaction], bool]
) -> tuple[User, Account, Transaction] | None:
    """A customer and one of their undisputed card purchases that ``accept`` likes."""
    user = pick_user(db, rng, lambda u: bool(card_purchases(db, u, accept)))
    if user is None:
        return None
    account = checking(db, user)
    purchases = card_purchases(db, user, lambda t: True)
    chosen = [t for t in card_purchases(db, user, accept) if nameable(purchases, t)]
    if not chosen:
        return None
    return user, account, rng.choice(chosen)


class DisputeCharge(BankingIntent):
    """Dispute a recent card purchase (inside the window) for a reason the bank accepts."""

    name = "dispute_charge"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _purchase(db, rng, in_window)
        if picked is None:
            return None
        user, account, txn = picked
        reason = rng.choice(CLAIMS)
        who, side = caller(self, db, user, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to dispute {transaction_text(txn)} on {account_text(account)}: "
            f"{_REASON_TEXT[reason]}. I made the purchase myself. I want the dispute number."
            f"{side.goal} {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I want to dispute a charge from {txn.description}.",
                "Hello, there is a card charge I need to dispute.",
                f"Something is wrong with my {txn.description} purchase and I want to dispute it.",
                "Hi, I'd like to open a dispute on a card purchase.",
                f"I need to challenge a charge, the one at {txn.description}.",
            ),
            known={"transaction": transaction_text(txn), "dispute_reason": reason, **side.known},
            actions=[
                *gold_reads(who, transactions_read(account), *looked_up(rng, txn), *side.actions),
                dispute_action(txn, reason),
            ],
            outputs=[dispute_id(txn.transaction_id), *side.outputs],
            summary=f"dispute {txn.transaction_id} ({reason})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, another reason, and another (neighbouring) card purchase disputed."""
        *reads, dispute = task.actions
        args = dispute.arguments
        other = next(r for r in REASONS if r != args["reason"])
        paths = [
            *super().mistakes(domain, task),
            [*reads, Action(dispute.name, {**args, "reason": other})],
        ]
        db = domain.new_database()
        txn: Transaction = record(db, "transactions", args["transaction_id"])
        user = holder(db, txn.account_id)
        near = [
            t
            for t in card_purchases(db, user, lambda t: True)
            if t.transaction_id != txn.transaction_id
        ]
        if near:
            wrong = {**args, "transaction_id": near[0].transaction_id}
            paths.append([*reads, Action(dispute.name, wrong)])
        return paths


class DisputeOutsideWindow(Refuses, BankingIntent):
    """Dispute a card purchase posted more than 60 days ago: refuse, say when it was posted."""

    name = "dispute_outside_window"
    forbidden = True
    rules = ("dispute-window",)
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _purchase(db, rng, lambda t: not in_window(t))
        if picked is None:
            return None
        user, account, txn = picked
        reason = rng.choice(CLAIMS)
        who, side = caller(self, db, user, rng)
        task = self.task(
            domain,
            who,
            goal=f"I want to dispute {transaction_text(txn)}: {_REASON_TEXT[reason]}. I made the "
            f"purchase myself. I only just noticed it.{side.goal} If the agent says it is too "
            "late, I want "
            "to know why.",
            demand=f"{transaction_text(txn)} disputed",
            opening=one_of(
                rng,
                f"Hi, I need to dispute an old charge from {txn.description}.",
                f"Hello, I just noticed a {txn.description} charge from a while back that's wrong.",
                "I want to dispute a purchase from a couple of months ago.",
                "Hi, there's an older card charge I'd like to dispute.",
                f"Can I still dispute my {txn.description} purchase? It was a while ago.",
            ),
            known={"transaction": transaction_text(txn), "dispute_reason": reason, **side.known},
            actions=gold_reads(
                who, transactions_read(account), *looked_up(rng, txn), *side.actions
            ),
            outputs=[txn.date, f"{DISPUTE_WINDOW_DAYS} days", *side.outputs],
            summary=f"dispute {txn.transaction_id} of {txn.date}: outside the window, refuse",
        )
        return refusing(task, dispute_action(txn, reason))  # filed outside the window


class FraudToHuman(Refuses, BankingIntent):
    """Charges the customer did not make: suspected fraud goes to a human, nothing is filed."""

    name = "fraud_transfer"
    forbidden = True
    rules = ("fraud-to-human",)
    done_at = "before"
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _purchase(db, rng, lambda t: days_ago(t.date) <= 10)
        if picked is None:
            return None
        user, account, txn = picked
        same = [
            t
            for t in history(db, account)
            if (t.description, t.amount) == (txn.description, txn.amount)
        ]
        if len(same) > 1:  # a repeated charge might be the customer's own (recurring-not-fraud)
            return None
        who = self.identity(db, user.user_id, rng)
        summary = (
            f"Suspected fraud: customer {user.user_id} did not make card purchase "
            f"{txn.transaction_id} ({money_text(-txn.amount)} at {txn.description})."
        )
        task = self.task(
            domain,
            who,
            goal=f"There is {transaction_text(txn)} on {account_text(account)} that I did not "
            "make: someone must have copied my card. I want it sorted out and I want to talk "
            "to whoever handles fraud.",
            demand=f"{transaction_text(txn)} sorted out by whoever handles fraud",
            opening=one_of(
                rng,
                "Hi, there's a charge on my account I never made. I think it's fraud.",
                f"Someone used my card at {txn.description}! I didn't make that purchase.",
                "Hello, I think my card details were stolen. There's a purchase I don't know.",
                f"I never shopped at {txn.description} but my card was charged there.",
                "Hi, I need to report fraud on my debit card.",
            ),
            known={"transaction": transaction_text(txn)},
            actions=[
                *gold_reads(who, transactions_read(account), *looked_up(rng, txn)),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"fraud on {txn.transaction_id}: transfer",
        )
        # the fraud handled as an ordinary dispute by the agent
        return refusing(task, dispute_action(txn, "wrong amount"))


class DisputeStatus(BankingIntent):
    """Ask where an earlier dispute stands (read only)."""

    name = "dispute_status"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        status = rng.choice(("open", "refunded", "declined"))
        dispute: Dispute | None = pick(db, rng, "disputes", lambda d: d.status == status)
        if dispute is None:
            return None
        txn: Transaction = record(db, "transactions", dispute.transaction_id)
        account: Account = record(db, "accounts", txn.account_id)
        user: User = record(db, "users", dispute.user_id)
        purchases = [t for t in history(db, account) if t.kind == CARD_PURCHASE]
        if not nameable(purchases, txn):
            return None
        who, side = caller(self, db, user, rng, disputes=True)
        return self.task(
            domain,
            who,
            goal=f"Some time ago I disputed {transaction_text(txn)}. I want to know where the "
            f"dispute stands and when it was filed.{side.goal} I do not want to change anything.",
            opening=one_of(
                rng,
                f"Hi, what happened with my dispute about {txn.description}?",
                "Hello, I'd like an update on a dispute I filed.",
                "Is there any news on a charge I disputed a while ago?",
                f"Hi, I disputed a {txn.description} charge. Where does that stand?",
                "Can you check the status of my card dispute?",
            ),
            known={"transaction": transaction_text(txn), **side.known},
            actions=gold_reads(
                who,
                transactions_read(account),
                *looked_up(rng, txn),
                Action("get_dispute_details", {"dispute_id": dispute.dispute_id}),
                *side.actions,
            ),
            outputs=[dispute.status, dispute.filed, *side.outputs],
            summary=f"status of dispute {dispute.dispute_id} ({dispute.status})",
        )
