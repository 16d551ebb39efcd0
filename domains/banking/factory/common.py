"""The banking intents' base class and the account, card and transaction helpers they share."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

from tau_sim.domains.banking.catalog import SUBSCRIPTIONS
from tau_sim.domains.banking.data import (
    CARD_PURCHASE,
    CHECKING,
    FEE,
    SAVINGS,
    Account,
    Transaction,
    User,
    days_ago,
    transaction_id,
)
from tau_sim.domains.banking.rules import DISPUTE_WINDOW_DAYS, FEE_REVERSAL_PERIOD_DAYS
from tau_sim.domains.banking.scenario import UNKNOWN_IDS
from tau_sim.domains.kit.identity import ACCOUNT_PIN
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.tasks import ELSEWHERE, CustomerIntent
from tau_sim.simulator.world import Action, Database, Domain, Task

_SUBSCRIPTIONS = frozenset(name for name, _ in SUBSCRIPTIONS)

REASONS = ("duplicate charge", "goods not received", "wrong amount")
"""The reasons a dispute can give (the ``file_dispute`` tool's vocabulary)."""

CLAIMS = ("goods not received", "wrong amount")
"""The reasons a user gives for a charge posted once (a duplicate needs two postings: policy)."""


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


def history(db: Database, account: Account) -> list[Transaction]:
    """The account's transactions, newest first."""
    return [
        record(db, "transactions", transaction_id(account.account_id, n))
        for n in range(account.transaction_count, 0, -1)
    ]


def checking(db: Database, user: User) -> Account:
    """The customer's checking account."""
    return next(a for a in accounts_of(db, user) if a.kind == CHECKING)


def nameable(txns: list[Transaction], txn: Transaction) -> bool:
    """Whether ``txn`` is the only one of ``txns`` with its merchant and date."""
    same = [t for t in txns if t.description == txn.description and t.date == txn.date]
    return len(same) == 1


def holder(db: Database, account_id: str) -> User:
    """The customer who holds account ``account_id``."""
    account: Account = record(db, "accounts", account_id)
    user: User = record(db, "users", account.user_id)
    return user


def transactions_read(account: Account) -> Action:
    """The read of ``account``'s transactions."""
    return Action("get_account_transactions", {"account_id": account.account_id})


def savings(db: Database, user: User) -> Account | None:
    """The customer's savings account, if any."""
    return next((a for a in accounts_of(db, user) if a.kind == SAVINGS), None)


def is_subscription(txn: Transaction) -> bool:
    """Whether ``txn`` is a monthly subscription charge (the customer set it up)."""
    return txn.description in _SUBSCRIPTIONS


def in_window(txn: Transaction) -> bool:
    """Whether the policy's dispute window still covers ``txn``."""
    return days_ago(txn.date) <= DISPUTE_WINDOW_DAYS


def card_purchases(
    db: Database, user: User, accept: Callable[[Transaction], bool]
) -> list[Transaction]:
    """The customer's undisputed one-off card purchases that ``accept`` likes, newest first.

    Subscription charges are left out: the customer set them up (see ``is_subscription``).
    """
    return [
        t
        for t in history(db, checking(db, user))
        if t.kind == CARD_PURCHASE and not t.dispute_id and not is_subscription(t) and accept(t)
    ]


def describe(txn: Transaction) -> str:
    """A charge as a customer remembers it, no amount: "the Target charge on Friday 2025-03-07"."""
    weekday = dt.date.fromisoformat(txn.date).strftime("%A")
    return f"the {txn.description} charge on {weekday} {txn.date}"


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


def account_read(account: Account) -> Action:
    """The read of ``account``'s details (balance, available, transfer room)."""
    return Action("get_account_details", {"account_id": account.account_id})


def looked_up(rng: random.Random, *txns: Transaction) -> list[Action]:
    """Some of the time, the reads of the details of ``txns`` (the records the user means)."""
    if rng.random() >= 0.4:
        return []
    return [Action("get_transaction_details", {"transaction_id": t.transaction_id}) for t in txns]


def describable(db: Database, user: User, accept: bool | None = None) -> list[Transaction]:
    """The customer's undisputed one-off purchases a merchant and a day name alone.

    ``accept`` True keeps those inside the dispute window, False those outside it.
    """
    every = history(db, checking(db, user))
    return [
        t
        for t in card_purchases(db, user, lambda t: accept is None or in_window(t) is accept)
        if nameable(every, t)
    ]


def dispute_action(txn: Transaction, reason: str) -> Action:
    """The dispute of ``txn`` for ``reason``."""
    return Action("file_dispute", {"transaction_id": txn.transaction_id, "reason": reason})


def transfer_action(source: Account, target: Account, amount: float) -> Action:
    """The transfer of ``amount`` from ``source`` to ``target``."""
    args = {
        "from_account_id": source.account_id,
        "to_account_id": target.account_id,
        "amount": amount,
    }
    return Action("transfer_between_accounts", args)


def room_now(account: Account) -> float:
    """What may leave ``account`` by transfer now: what is available and the daily limit allow."""
    return min(account.available, account.transfer_room)


def round_amount(rng: random.Random, most: float, steps_at_most: int = 30) -> float:
    """A round amount (a multiple of $50) of at most ``most``; 0 when none fits."""
    steps = int(most // 50)
    return float(50 * rng.randint(1, min(steps, steps_at_most))) if steps >= 1 else 0.0


def owner_of(db: Database, task: Task) -> User:
    """The customer of ``task`` (the user id its profile read names)."""
    user: User = record(db, "users", task.actions[1].arguments["user_id"])
    return user
