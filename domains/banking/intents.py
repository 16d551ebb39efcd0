"""Banking task intents: templates that sample the base database and produce grounded tasks."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from tau_sim.domains.banking.access import replacement_id, replacement_last_four
from tau_sim.domains.banking.data import (
    ACTIVE,
    CARD_PURCHASE,
    CHECKING,
    EXPEDITED_FEE,
    FEE,
    FROZEN,
    SAVINGS,
    Account,
    Card,
    Dispute,
    Transaction,
    User,
    days_ago,
    dispute_id,
    transaction_id,
)
from tau_sim.domains.banking.rules import (
    DISPUTE_WINDOW_DAYS,
    FEE_REVERSAL_CAP,
    FEE_REVERSAL_PERIOD_DAYS,
)
from tau_sim.domains.banking.scenario import (
    CONFIRM,
    UNKNOWN_IDS,
    account_text,
    card_text,
    fee_text,
    gold_reads,
    transaction_text,
)
from tau_sim.domains.kit.identity import ACCOUNT_PIN
from tau_sim.domains.kit.lookup import pick, picker, record
from tau_sim.domains.kit.payments import balance_text, money, money_text
from tau_sim.domains.kit.people import address_args, address_text, random_address
from tau_sim.domains.kit.tasks import ELSEWHERE, CustomerIntent
from tau_sim.simulator.world import Action, Database, Domain, Intent, Task

_REASONS = ("duplicate charge", "goods not received", "wrong amount")
_REASON_TEXT = {
    "duplicate charge": "I was charged twice for it",
    "goods not received": "I paid but never received what I bought",
    "wrong amount": "I was charged more than the price I agreed to",
}


class BankingIntent(CustomerIntent):
    """A bank customer who proves their identity with account number and PIN."""

    factors = ((ACCOUNT_PIN, 1.0),)
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """An unrequested change of the mailing address; the last write left out."""
        extra = Action("update_mailing_address", {"user_id": self.profile_user(task), **ELSEWHERE})
        reads = [a for a in task.actions if a.name not in domain.toolkit.endings]
        return [[*reads, extra], *self.last_write_left_out(domain, task)]


# ---- sampling helpers -------------------------------------------------------------------------


pick_user = picker("users", User)


def accounts_of(db: Database, user: User) -> list[Account]:
    """The customer's accounts, checking first."""
    return [record(db, "accounts", a) for a in user.accounts]


def cards_of(db: Database, user: User) -> list[Card]:
    """The customer's cards."""
    return [record(db, "cards", c) for c in user.cards]


def history(db: Database, account: Account) -> list[Transaction]:
    """The account's transactions, newest first."""
    return [
        record(db, "transactions", transaction_id(account.account_id, n))
        for n in range(account.transaction_count, 0, -1)
    ]


def checking(db: Database, user: User) -> Account:
    """The customer's checking account."""
    return next(a for a in accounts_of(db, user) if a.kind == CHECKING)


def savings(db: Database, user: User) -> Account | None:
    """The customer's savings account, if any."""
    return next((a for a in accounts_of(db, user) if a.kind == SAVINGS), None)


def may_reverse(user: User) -> bool:
    """Whether the policy allows the customer a fee reversal today (none in the last 12 months)."""
    return not user.last_fee_reversal or days_ago(user.last_fee_reversal) > (
        FEE_REVERSAL_PERIOD_DAYS
    )


def open_fees(db: Database, user: User, accept: Callable[[Transaction], bool]) -> list[Transaction]:
    """The customer's unreversed checking fees that ``accept`` likes, newest first."""
    return [
        t for t in history(db, checking(db, user)) if t.kind == FEE and not t.reversed and accept(t)
    ]


def card_purchases(
    db: Database, user: User, accept: Callable[[Transaction], bool]
) -> list[Transaction]:
    """The customer's undisputed card purchases that ``accept`` likes, newest first."""
    return [
        t
        for t in history(db, checking(db, user))
        if t.kind == CARD_PURCHASE and not t.dispute_id and accept(t)
    ]


