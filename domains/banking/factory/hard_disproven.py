"""Hard banking intents whose claim the statement disproves: refuse, and say what it shows.

A charge called unauthorised that is the customer's own monthly subscription, and a purchase
"charged twice" that was posted once.
"""

from __future__ import annotations

import random

from tau_sim.domains.banking.data import (
    Transaction,
    User,
)
from tau_sim.domains.banking.factory.common import (
    BankingIntent,
    checking,
    describable,
    describe,
    dispute_action,
    history,
    in_window,
    is_subscription,
    looked_up,
    pick_user,
    transactions_read,
)
from tau_sim.domains.banking.factory.side import balance_later, caller, side_question
from tau_sim.domains.banking.scenario import account_text, gold_reads
from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.claims import DisprovenClaim
from tau_sim.domains.kit.factory.refusals import refusing
from tau_sim.domains.kit.payments import money_text
from tau_sim.simulator.world import Action, Database, Domain, Task


def _subscribers(db: Database, user: User) -> list[tuple[Transaction, Transaction]]:
    """(latest, first) charge of each subscription on the customer's checking account."""
    every = history(db, checking(db, user))
    out = []
    for name in dict.fromkeys(t.description for t in every if is_subscription(t)):
        charges = [t for t in every if t.description == name]
        latest, first = charges[0], charges[-1]
        if len(charges) >= 3 and in_window(latest) and not latest.dispute_id:
            out.append((latest, first))
    return out


class RecurringNotFraud(DisprovenClaim, BankingIntent):
    """An "unauthorised" charge that is the customer's own monthly subscription: refuse.

    No dispute and no fraud transfer; the agent says since when it is charged. Then the user
    asks a balance (a later need).
    """

    name = "recurring_charge_claimed_fraud"
    own_mistakes = "before"
    rules = ("recurring-not-fraud",)
    challenges = frozenset({"disproven", "later"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        user = pick_user(db, rng, lambda u: bool(_subscribers(db, u)))
        if user is None:
            return None
        latest, first = rng.choice(_subscribers(db, user))
        who = self.identity(db, user.user_id, rng)
        need, account, balance = balance_later(db, user, rng)
        said = f"{describe(latest)} of {money_text(-latest.amount)}"
        side = side_question(db, user, rng, ("account",))
        reads = gold_reads(
            who, transactions_read(checking(db, user)), *looked_up(rng, latest), *side.actions
        )
        task = self.task(
            domain,
            who,
            goal=f"There is {said} on my checking account that I never authorised: I do not "
            f"remember signing up for {latest.description}. I want it disputed and my money "
            f"back. If the agent says it is not fraud, I want to know why.{side.goal}",
            demand=f"the {latest.description} charge disputed and refunded",
            opening=one_of(
                rng,
                f"Hi, {latest.description} charged my card and I never authorised it!",
                "Hello, there's a charge on my account I never agreed to. I want it reversed.",
                f"Someone signed me up for {latest.description}, I never approved that charge.",
                "I found an unauthorised charge on my debit card and I want my money back.",
            ),
            known={"transaction": said, "account": account_text(account), **side.known},
            actions=[*reads, Action("get_account_details", {"account_id": account.account_id})],
            outputs=[first.date, balance, *side.outputs],
            summary=f"{latest.transaction_id}: monthly {latest.description} since {first.date}",
            later=need,
            later_at=len(reads),
        )
        # the customer's own subscription disputed as if it were not theirs
        return refusing(task, dispute_action(latest, "goods not received"))


def _single(db: Database, user: User) -> list[Transaction]:
    """Recent purchases with no other charge of the same merchant and amount on the account."""
    every = history(db, checking(db, user))
    return [
        t
        for t in describable(db, user, True)
        if not [
            o
            for o in every
            if o is not t and (o.description, o.amount) == (t.description, t.amount)
        ]
    ]


class DuplicateNotOnFile(DisprovenClaim, BankingIntent):
    """A "charged twice" claim the statement disproves: one charge only, nothing to dispute."""

    name = "duplicate_not_on_file"
    own_mistakes = "before"
    rules = ("duplicate-needs-two",)
    challenges = frozenset({"search", "disproven"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        user = pick_user(db, rng, lambda u: bool(_single(db, u)))
        if user is None:
            return None
        txn = rng.choice(_single(db, user))
        who, side = caller(self, db, user, rng, taken=("account",))
        reads = gold_reads(
            who, transactions_read(checking(db, user)), *looked_up(rng, txn), *side.actions
        )
        need, later_at = "", None
        known = {"transaction": describe(txn), "dispute_reason": "duplicate charge", **side.known}
        outputs = [money_text(-txn.amount), *side.outputs]
        actions = list(reads)
        if rng.random() < 0.4:
            need, account, balance = balance_later(db, user, rng)
            known["account"] = account_text(account)
            actions.append(Action("get_account_details", {"account_id": account.account_id}))
            outputs.append(balance)
            later_at = len(reads)
        task = self.task(
            domain,
            who,
            goal=f"I was charged twice for {describe(txn)} on my checking account: I paid once "
            "but I am sure I saw it twice. I want the duplicate disputed. If the agent says "
            f"there is only one charge, I want to know its amount.{side.goal}",
            demand=f"the duplicate of {describe(txn)} disputed",
            opening=one_of(
                rng,
                f"Hi, {txn.description} charged me twice and I want the second one disputed.",
                "Hello, I was double charged for a purchase on my debit card.",
                f"I paid once at {txn.description} but got billed twice. Please fix it.",
                "Hi, there's a duplicate charge on my card I need to dispute.",
            ),
            known=known,
            actions=actions,
            outputs=outputs,
            summary=f"{txn.transaction_id} charged once: no duplicate to dispute",
            later=need,
            later_at=later_at,
        )
        return refusing(task, dispute_action(txn, "duplicate charge"))  # the single charge
