"""Hard banking intents where a fee reversal the policy refuses sits beside an allowed request.

A second fee (one reversal per 12 months), a fee above the cap beside a transfer, a reversal
within 12 months of the last beside a dispute: the allowed write is made, the reversal refused.
"""

from __future__ import annotations

import random

from tau_sim.domains.banking.data import Transaction, User, dispute_id
from tau_sim.domains.banking.factory.common import (
    CLAIMS,
    BankingIntent,
    account_read,
    checking,
    describable,
    describe,
    looked_up,
    may_reverse,
    nameable,
    open_fees,
    pick_user,
    room_now,
    round_amount,
    savings,
    transactions_read,
    transfer_action,
)
from tau_sim.domains.banking.factory.side import caller, side_question
from tau_sim.domains.banking.rules import FEE_REVERSAL_CAP
from tau_sim.domains.banking.scenario import account_text, fee_text, gold_reads
from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.payments import balance_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.simulator.world import Action, Database, Domain, Task


def _nameable_fees(db: Database, user: User, small: bool) -> list[Transaction]:
    """Open fees a date and a name single out; ``small``: within the cap, else above it."""
    fees = open_fees(db, user, lambda t: True)
    return [f for f in fees if nameable(fees, f) and ((-f.amount <= FEE_REVERSAL_CAP) is small)]


def _reverse(fee: Transaction) -> Action:
    return Action("reverse_fee", {"transaction_id": fee.transaction_id})


class RefusedFee(Refuses, BankingIntent):
    """A fee reversal the policy refuses (the fee the user names), beside an allowed request."""

    own_mistakes = "before"