def in_window(txn: Transaction) -> bool:
    """Whether the policy's dispute window still covers ``txn``."""
    return days_ago(txn.date) <= DISPUTE_WINDOW_DAYS


def _nameable(txns: list[Transaction], txn: Transaction) -> bool:
    """Whether ``txn`` is the only one of ``txns`` with its merchant and date."""
    same = [t for t in txns if t.description == txn.description and t.date == txn.date]
    return len(same) == 1


def _card_holder(db: Database, rng: random.Random, status: str) -> tuple[User, Card] | None:
    """A customer with a card of ``status``, and one such card (drawn at random)."""
    user = pick_user(db, rng, lambda u: any(c.status == status for c in cards_of(db, u)))
    if user is None:
        return None
    return user, rng.choice([c for c in cards_of(db, user) if c.status == status])


def _holder(db: Database, account_id: str) -> User:
    """The customer who holds account ``account_id``."""
    account: Account = record(db, "accounts", account_id)
    user: User = record(db, "users", account.user_id)
    return user


def _transactions_read(account: Account) -> Action:
    return Action("get_account_transactions", {"account_id": account.account_id})


def _account_read(account: Account) -> Action:
    return Action("get_account_details", {"account_id": account.account_id})


def _card_read(card: Card) -> Action:
    return Action("get_card_details", {"card_id": card.card_id})


# ---- cards ------------------------------------------------------------------------------------


class _CardStatusChange(BankingIntent):
    """A card of ``status`` put through ``verb`` ("freeze" or "unfreeze"); it becomes ``after``."""

    status: ClassVar[str] = ""
    verb: ClassVar[str] = ""
    after: ClassVar[str] = ""

    def goal(self, card: Card) -> str:
        """What the user wants, naming the card."""
        raise NotImplementedError

    def opening(self, rng: random.Random) -> str:
        """The user's first message."""
        raise NotImplementedError

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _card_holder(db, rng, self.status)
        if picked is None:
            return None
        user, card = picked
        who = self.identity(db, user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"{self.goal(card)} {CONFIRM}",
            opening=self.opening(rng),
            known={"card": card_text(card)},
            actions=[
                *gold_reads(who, _card_read(card)),
                Action(f"{self.verb}_card", {"card_id": card.card_id}),
            ],
            outputs=[self.after],
            summary=f"{self.verb} card {card.card_id}",
        )


