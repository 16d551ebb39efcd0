"""Hard banking intents about card charges: several disputed, one too old, claims disproven.

Several charges disputed at once, one past the window beside allowed ones, a dispute that may
already exist, and claims the statement disproves (a subscription called unauthorised, a
"double" charge posted once).

The users name charges by merchant and day, never by amount or id ("the Target charge on Friday
2025-03-07"), among the dozens of purchases on their checking account.
"""

from __future__ import annotations

import random

from tau_sim.domains.banking.data import (
    CARD_PURCHASE,
    Account,
    Dispute,
    Transaction,
    User,
    dispute_id,
)
from tau_sim.domains.banking.intents.common import (
    BankingIntent,
    accounts_of,
    card_purchases,
    checking,
    describe,
    find_described,
    history,
    in_window,
    is_subscription,
    listing,
    looked_up,
    nameable,
    one_of,
    pick_user,
    transactions_read,
)
from tau_sim.domains.banking.intents.side import side_question
from tau_sim.domains.banking.rules import DISPUTE_WINDOW_DAYS
from tau_sim.domains.banking.scenario import CONFIRM, account_text, gold_reads
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import balance_text, money_text
from tau_sim.domains.kit.tasks import sum_action
from tau_sim.simulator.world import Action, Database, Domain, Task

_REASONS = ("duplicate charge", "goods not received", "wrong amount")

_WHY = {
    "duplicate charge": "it was charged twice",
    "goods not received": "the goods never arrived",
    "wrong amount": "the amount is more than the agreed price",
}


def describable(db: Database, user: User, accept: bool | None = None) -> list[Transaction]:
    """The customer's undisputed one-off purchases a merchant and a day name alone.

    ``accept`` True keeps those inside the dispute window, False those outside it.
    """
    account = checking(db, user)
    every = history(db, account)
    return [
        t
        for t in card_purchases(db, user, lambda t: accept is None or in_window(t) is accept)
        if nameable(every, t)
    ]


def _dispute(txn: Transaction, reason: str) -> Action:
    return Action("file_dispute", {"transaction_id": txn.transaction_id, "reason": reason})


def _reasons_text(charges: list[Transaction], reasons: list[str]) -> str:
    """What is wrong with each charge, as the user holds it ("Target: wrong amount; ...")."""
    if len(set(reasons)) == 1:
        return reasons[0]
    return "; ".join(f"{t.description}: {r}" for t, r in zip(charges, reasons, strict=True))


def _said(domain: Domain, task: Task, accept: bool | None) -> list[Transaction]:
    """The charges the task's user names (its ``transaction`` slot) among the describable ones."""
    db = domain.new_database()
    user: User = record(db, "users", task.actions[1].arguments["user_id"])
    return find_described(describable(db, user, accept), task.scenario.known_info["transaction"])


def _balance_later(db: Database, user: User, rng: random.Random) -> tuple[str, Account, str]:
    """A later need: the balance of one of the customer's accounts (need, account, output)."""
    account = rng.choice(accounts_of(db, user))
    need = one_of(
        rng,
        f"Oh, and while I have you, could you also tell me the balance of {account_text(account)}?",
        f"One more thing: what is the balance on {account_text(account)} right now?",
    )
    return need, account, balance_text(account.balance)