class OneOfTwoFees(Refuses, BankingIntent):
    """Two fees to reverse: only one per 12 months, the one the customer prefers."""

    name = "one_of_two_fees"
    tier = "hard"
    rules = ("fee-reversal-one",)
    own_mistakes = "before"
    challenges = frozenset({"mixed", "conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        user = pick_user(
            db, rng, lambda u: may_reverse(u) and len(_nameable_fees(db, u, True)) >= 2
        )
        if user is None:
            return None
        first, second = rng.sample(_nameable_fees(db, user, True), 2)
        account = checking(db, user)
        after = money(account.balance - first.amount)
        adds = rng.random() < 0.5
        who, side = caller(self, db, user, rng)
        work = (
            [Action("calculate", {"expression": f"{account.balance:.2f} + {-first.amount:.2f}"})]
            if adds
            else []
        )
        task = self.task(
            domain,
            who,
            goal=f"I want {fee_text(first)} and {fee_text(second)} on my checking account "
            f"refunded. If only one of them can be refunded, I want {fee_text(first)} refunded. "
            f"I want to know my balance afterwards.{side.goal} {CONFIRM}",
            demand=f"{fee_text(second)} refunded as well",
            opening=one_of(
                rng,
                "Hi, I was charged two fees and I want both of them refunded.",
                "Hello, there are a couple of fees on my account I'd like reversed.",
                f"I got a {first.description.lower()} and a {second.description.lower()}. "
                "Can you take them off?",
                "Hey, two fees hit my checking account and I think both are unfair.",
            ),
            known={"fee": f"{fee_text(first)} and {fee_text(second)}", **side.known},
            actions=[
                *gold_reads(
                    who, transactions_read(account), *looked_up(rng, first, second), *side.actions
                ),
                _reverse(first),
                *work,
            ],
            outputs=[
                money_text(-first.amount),
                balance_text(after),
                "cannot be reversed",
                *side.outputs,
            ],
            summary=f"reverse {first.transaction_id}, refuse {second.transaction_id}",
        )
        return refusing(task, _reverse(second))  # the second fee reversed too

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, both reversed, and the other one reversed instead."""
        reads = [a for a in task.actions if a.name != "reverse_fee"]
        return [*super().mistakes(domain, task), [*reads, *task.violations]]


class CapBesideTransfer(RefusedFee):
    """A transfer from savings (allowed) and a fee above the cap reversed (refused)."""

    name = "cap_beside_transfer"
    tier = "hard"
    rules = ("fee-reversal-cap",)
    challenges = frozenset({"mixed"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(u: User) -> bool:
            sav = savings(db, u)
            return (
                may_reverse(u)
                and sav is not None
                and room_now(sav) >= 50
                and bool(_nameable_fees(db, u, False))
            )

        user = pick_user(db, rng, fits)
        if user is None:
            return None
        fee = rng.choice(_nameable_fees(db, user, False))
        chk, sav = checking(db, user), savings(db, user)
        assert sav is not None
        amount = round_amount(rng, room_now(sav))
        who = self.identity(db, user.user_id, rng)
        statement = [transactions_read(chk), *looked_up(rng, fee)]
        reads = [*statement, account_read(sav)]
        if rng.random() < 0.5:
            reads = [account_read(sav), *statement]
        side = side_question(db, user, rng, ("account",))
        reads += side.actions
        task = self.task(
            domain,
            who,
            goal=f"I want {money_text(amount)} moved from my savings account to my checking "
            f"account, and {fee_text(fee)} on my checking account refunded: it is too high. I "
            "want my checking balance afterwards. If the fee cannot be refunded, I want to know "
            f"the most a fee reversal can be.{side.goal} {CONFIRM}",
            demand=f"{fee_text(fee)} refunded in full",
            opening=one_of(
                rng,
                f"Hi, I need to move {money_text(amount)} into checking and get a fee refunded.",
                "Hello, two things: a transfer from my savings and a fee I want back.",
                f"I was charged a {money_text(-fee.amount)} fee and I'd like it refunded, and "
                "I also need a transfer.",
                "Hi, can you move some savings over and reverse a fee for me?",
            ),
            known={
                "amount": money_text(amount),
                "from_account": account_text(sav),
                "to_account": account_text(chk),
                "fee": fee_text(fee),
                **side.known,
            },
            actions=[
                *gold_reads(who, *reads),
                transfer_action(sav, chk, amount),
                *(
                    [Action("calculate", {"expression": f"{chk.balance:.2f} + {amount:.2f}"})]
                    if rng.random() < 0.4
                    else []
                ),
            ],
            outputs=[
                money_text(FEE_REVERSAL_CAP),
                "cannot be reversed",
                balance_text(money(chk.balance + amount)),
                *side.outputs,
            ],
            summary=f"transfer {money_text(amount)}, refuse {fee.transaction_id} over the cap",
        )
        return refusing(task, _reverse(fee))  # the fee the user names reversed


class DisputeBesideSecondReversal(RefusedFee):
    """A dispute (allowed) and a fee reversal within 12 months of the last one (refused)."""

    name = "dispute_beside_second_reversal"
    tier = "hard"
    rules = ("fee-reversal-yearly",)
    challenges = frozenset({"search", "mixed"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def charges(u: User) -> list[Transaction]:
            return describable(db, u, True)

        user = pick_user(
            db,
            rng,
            lambda u: not may_reverse(u) and bool(_nameable_fees(db, u, True)) and bool(charges(u)),
        )
        if user is None:
            return None
        fee = rng.choice(_nameable_fees(db, user, True))
        txn = rng.choice(charges(user))
        reason = rng.choice(CLAIMS)
        who, side = caller(self, db, user, rng)
        task = self.task(
            domain,
            who,
            goal=f"I want to dispute {describe(txn)} on my checking account ({reason}; I made "
            f"the purchase myself), and I want {fee_text(fee)} refunded. I want the dispute "
            "number. If the fee cannot be refunded, I want to know when my last fee reversal "
            f"was.{side.goal} {CONFIRM}",
            demand=f"{fee_text(fee)} refunded",
            opening=one_of(
                rng,
                f"Hi, I need to dispute a {txn.description} charge and get a fee refunded.",
                "Hello, I have a card charge to dispute and a fee I'd like taken off.",
                "Hi, two things on my checking account: a wrong purchase and an unfair fee.",
                f"There's a bad charge from {txn.description} and a fee I want reversed.",
            ),
            known={
                "transaction": describe(txn),
                "dispute_reason": reason,
                "fee": fee_text(fee),
                **side.known,
            },
            actions=[
                *gold_reads(
                    who, transactions_read(checking(db, user)), *looked_up(rng, txn), *side.actions
                ),
                Action("file_dispute", {"transaction_id": txn.transaction_id, "reason": reason}),
            ],
            outputs=[
                dispute_id(txn.transaction_id),
                user.last_fee_reversal,
                "cannot be reversed",
                *side.outputs,
            ],
            summary=f"dispute {txn.transaction_id}; refuse {fee.transaction_id} "
            f"(last reversal {user.last_fee_reversal})",
        )
        return refusing(task, _reverse(fee))  # the fee the user names reversed