class FreezeCard(_CardStatusChange):
    """Freeze a misplaced card for now (no replacement)."""

    name = "freeze_card"
    description = "The user misplaced a debit card and freezes it for now, without a replacement."
    status, verb, after = ACTIVE, "freeze", "frozen"

    def goal(self, card: Card) -> str:
        """What the user wants, naming the card."""
        return (
            f"I can't find {card_text(card)}. I want it frozen for now so nobody can use it, "
            "but I do not want a replacement: it is probably somewhere at home. "
            "I want to know the card's status afterwards."
        )

    def opening(self, rng: random.Random) -> str:
        """The user's first message."""
        return rng.choice(
            [
                "Hi, I misplaced my debit card and want to block it for now.",
                "Hello, can you freeze my card? I can't find it.",
            ]
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, a replacement ordered as well, and another active card frozen."""
        *reads, freeze = task.actions
        card_id = freeze.arguments["card_id"]
        replace = Action(
            "replace_card", {"card_id": card_id, "reason": "lost", "shipping": "standard"}
        )
        paths = [*super().mistakes(domain, task), [*reads, freeze, replace]]
        db = domain.new_database()
        card: Card = record(db, "cards", card_id)
        user: User = record(db, "users", card.user_id)
        others = [c for c in cards_of(db, user) if c.card_id != card_id and c.status == ACTIVE]
        if others:
            paths.append([*reads, Action("freeze_card", {"card_id": others[0].card_id})])
        return paths


class UnfreezeCard(_CardStatusChange):
    """Unfreeze a card the customer found again."""

    name = "unfreeze_card"
    description = "The user found a frozen debit card and wants it to work again."
    status, verb, after = FROZEN, "unfreeze", "active"

    def goal(self, card: Card) -> str:
        """What the user wants, naming the card."""
        return (
            f"I froze {card_text(card)} when I thought I had lost it, but I found it. I want "
            "it unfrozen so I can use it again; I do not want a new card."
        )

    def opening(self, rng: random.Random) -> str:
        """The user's first message."""
        return "Hi, I found my debit card again. Can you unblock it?"

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a replacement ordered instead of unfreezing."""
        *reads, unfreeze = task.actions
        replace = Action(
            "replace_card",
            {"card_id": unfreeze.arguments["card_id"], "reason": "lost", "shipping": "standard"},
        )
        return [*super().mistakes(domain, task), [*reads, replace]]


class _Replacement(BankingIntent):
    """Order a replacement card; ``problems`` say why (lost and stolen cards are frozen first).

    With ``moved`` the customer has moved: the mailing address is updated before the order.
    """

    problems: ClassVar[tuple[str, ...]] = ()
    moved: ClassVar[bool] = False

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _card_holder(db, rng, ACTIVE)
        if picked is None:
            return None
        user, card = picked
        account: Account = record(db, "accounts", card.account_id)
        if account.available < EXPEDITED_FEE:  # either speed must be possible
            return None
        problem = rng.choice(self.problems)
        shipping = rng.choice(("standard", "expedited"))
        who = self.identity(db, user.user_id, rng)
        new_four = replacement_last_four(replacement_id(card))
        writes: list[Action] = []
        known = {"card": card_text(card), "card_problem": problem, "shipping": shipping}
        moved = ""
        if self.moved:
            address = random_address(rng)
            writes.append(
                Action(
                    "update_mailing_address",
                    {"user_id": user.user_id, **address_args(address)},
                )
            )
            known["new_address"] = address_text(address)
            moved = " I moved recently, so the new card must go to my new address."
        if problem != "damaged":
            writes.append(Action("freeze_card", {"card_id": card.card_id}))
        writes.append(
            Action(
                "replace_card",
                {"card_id": card.card_id, "reason": problem, "shipping": shipping},
            )
        )
        outputs = [new_four] + ([money_text(EXPEDITED_FEE)] if shipping == "expedited" else [])
        speed = (
            "I need it fast and will pay for expedited shipping"
            if shipping == "expedited"
            else "Standard free shipping is fine"
        )
        happened = {
            "lost": "I lost it",
            "stolen": "it was stolen from my bag, but I checked and there are no charges I "
            "don't recognise",
            "damaged": "it is cracked and the chip no longer works",
        }[problem]
        return self.task(
            domain,
            who,
            goal=f"I need a new card to replace {card_text(card)}: {happened}. {speed}. I want "
            "to know the last four digits of the new card"
            + (" and what the shipping costs" if shipping == "expedited" else "")
            + f".{moved} {CONFIRM}",
            opening=rng.choice(
                [
                    f"Hi, I need a replacement debit card, {happened.split(',')[0]}.",
                    "Hello, I need a new debit card please.",
                ]
            ),
            known=known,
            actions=[*gold_reads(who, _card_read(card)), *writes],
            outputs=outputs,
            summary=f"replace {problem} card {card.card_id} ({shipping})"
            + (", new mailing address" if self.moved else ""),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, the other shipping speed, and freezing done wrong."""
        writes = domain.write_actions(task)
        reads = [a for a in task.actions if a not in writes]
        replace = writes[-1]
        other = "standard" if replace.arguments["shipping"] == "expedited" else "expedited"
        slower = Action(replace.name, {**replace.arguments, "shipping": other})
        paths = [*super().mistakes(domain, task), [*reads, *writes[:-1], slower]]
        freeze = Action("freeze_card", {"card_id": replace.arguments["card_id"]})
        moving = [w for w in writes if w.name == "update_mailing_address"]
        if freeze in writes:
            paths.append([*reads, *moving, replace])  # a lost or stolen card left unfrozen
        else:
            paths.append([*reads, *moving, freeze, replace])  # a damaged card frozen for nothing
        if moving:
            paths.append([*reads, *[w for w in writes if w not in moving]])  # the old address
        return paths


class ReplaceLostCard(_Replacement):
    """A lost or stolen card: freeze it, then order a replacement (two writes)."""

    name = "replace_lost_card"
    description = "The user lost a card (or it was stolen, unused): freeze it and order a new one."
    problems = ("lost", "stolen")


class ReplaceDamagedCard(_Replacement):
    """A damaged card: order a replacement; the old card is not frozen (it still works)."""

    name = "replace_damaged_card"
    description = "The user's card is damaged: order a replacement without freezing the old card."
    problems = ("damaged",)


class ReplaceCardAfterMove(_Replacement):
    """A lost card of a customer who moved: address, freeze, replacement (three writes)."""

    name = "replace_card_after_move"
    description = (
        "The user moved and lost a card: update the mailing address, freeze the card and order "
        "a replacement to the new address (three writes)."
    )
    problems = ("lost",)
    moved = True


# ---- transfers --------------------------------------------------------------------------------


def _two_accounts(
    db: Database, rng: random.Random, accept: Callable[[Account, Account], bool]
) -> tuple[User, Account, Account] | None:
    """A customer with checking and savings, in a (source, target) order ``accept`` likes."""
    user = pick_user(db, rng, lambda u: len(u.accounts) == 2)
    if user is None:
        return None
    pair = accounts_of(db, user)
    if rng.random() < 0.5:
        pair.reverse()
    source, target = pair
    return (user, source, target) if accept(source, target) else None


def _amount(rng: random.Random, most: float) -> float:
    """A round amount the customer might move, at most ``most`` (0 when none fits)."""
    steps = int(most // 50)
    return float(50 * rng.randint(1, min(steps, 40))) if steps >= 1 else 0.0


class TransferFunds(BankingIntent):
    """Move money between the customer's checking and savings accounts."""

    name = "transfer_funds"
    description = "The user moves money between their checking and savings accounts."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _two_accounts(db, rng, lambda s, t: min(s.available, s.transfer_room) >= 50)
        if picked is None:
            return None
        user, source, target = picked
        amount = _amount(rng, min(source.available, source.transfer_room))
        who = self.identity(db, user.user_id, rng)
        args = {
            "from_account_id": source.account_id,
            "to_account_id": target.account_id,
            "amount": amount,
        }
        after = money(target.balance + amount)
        return self.task(
            domain,
            who,
            goal=f"I want to move {money_text(amount)} from {account_text(source)} to "
            f"{account_text(target)}, and I want to know the new balance of "
            f"{account_text(target)}. {CONFIRM}",
            opening=rng.choice(
                [
                    f"Hi, I'd like to transfer {money_text(amount)} between my accounts.",
                    "Hello, I need to move some money between my accounts.",
                ]
            ),
            known={
                "amount": money_text(amount),
                "from_account": account_text(source),
                "to_account": account_text(target),
            },
            actions=[
                *gold_reads(who, _account_read(source)),
                Action("transfer_between_accounts", args),
            ],
            outputs=[balance_text(after)],
            summary=f"transfer {money_text(amount)} {source.kind} -> {target.kind}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, another amount, and the opposite direction when it is allowed."""
        *reads, move = task.actions
        args = move.arguments
        db = domain.new_database()
        source: Account = record(db, "accounts", args["from_account_id"])
        target: Account = record(db, "accounts", args["to_account_id"])
        amount = args["amount"]
        room = min(source.available, source.transfer_room)
        other = amount + 10.0 if amount + 10.0 <= room else amount - 10.0
        paths = [
            *super().mistakes(domain, task),
            [*reads, Action(move.name, {**args, "amount": other})],
        ]
        if amount <= min(target.available, target.transfer_room):
            back = {
                **args,
                "from_account_id": target.account_id,
                "to_account_id": source.account_id,
            }
            paths.append([*reads, Action(move.name, back)])
        return paths


class TransferOverLimit(BankingIntent):
    """Ask to transfer more than the daily limit still allows: refuse and say the most possible."""

    name = "transfer_over_daily_limit"
    description = "The user asks for a transfer above the remaining daily limit: refuse, no write."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _two_accounts(
            db,
            rng,
            lambda s, t: s.transferred_today > 0 and s.available > s.transfer_room + 100,
        )
        if picked is None:
            return None
        user, source, target = picked
        most = min(source.available, source.transfer_room + 1000)
        amount = float(50 * int(most // 50))
        if amount <= source.transfer_room:
            return None
        who = self.identity(db, user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to move {money_text(amount)} from {account_text(source)} to "
            f"{account_text(target)} today, all at once. If the agent says that is over my daily "
            "limit, I want to know the most I can still transfer today, but I do not want a "
            "smaller transfer now: I will call back.",
            opening=f"Hi, I need to transfer {money_text(amount)} from {account_text(source)} "
            "today.",
            known={
                "amount": money_text(amount),
                "from_account": account_text(source),
                "to_account": account_text(target),
            },
            actions=gold_reads(who, _account_read(source)),
            outputs=[money_text(source.transfer_room)],
            summary=f"transfer {money_text(amount)} over the daily limit: refuse",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a smaller transfer (the remaining room) nobody asked for."""
        reads = task.actions
        account_id = reads[-1].arguments["account_id"]
        db = domain.new_database()
        source: Account = record(db, "accounts", account_id)
        user: User = record(db, "users", source.user_id)
        target = next(a for a in user.accounts if a != account_id)
        args = {
            "from_account_id": account_id,
            "to_account_id": target,
            "amount": source.transfer_room,
        }
        return [
            *super().mistakes(domain, task),
            [*reads, Action("transfer_between_accounts", args)],
        ]


# ---- disputes ---------------------------------------------------------------------------------


def _purchase(
    db: Database, rng: random.Random, accept: Callable[[Transaction], bool]
) -> tuple[User, Account, Transaction] | None:
    """A customer and one of their undisputed card purchases that ``accept`` likes."""
    user = pick_user(db, rng, lambda u: bool(card_purchases(db, u, accept)))
    if user is None:
        return None
    account = checking(db, user)
    purchases = card_purchases(db, user, lambda t: True)
    chosen = [t for t in card_purchases(db, user, accept) if _nameable(purchases, t)]
    if not chosen:
        return None
    return user, account, rng.choice(chosen)


class DisputeCharge(BankingIntent):
    """Dispute a recent card purchase (inside the window) for a reason the bank accepts."""

    name = "dispute_charge"
    description = (
        "The user disputes a card purchase of the last 60 days (duplicate, not received…)."
    )

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _purchase(db, rng, in_window)
        if picked is None:
            return None
        user, account, txn = picked
        reason = rng.choice(_REASONS)
        who = self.identity(db, user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to dispute {transaction_text(txn)} on {account_text(account)}: "
            f"{_REASON_TEXT[reason]}. I made the purchase myself. I want the dispute number. "
            f"{CONFIRM}",
            opening=rng.choice(
                [
                    f"Hi, I want to dispute a charge from {txn.description}.",
                    "Hello, there is a card charge I need to dispute.",
                ]
            ),
            known={"transaction": transaction_text(txn), "dispute_reason": reason},
            actions=[
                *gold_reads(who, _transactions_read(account)),
                Action("file_dispute", {"transaction_id": txn.transaction_id, "reason": reason}),
            ],
            outputs=[dispute_id(txn.transaction_id)],
            summary=f"dispute {txn.transaction_id} ({reason})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, another reason, and another (neighbouring) card purchase disputed."""
        *reads, dispute = task.actions
        args = dispute.arguments
        other = next(r for r in _REASONS if r != args["reason"])
        paths = [
            *super().mistakes(domain, task),
            [*reads, Action(dispute.name, {**args, "reason": other})],
        ]
        db = domain.new_database()
        txn: Transaction = record(db, "transactions", args["transaction_id"])
        user = _holder(db, txn.account_id)
        near = [
            t
            for t in card_purchases(db, user, lambda t: True)
            if t.transaction_id != txn.transaction_id
        ]
        if near:
            wrong = {**args, "transaction_id": near[0].transaction_id}
            paths.append([*reads, Action(dispute.name, wrong)])
        return paths


class DisputeOutsideWindow(BankingIntent):
    """Dispute a card purchase posted more than 60 days ago: refuse, say when it was posted."""

    name = "dispute_outside_window"
    description = "The user disputes a card purchase older than 60 days: refuse, no write."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _purchase(db, rng, lambda t: not in_window(t))
        if picked is None:
            return None
        user, account, txn = picked
        reason = rng.choice(_REASONS)
        who = self.identity(db, user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to dispute {transaction_text(txn)}: {_REASON_TEXT[reason]}. I made the "
            "purchase myself. I only just noticed it. If the agent says it is too late, I want "
            "to know why.",
            opening=f"Hi, I need to dispute an old charge from {txn.description}.",
            known={"transaction": transaction_text(txn), "dispute_reason": reason},
            actions=gold_reads(who, _transactions_read(account)),
            outputs=[txn.date, f"{DISPUTE_WINDOW_DAYS} days"],
            summary=f"dispute {txn.transaction_id} of {txn.date}: outside the window, refuse",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the dispute filed anyway."""
        db = domain.new_database()
        user = _holder(db, task.actions[-1].arguments["account_id"])
        old = [t for t in card_purchases(db, user, lambda t: not in_window(t))]
        said = task.scenario.known_info["transaction"]
        txn = next(t for t in old if transaction_text(t) == said)
        dispute = Action(
            "file_dispute",
            {
                "transaction_id": txn.transaction_id,
                "reason": task.scenario.known_info["dispute_reason"],
            },
        )
        return [*super().mistakes(domain, task), [*task.actions, dispute]]


class FraudToHuman(BankingIntent):
    """Charges the customer did not make: suspected fraud goes to a human, nothing is filed."""

    name = "fraud_transfer"
    description = "The user reports card charges they did not make: transfer to a human, no write."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _purchase(db, rng, lambda t: days_ago(t.date) <= 10)
        if picked is None:
            return None
        user, account, txn = picked
        who = self.identity(db, user.user_id, rng)
        summary = (
            f"Suspected fraud: customer {user.user_id} did not make card purchase "
            f"{txn.transaction_id} ({money_text(-txn.amount)} at {txn.description})."
        )
        return self.task(
            domain,
            who,
            goal=f"There is {transaction_text(txn)} on {account_text(account)} that I did not "
            "make: someone must have copied my card. I want it sorted out and I want to talk "
            "to whoever handles fraud.",
            opening=rng.choice(
                [
                    "Hi, there's a charge on my account I never made. I think it's fraud.",
                    f"Someone used my card at {txn.description}! I didn't make that purchase.",
                ]
            ),
            known={"transaction": transaction_text(txn)},
            actions=[
                *gold_reads(who, _transactions_read(account)),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"fraud on {txn.transaction_id}: transfer",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the fraud handled as an ordinary dispute."""
        *reads, transfer = task.actions
        account_id = reads[-1].arguments["account_id"]
        db = domain.new_database()
        user = _holder(db, account_id)
        said = task.scenario.known_info["transaction"]
        txn = next(
            t for t in card_purchases(db, user, lambda t: True) if transaction_text(t) == said
        )
        dispute = Action(
            "file_dispute", {"transaction_id": txn.transaction_id, "reason": "wrong amount"}
        )
        return [*super().mistakes(domain, task), [*reads, dispute, transfer]]


class DisputeStatus(BankingIntent):
    """Ask where an earlier dispute stands (read only)."""

    name = "dispute_status"
    description = "The user asks the status of a dispute filed earlier (information only)."

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
        if not _nameable(purchases, txn):
            return None
        who = self.identity(db, user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"Some time ago I disputed {transaction_text(txn)}. I want to know where the "
            "dispute stands and when it was filed. I do not want to change anything.",
            opening=rng.choice(
                [
                    f"Hi, what happened with my dispute about {txn.description}?",
                    "Hello, I'd like an update on a dispute I filed.",
                ]
            ),
            known={"transaction": transaction_text(txn)},
            actions=gold_reads(
                who,
                _transactions_read(account),
                Action("get_dispute_details", {"dispute_id": dispute.dispute_id}),
            ),
            outputs=[dispute.status, dispute.filed],
            summary=f"status of dispute {dispute.dispute_id} ({dispute.status})",
        )


# ---- fees -------------------------------------------------------------------------------------


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
    chosen = [f for f in open_fees(db, user, accept) if _nameable(fees, f)]
    if not chosen:
        return None
    return user, checking(db, user), rng.choice(chosen)


def _within_cap(txn: Transaction) -> bool:
    return -txn.amount <= FEE_REVERSAL_CAP


class ReverseFee(BankingIntent):
    """Reverse a fee for a customer who had no reversal in the last 12 months."""

    name = "reverse_fee"
    description = "The user asks to have a fee reversed (first in 12 months, within the cap)."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _fee(db, rng, True, _within_cap)
        if picked is None:
            return None
        user, account, fee = picked
        who = self.identity(db, user.user_id, rng)
        after = money(account.balance - fee.amount)
        return self.task(
            domain,
            who,
            goal=f"I was charged {fee_text(fee)} on {account_text(account)} and I think it is "
            "unfair; I want it refunded. I want to know my balance afterwards. "
            f"{CONFIRM}",
            opening=rng.choice(
                [
                    f"Hi, can you refund a fee I was charged on {fee.date}?",
                    "Hello, I got hit with a fee and I'd like it reversed.",
                ]
            ),
            known={"fee": fee_text(fee)},
            actions=[
                *gold_reads(who, _transactions_read(account)),
                Action("reverse_fee", {"transaction_id": fee.transaction_id}),
            ],
            outputs=[money_text(-fee.amount), balance_text(after)],
            summary=f"reverse fee {fee.transaction_id} ({money_text(-fee.amount)})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and another of the customer's fees reversed."""
        *reads, reverse = task.actions
        db = domain.new_database()
        fee: Transaction = record(db, "transactions", reverse.arguments["transaction_id"])
        user = _holder(db, fee.account_id)
        others = [
            t for t in open_fees(db, user, lambda t: True) if t.transaction_id != fee.transaction_id
        ]
        paths = super().mistakes(domain, task)
        if others:
            paths.append(
                [*reads, Action(reverse.name, {"transaction_id": others[0].transaction_id})]
            )
        return paths


class _ForbiddenReversal(BankingIntent):
    """A fee reversal the policy refuses; the mistake is reversing it anyway."""

    forbidden = True

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the fee reversed anyway."""
        account_id = task.actions[-1].arguments["account_id"]
        db = domain.new_database()
        user = _holder(db, account_id)
        said = task.scenario.known_info["fee"]
        fee = next(t for t in open_fees(db, user, lambda t: True) if fee_text(t) == said)
        reverse = Action("reverse_fee", {"transaction_id": fee.transaction_id})
        return [*super().mistakes(domain, task), [*task.actions, reverse]]


class SecondFeeReversal(_ForbiddenReversal):
    """A fee reversal within 12 months of the last one: refuse, say when the last one was."""

    name = "second_fee_reversal"
    description = "The user wants a fee reversed but had one in the last 12 months: refuse."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _fee(db, rng, False, _within_cap)
        if picked is None:
            return None
        user, account, fee = picked
        who = self.identity(db, user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want {fee_text(fee)} on {account_text(account)} refunded. If the agent "
            "refuses, I want to know why and when my last fee reversal was.",
            opening="Hi, I want a fee taken off my account.",
            known={"fee": fee_text(fee)},
            actions=gold_reads(who, _transactions_read(account)),
            outputs=[user.last_fee_reversal],
            summary=f"reverse fee {fee.transaction_id}: last reversal {user.last_fee_reversal}",
        )


class FeeOverCap(_ForbiddenReversal):
    """A fee above the reversal cap: refuse, say the cap."""

    name = "fee_over_cap"
    description = "The user wants a fee above the $40.00 reversal cap reversed: refuse."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        picked = _fee(db, rng, True, lambda t: not _within_cap(t))
        if picked is None:
            return None
        user, account, fee = picked
        who = self.identity(db, user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want {fee_text(fee)} on {account_text(account)} refunded: it is far too "
            "high. If the agent refuses, I want to know the most a fee reversal can be.",
            opening=f"Hi, I want a {money_text(-fee.amount)} fee refunded.",
            known={"fee": fee_text(fee)},
            actions=gold_reads(who, _transactions_read(account)),
            outputs=[money_text(FEE_REVERSAL_CAP)],
            summary=f"reverse fee {fee.transaction_id}: above the cap, refuse",
        )


class CoverOverdraft(BankingIntent):
    """Cover an overdrawn checking account from savings and reverse its overdraft fee."""

    name = "cover_overdraft"
    description = "The user moves savings into an overdrawn checking account and the overdraft fee "
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
        if amount > min(source.available, source.transfer_room):
            return None
        who = self.identity(db, user.user_id, rng)
        after = money(account.balance + amount - fee.amount)
        move = {
            "from_account_id": source.account_id,
            "to_account_id": account.account_id,
            "amount": amount,
        }
        return self.task(
            domain,
            who,
            goal=f"My checking account is overdrawn. I want to move {money_text(amount)} from my "
            f"savings account into it, and I want {fee_text(fee)} refunded. I want to know my "
            f"checking balance after both. {CONFIRM}",
            opening="Hi, my checking account went negative and I got an overdraft fee.",
            known={
                "amount": money_text(amount),
                "from_account": "my savings account",
                "to_account": "my checking account",
                "fee": fee_text(fee),
            },
            actions=[
                *gold_reads(who, _transactions_read(account)),
                Action("transfer_between_accounts", move),
                Action("reverse_fee", {"transaction_id": fee.transaction_id}),
            ],
            outputs=[balance_text(after)],
            summary=f"cover overdraft with {money_text(amount)} and reverse {fee.transaction_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the transfer of another amount."""
        *reads, move, reverse = task.actions
        args = move.arguments
        smaller = Action(move.name, {**args, "amount": args["amount"] - 50.0})
        return [*super().mistakes(domain, task), [*reads, smaller, reverse]]


# ---- information ------------------------------------------------------------------------------


class BalanceInquiry(BankingIntent):
    """Ask for an account's balance and how much can still be transferred out of it today."""

    name = "balance_inquiry"
    description = "The user asks for a balance and the remaining daily transfer room (read only)."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        user = pick_user(db, rng, lambda u: True)
        if user is None:
            return None
        account = rng.choice(accounts_of(db, user))
        who = self.identity(db, user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to know the current balance of {account_text(account)} and how much I "
            "can still transfer out of it today. I do not want to change anything.",
            opening=rng.choice(
                [
                    f"Hi, what's the balance on {account_text(account)}?",
                    "Hello, I have a question about one of my accounts.",
                ]
            ),
            known={"account": account_text(account)},
            actions=gold_reads(who, _account_read(account)),
            outputs=[balance_text(account.balance), money_text(account.transfer_room)],
            summary=f"balance of {account.account_id}",
        )


INTENTS: list[Intent] = [
    FreezeCard(),
    UnfreezeCard(),
    ReplaceLostCard(),
    ReplaceDamagedCard(),
    ReplaceCardAfterMove(),
    TransferFunds(),
    TransferOverLimit(),
    DisputeCharge(),
    DisputeOutsideWindow(),
    DisputeStatus(),
    FraudToHuman(),
    ReverseFee(),
    SecondFeeReversal(),
    FeeOverCap(),
    CoverOverdraft(),
    BalanceInquiry(),
]
