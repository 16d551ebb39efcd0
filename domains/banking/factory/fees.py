"""Banking intents about fees: reversals allowed and refused, an overdraft covered and its fee."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar, NamedTuple

from tau_sim.domains.banking.data import Account, Transaction, User
from tau_sim.domains.banking.factory.common import (
    BankingIntent,
    account_read,
    checking,
    holder,
    looked_up,
    may_reverse,
    nameable,
    open_fees,
    pick_user,
    room_now,
    savings,
    transactions_read,
    transfer_action,
)
from tau_sim.domains.banking.factory.side import caller, side_question
from tau_sim.domains.banking.rules import FEE_REVERSAL_CAP
from tau_sim.domains.banking.scenario import account_text, fee_text, gold_reads
from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import balance_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swapped
from tau_sim.simulator.world import Action, Database, Domain, Task


def _fee(
    db: Database, rng: random.Random, eligible: bool, accept: Callable[[Transaction], bool]
) -> tuple[User, Account, Transaction] | None:
    """A customer whose reversal eligibility is ``eligible``, with an open fee ``accept`` likes."""
    user = pick_user(
        db, rng, lambda u: may_reverse(u) is eligible and bool(open_fees(db, u, accept))
    )
    if user is None:
        return None
    fees = open_fees(db, user, lambda t: True)
    chosen = [f for f in open_fees(db, user, accept) if nameable(fees, f)]
    if not chosen:
        return None
    return user, checking(db, user), rng.choice(chosen)


def _within_cap(txn: Transaction) -> bool:
    return -txn.amount <= FEE_REVERSAL_CAP


class ReverseFee(BankingIntent):
    """Reverse a fee for a customer who had no reversal in the last 12 months."""

    name = "reverse_fee"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _fee(db, rng, True, _within_cap)
        if picked is None:
            return None
        user, account, fee = picked
        who = self.identity(db, user.user_id, rng)
        after = money(account.balance - fee.amount)
        side = side_question(db, user, rng)
        return self.task(
            domain,
            who,
            goal=f"I was charged {fee_text(fee)} on {account_text(account)} and I think it is "
            f"unfair; I want it refunded. I want to know my balance afterwards.{side.goal} "
            f"{CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, can you refund a fee I was charged on {fee.date}?",
                "Hello, I got hit with a fee and I'd like it reversed.",
                f"There's a {fee.description.lower()} on my account that I want taken off.",
                "Hi, I'd like to ask for a courtesy refund of a fee.",
                "Hey, the bank charged me a fee and I don't think it's fair.",
            ),
            known={"fee": fee_text(fee), **side.known},
            actions=[
                *gold_reads(who, transactions_read(account), *looked_up(rng, fee), *side.actions),
                Action("reverse_fee", {"transaction_id": fee.transaction_id}),
                *(
                    [
                        Action(
                            "calculate",
                            {"expression": f"{account.balance:.2f} + {-fee.amount:.2f}"},
                        )
                    ]
                    if rng.random() < 0.4
                    else []
                ),
            ],
            outputs=[money_text(-fee.amount), balance_text(after), *side.outputs],
            summary=f"reverse fee {fee.transaction_id} ({money_text(-fee.amount)})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and another of the customer's fees reversed."""
        reverse = next(a for a in task.actions if a.name == "reverse_fee")
        db = domain.new_database()
        fee: Transaction = record(db, "transactions", reverse.arguments["transaction_id"])
        user = holder(db, fee.account_id)
        others = [
            t for t in open_fees(db, user, lambda t: True) if t.transaction_id != fee.transaction_id
        ]
        paths = super().mistakes(domain, task)
        if others:
            wrong = Action(reverse.name, {"transaction_id": others[0].transaction_id})
            paths.append(swapped(task, reverse, wrong))
        return paths


class _Refusal(NamedTuple):
    """A refused reversal's words: goal, demand, openings, the reason told, the summary."""

    goal: str
    demand: str
    openings: tuple[str, ...]
    reason: str
    summary: str


class _ForbiddenReversal(Refuses, BankingIntent):
    """A fee reversal the policy refuses; the mistake is reversing it anyway.

    A subclass says which fee (``eligible``, ``accept``: see ``_fee``) and its words (``refusal``);
    the gold path reads the statement (and looks the fee up), then the side questions.
    """

    forbidden = True
    eligible: ClassVar[bool]
    own_mistakes = "before"

    @staticmethod
    def accept(txn: Transaction) -> bool:
        """Whether the customer's open fee ``txn`` may be the one asked about."""
        raise NotImplementedError

    def refusal(self, user: User, account: Account, fee: Transaction, side: str) -> _Refusal:
        """The task's words; ``side`` is the goal's sentence of the side questions."""
        raise NotImplementedError

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _fee(db, rng, self.eligible, self.accept)
        if picked is None:
            return None
        user, account, fee = picked
        who, side = caller(self, db, user, rng)
        said = self.refusal(user, account, fee, side.goal)
        task = self.task(
            domain,
            who,
            goal=said.goal,
            demand=said.demand,
            opening=one_of(rng, *said.openings),
            known={"fee": fee_text(fee), **side.known},
            actions=gold_reads(
                who, transactions_read(account), *looked_up(rng, fee), *side.actions
            ),
            outputs=[said.reason, *side.outputs],
            summary=said.summary,
        )
        # the fee reversed although the policy does not allow it
        return refusing(task, Action("reverse_fee", {"transaction_id": fee.transaction_id}))