class DisputeSeveral(BankingIntent):
    """Dispute three or four recent purchases at once, each named by merchant and day."""

    name = "dispute_several_charges"
    description = (
        "The user disputes three or four recent card purchases named by merchant and day "
        "(3-4 writes), and may ask the total disputed."
    )
    tier = "hard"
    challenges = frozenset({"search", "long"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        count = rng.choice((3, 4))
        user = pick_user(db, rng, lambda u: len(describable(db, u, True)) >= count)
        if user is None:
            return None
        charges = rng.sample(describable(db, user, True), count)
        reasons = [rng.choice(_REASONS) for _ in charges]
        total = sum(-t.amount for t in charges)
        asks_total = rng.random() < 0.5
        who = self.identity(db, user.user_id, rng)
        side = side_question(db, user, rng)
        named = listing([describe(t) for t in charges])
        why = "; ".join(
            f"{t.description}: {_WHY[r]}" for t, r in zip(charges, reasons, strict=True)
        )
        return self.task(
            domain,
            who,
            goal=f"I want to dispute {count} card charges on my checking account: {named} "
            f"({why}). I made the purchases myself. I want the dispute numbers"
            + (" and the total amount under dispute" if asks_total else "")
            + f".{side.goal} {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I have {count} charges on my debit card I need to dispute.",
                "Hello, several card purchases on my statement are wrong; I want to dispute them.",
                f"I need to open disputes for a few charges, {charges[0].description} among them.",
                "Hey, can you help me dispute some purchases? There are a few of them.",
            ),
            known={
                "transaction": named,
                "dispute_reason": _reasons_text(charges, reasons),
                **side.known,
            },
            actions=[
                *gold_reads(who, transactions_read(checking(db, user)), *side.actions),
                *(_dispute(t, r) for t, r in zip(charges, reasons, strict=True)),
                *(sum_action([-t.amount for t in charges]) if asks_total else []),
            ],
            outputs=[dispute_id(t.transaction_id) for t in charges]
            + ([money_text(total)] if asks_total else [])
            + side.outputs,
            summary=f"dispute {count} charges: " + ", ".join(t.transaction_id for t in charges),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, one dispute left out, another reason, a neighbouring charge."""
        disputes = [a for a in task.actions if a.name == "file_dispute"]
        first = disputes[0]
        other = next(r for r in _REASONS if r != first.arguments["reason"])
        wrong_reason = Action(first.name, {**first.arguments, "reason": other})
        paths = [
            *super().mistakes(domain, task),
            [a for a in task.actions if a is not disputes[1]],
            [wrong_reason if a is first else a for a in task.actions],
        ]
        db = domain.new_database()
        user: User = record(db, "users", task.actions[1].arguments["user_id"])
        chosen = {a.arguments["transaction_id"] for a in disputes}
        near = [t for t in card_purchases(db, user, in_window) if t.transaction_id not in chosen]
        if near:
            swap = Action(first.name, {**first.arguments, "transaction_id": near[0].transaction_id})
            paths.append([swap if a is first else a for a in task.actions])
        return paths


class DisputeBesideExpired(BankingIntent):
    """Dispute three recent purchases and one past the 60-day window.

    The recent ones are filed (three writes); the old one is refused, saying when it was posted.
    """

    name = "dispute_beside_expired"
    description = (
        "The user disputes three recent purchases and one older than 60 days: the recent ones "
        "are filed, the old one refused (mixed, 3 writes)."
    )
    tier = "hard"
    rules = ("dispute-window",)
    challenges = frozenset({"search", "mixed", "long"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        count = 3
        user = pick_user(
            db,
            rng,
            lambda u: len(describable(db, u, True)) >= count and bool(describable(db, u, False)),
        )
        if user is None:
            return None
        recent = rng.sample(describable(db, user, True), count)
        old = rng.choice(describable(db, user, False))
        reason = rng.choice(_REASONS)
        who = self.identity(db, user.user_id, rng)
        charges = [*recent, old]
        rng.shuffle(charges)
        named = listing([describe(t) for t in charges])
        side = side_question(db, user, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to dispute these charges on my checking account: {named}. For all of "
            f"them {_WHY[reason]}, and I made the purchases myself. I want the dispute numbers. "
            f"If one of them cannot be disputed, I want to know why.{side.goal} {CONFIRM}",
            demand=f"{describe(old)} disputed as well",
            opening=one_of(
                rng,
                f"Hi, I need to dispute {len(charges)} card charges.",
                "Hello, I went through my statement and want to dispute some purchases.",
                f"Hi, a few charges are wrong, {old.description} among them. Can you dispute them?",
                "I'd like to file disputes on several purchases, please.",
            ),
            known={"transaction": named, "dispute_reason": reason, **side.known},
            actions=[
                *gold_reads(who, transactions_read(checking(db, user)), *side.actions),
                *(_dispute(t, reason) for t in charges if t is not old),
            ],
            outputs=[dispute_id(t.transaction_id) for t in recent]
            + [old.date, f"{DISPUTE_WINDOW_DAYS} days", "cannot be disputed", *side.outputs],
            summary=f"dispute {count} recent charges, refuse {old.transaction_id} of {old.date}",
        )

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The old charge disputed too."""
        old = _said(domain, task, False)
        return [_dispute(old[0], task.scenario.known_info["dispute_reason"])]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, the old one disputed too, and a recent one refused as well."""
        disputes = [a for a in task.actions if a.name == "file_dispute"]
        return [
            *super().mistakes(domain, task),
            [*task.actions, *self.violations(domain, task)],
            [a for a in task.actions if a is not disputes[0]],
        ]


class DisputeUnlessFiled(BankingIntent):
    """Dispute a purchase; if it is already disputed, tell where that dispute stands instead."""

    name = "dispute_unless_filed"
    description = (
        "The user disputes a purchase, or, if it is already disputed, asks where that dispute "
        "stands (conditional)."
    )
    tier = "hard"
    rules = ("dispute-once",)
    challenges = frozenset({"search", "conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        filed = rng.random() < 0.5

        def candidates(user: User) -> list[Transaction]:
            account = checking(db, user)
            every = history(db, account)
            return [
                t
                for t in every
                if t.kind == CARD_PURCHASE
                and bool(t.dispute_id) is filed
                and not is_subscription(t)
                and nameable(every, t)
            ]

        user = pick_user(db, rng, lambda u: bool(candidates(u)))
        if user is None:
            return None
        txn = rng.choice(candidates(user))
        reason = rng.choice(_REASONS)
        who = self.identity(db, user.user_id, rng)
        side = side_question(db, user, rng)
        reads = gold_reads(
            who, transactions_read(checking(db, user)), *looked_up(rng, txn), *side.actions
        )
        if filed:
            dispute: Dispute = record(db, "disputes", txn.dispute_id)
            actions = [*reads, Action("get_dispute_details", {"dispute_id": dispute.dispute_id})]
            outputs = [dispute.status, dispute.filed]
        else:
            actions = [*reads, _dispute(txn, reason)]
            outputs = [dispute_id(txn.transaction_id)]
        return self.task(
            domain,
            who,
            goal=f"I want to dispute {describe(txn)} on my checking account: {_WHY[reason]}. I "
            "made the purchase myself. I may have disputed it already: if it is already "
            "disputed, I do not want a new dispute, I want to know the status of that dispute "
            f"and when it was filed. Otherwise I want the dispute number.{side.goal} {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I want to dispute a charge from {txn.description}, unless I already did.",
                "Hello, I think I disputed a charge before but I'm not sure. Can you check?",
                f"There's a {txn.description} charge I want to dispute.",
                "Hi, I need help with a card charge I may have reported already.",
            ),
            known={"transaction": describe(txn), "dispute_reason": reason, **side.known},
            actions=actions,
            outputs=[*outputs, *side.outputs],
            summary=f"{txn.transaction_id}: "
            + ("already disputed, tell its status" if filed else f"dispute ({reason})"),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and where none was filed, the dispute with another reason."""
        paths = super().mistakes(domain, task)
        last = task.actions[-1]
        if last.name == "file_dispute":
            other = next(r for r in _REASONS if r != last.arguments["reason"])
            paths.append(
                [*task.actions[:-1], Action(last.name, {**last.arguments, "reason": other})]
            )
        return paths


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


class RecurringNotFraud(BankingIntent):
    """An "unauthorised" charge that is the customer's own monthly subscription: refuse.

    No dispute and no fraud transfer; the agent says since when it is charged. Then the user
    asks a balance (a later need).
    """

    name = "recurring_charge_claimed_fraud"
    description = (
        "The user says a charge was never authorised; the statement shows the same subscription "
        "charged every month: refuse, say since when (disproven), then a balance (later)."
    )
    tier = "hard"
    forbidden = True
    rules = ("recurring-not-fraud",)
    challenges = frozenset({"disproven", "later"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        user = pick_user(db, rng, lambda u: bool(_subscribers(db, u)))
        if user is None:
            return None
        latest, first = rng.choice(_subscribers(db, user))
        who = self.identity(db, user.user_id, rng)
        need, account, balance = _balance_later(db, user, rng)
        said = f"{describe(latest)} of {money_text(-latest.amount)}"
        side = side_question(db, user, rng, ("account",))
        reads = gold_reads(who, transactions_read(checking(db, user)), *side.actions)
        return self.task(
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

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The customer's own subscription disputed as if it were not theirs."""
        db = domain.new_database()
        user: User = record(db, "users", task.actions[1].arguments["user_id"])
        said = task.scenario.known_info["transaction"]
        latest = next(t for t, _ in _subscribers(db, user) if describe(t) in said)
        return [_dispute(latest, "goods not received")]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the subscription disputed anyway."""
        return [*super().mistakes(domain, task), [*task.actions, *self.violations(domain, task)]]


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


class DuplicateNotOnFile(BankingIntent):
    """A "charged twice" claim the statement disproves: one charge only, nothing to dispute."""

    name = "duplicate_not_on_file"
    description = (
        "The user says a purchase was charged twice; the statement shows one charge: refuse "
        "the duplicate dispute and say so (disproven)."
    )
    tier = "hard"
    forbidden = True
    rules = ("duplicate-needs-two",)
    challenges = frozenset({"search", "disproven"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        user = pick_user(db, rng, lambda u: bool(_single(db, u)))
        if user is None:
            return None
        txn = rng.choice(_single(db, user))
        who = self.identity(db, user.user_id, rng)
        side = side_question(db, user, rng, ("account",))
        reads = gold_reads(
            who, transactions_read(checking(db, user)), *looked_up(rng, txn), *side.actions
        )
        need, later_at = "", None
        known = {"transaction": describe(txn), "dispute_reason": "duplicate charge", **side.known}
        outputs = [money_text(-txn.amount), *side.outputs]
        actions = list(reads)
        if rng.random() < 0.4:
            need, account, balance = _balance_later(db, user, rng)
            known["account"] = account_text(account)
            actions.append(Action("get_account_details", {"account_id": account.account_id}))
            outputs.append(balance)
            later_at = len(reads)
        return self.task(
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

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The single charge disputed as a duplicate."""
        return [_dispute(_said(domain, task, True)[0], "duplicate charge")]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the duplicate dispute filed anyway."""
        return [*super().mistakes(domain, task), [*task.actions, *self.violations(domain, task)]]