class SecondFeeReversal(_ForbiddenReversal):
    """A fee reversal within 12 months of the last one: refuse, say when the last one was."""

    name = "second_fee_reversal"
    rules = ("fee-reversal-yearly",)
    eligible = False
    accept = staticmethod(_within_cap)

    def refusal(self, user: User, account: Account, fee: Transaction, side: str) -> _Refusal:
        """The fee refunded; the reason is the date of the last reversal."""
        return _Refusal(
            goal=f"I want {fee_text(fee)} on {account_text(account)} refunded.{side} "
            "If the agent "
            "refuses, I want to know why and when my last fee reversal was.",
            demand=f"{fee_text(fee)} refunded",
            openings=(
                "Hi, I want a fee taken off my account.",
                f"Hello, please refund the {fee.description.lower()} I was charged.",
                "I was charged a fee I shouldn't have been. Can you reverse it?",
                "Hi, I'd like a fee credited back to my checking account.",
                f"Why did I get a {fee.description.lower()}? I want it refunded.",
            ),
            reason=user.last_fee_reversal,
            summary=f"reverse fee {fee.transaction_id}: last reversal {user.last_fee_reversal}",
        )


class FeeOverCap(_ForbiddenReversal):
    """A fee above the reversal cap: refuse, say the cap."""

    name = "fee_over_cap"
    rules = ("fee-reversal-cap",)
    eligible = True

    @staticmethod
    def accept(txn: Transaction) -> bool:
        """A fee above the cap."""
        return not _within_cap(txn)

    def refusal(self, user: User, account: Account, fee: Transaction, side: str) -> _Refusal:
        """The whole fee refunded; the reason is the cap."""
        return _Refusal(
            goal=f"I want {fee_text(fee)} on {account_text(account)} refunded: it is far too "
            f"high.{side} If the agent refuses, I want to know the most a fee reversal "
            "can be.",
            demand=f"{fee_text(fee)} refunded in full",
            openings=(
                f"Hi, I want a {money_text(-fee.amount)} fee refunded.",
                f"Hello, that {fee.description.lower()} was outrageous. I want it back.",
                "I was charged a big fee and I'd like it reversed, please.",
                "Hi, can you credit back a fee on my checking account?",
                f"The {money_text(-fee.amount)} you charged me is way too much. Refund it.",
            ),
            reason=money_text(FEE_REVERSAL_CAP),
            summary=f"reverse fee {fee.transaction_id}: above the cap, refuse",
        )


class CoverOverdraft(BankingIntent):
    """Cover an overdrawn checking account from savings and reverse its overdraft fee."""

    name = "cover_overdraft"
    "is reversed (two writes)."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _fee(db, rng, True, lambda t: t.description == "Overdraft fee")
        if picked is None:
            return None
        user, account, fee = picked
        source = savings(db, user)
        if source is None or account.balance >= 0:
            return None
        amount = float(100 * (int(-account.balance // 100) + 1))
        if amount > room_now(source):
            return None
        who = self.identity(db, user.user_id, rng)
        after = money(account.balance + amount - fee.amount)
        side = side_question(db, user, rng, ("account",))
        reads = [transactions_read(account), *side.actions]
        if rng.random() < 0.5:
            reads.insert(0, account_read(source))
        return self.task(
            domain,
            who,
            goal=f"My checking account is overdrawn. I want to move {money_text(amount)} from my "
            f"savings account into it, and I want {fee_text(fee)} refunded. I want to know my "
            f"checking balance after both.{side.goal} {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, my checking account went negative and I got an overdraft fee.",
                "Hello, I'm overdrawn and I want to fix it from my savings.",
                "I got an overdraft fee. Can you help me cover the shortfall?",
                "Hi, my checking is in the red; I'd like to move savings over and lose the fee.",
                "Hey, I overdrew my account by accident and got charged for it.",
            ),
            known={
                "amount": money_text(amount),
                "from_account": "my savings account",
                "to_account": "my checking account",
                "fee": fee_text(fee),
                **side.known,
            },
            actions=[
                *gold_reads(who, *reads),
                transfer_action(source, account, amount),
                Action("reverse_fee", {"transaction_id": fee.transaction_id}),
                *(
                    [
                        Action(
                            "calculate",
                            {
                                "expression": f"{account.balance:.2f} + {amount:.2f} + "
                                f"{-fee.amount:.2f}"
                            },
                        )
                    ]
                    if rng.random() < 0.4
                    else []
                ),
            ],
            outputs=[balance_text(after), *side.outputs],
            summary=f"cover overdraft with {money_text(amount)} and reverse {fee.transaction_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the transfer of another amount."""
        move = next(a for a in task.actions if a.name == "transfer_between_accounts")
        smaller = replaced(move, amount=move.arguments["amount"] - 50.0)
        return [*super().mistakes(domain, task), swapped(task, move, smaller)]
