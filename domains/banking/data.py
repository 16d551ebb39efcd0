"""Banking records (frozen msgspec Structs) and the deterministic generator of the base database.

Every date is an ISO string relative to ``TODAY``, the fixed "today" of the world: tools and
intents never read the real clock.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import msgspec

from tau_sim.domains.banking.catalog import DEPOSITS, FEES, MERCHANTS, SUBSCRIPTIONS
from tau_sim.domains.kit.calc import add_months, days_from
from tau_sim.domains.kit.identity import ACCOUNT_PIN, identity_indexes
from tau_sim.domains.kit.payments import money
from tau_sim.domains.kit.people import Customer, Ids, customers
from tau_sim.simulator.world import Base

TODAY = dt.date(2025, 3, 14)
"""The fixed "today" of the banking world."""

EXPEDITED_FEE = 25.0
"""What expedited shipping of a replacement card costs (debited from the card's account)."""

CHECKING = "checking"
SAVINGS = "savings"

ACTIVE = "active"
FROZEN = "frozen"
CLOSED = "closed"
ORDERED = "ordered"
"""Card statuses: an ``ordered`` card is a replacement on its way to the customer."""

CARD_PURCHASE = "card_purchase"
DEPOSIT = "deposit"
TRANSFER_IN = "transfer_in"
TRANSFER_OUT = "transfer_out"
FEE = "fee"
FEE_REVERSAL = "fee_reversal"
INTEREST = "interest"


class User(Customer, frozen=True, omit_defaults=True):
    """A bank customer: their accounts, cards and the date of their last fee reversal."""

    accounts: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    last_fee_reversal: str = ""


class Account(msgspec.Struct, frozen=True, omit_defaults=True):
    """A checking or savings account.

    ``transaction_count`` numbers its transactions: they are ``{account_id}_{n:03d}`` for n from
    1 (the oldest) to ``transaction_count``. ``transferred_today`` is what already left the
    account by transfer today, counted against ``daily_transfer_limit``.
    """

    account_id: str
    user_id: str
    kind: str
    balance: float
    overdraft_limit: float
    daily_transfer_limit: float
    transferred_today: float
    transaction_count: int
    opened: str

    @property
    def available(self) -> float:
        """What can still be taken out: the balance plus the overdraft limit."""
        return money(self.balance + self.overdraft_limit)

    @property
    def transfer_room(self) -> float:
        """What can still be transferred out today under the daily limit."""
        return money(self.daily_transfer_limit - self.transferred_today)


class Card(msgspec.Struct, frozen=True, omit_defaults=True):
    """A debit card on an account; ``replaced_by`` names the replacement ordered for it."""

    card_id: str
    user_id: str
    account_id: str
    last_four: str
    status: str
    expires: str
    replaced_by: str = ""
    replacement_of: str = ""
    reason: str = ""
    shipping: str = ""


class Transaction(msgspec.Struct, frozen=True, omit_defaults=True):
    """One posting on an account: negative amounts leave it, positive ones come in.

    ``dispute_id`` names the dispute of a disputed card purchase; ``reversed`` marks a fee that
    was credited back.
    """

    transaction_id: str
    account_id: str
    date: str
    kind: str
    description: str
    amount: float
    card_id: str = ""
    dispute_id: str = ""
    reversed: bool = False


class Dispute(msgspec.Struct, frozen=True, omit_defaults=True):
    """A dispute of a card transaction, filed on ``filed``."""

    dispute_id: str
    transaction_id: str
    user_id: str
    amount: float
    reason: str
    status: str
    filed: str


def day(offset: int) -> str:
    """The ISO date ``offset`` days before ``TODAY``."""
    return (TODAY - dt.timedelta(days=offset)).isoformat()


def days_ago(date: str) -> int:
    """How many days before ``TODAY`` the ISO date ``date`` is."""
    return days_from(date, TODAY.isoformat())


def transaction_id(account_id: str, n: int) -> str:
    """The id of the ``n``-th transaction of an account."""
    return f"{account_id}_{n:03d}"


def dispute_id(transaction: str) -> str:
    """The id of the dispute of transaction ``transaction`` (a transaction is disputed once)."""
    return f"dsp_{transaction}"


Tables = dict[str, dict[str, Any]]


class _Builder:
    """Accumulates the tables while the generator draws from one ``random.Random``."""

    def __init__(self, rng: random.Random, extra: random.Random) -> None:
        self.rng = rng
        self.extra = extra
        self.ids = Ids(rng)
        self.accounts: dict[str, Account] = {}
        self.cards: dict[str, Card] = {}
        self.transactions: dict[str, Transaction] = {}
        self.disputes: dict[str, Dispute] = {}

    def account(self, user: User, kind: str) -> Account:
        rng = self.rng
        prefix = "chk" if kind == CHECKING else "sav"
        account_id = f"{prefix}_{self.ids.digits(8)}"
        if kind == CHECKING:
            balance = money(rng.choice((rng.uniform(-180, 0), rng.uniform(20, 6000))))
            overdraft = float(rng.choice((0, 100, 250, 500)))
            if balance < -overdraft:
                balance = -rng.uniform(0, overdraft) if overdraft else -balance
            limit = float(rng.choice((1000, 2500, 5000)))
        else:
            balance, overdraft = money(rng.uniform(150, 25000)), 0.0
            limit = float(rng.choice((2500, 5000, 10000)))
        used = money(rng.choice((0.0, 0.0, 0.0, rng.uniform(0.2, 0.95) * limit)))
        account = Account(
            account_id,
            user.user_id,
            kind,
            money(balance),
            overdraft,
            limit,
            used,
            0,
            day(rng.randint(400, 4000)),
        )
        self.accounts[account_id] = account
        return account

    def card(self, user: User, account: Account) -> Card:
        rng = self.rng
        status = rng.choices((ACTIVE, FROZEN), (85, 15))[0]
        expires = f"{TODAY.year + rng.randint(1, 4)}-{rng.randint(1, 12):02d}"
        card = Card(
            f"card_{self.ids.digits(7)}",
            user.user_id,
            account.account_id,
            self.ids.digits(4),
            status,
            expires,
        )
        self.cards[card.card_id] = card
        return card

    def history(self, account: Account, cards: list[Card], overdrawn: bool) -> Account:
        """Post the account's last 120 days of transactions, oldest first."""
        rng = self.rng
        entries: list[tuple[int, str, str, float, str]] = []
        if account.kind == CHECKING:
            for _ in range(rng.randint(12, 26)):
                name, low, high = rng.choice(MERCHANTS)
                card = rng.choice(cards).card_id if cards else ""
                kind = CARD_PURCHASE if card else TRANSFER_OUT
                entries.append(
                    (rng.randint(0, 120), kind, name, -money(rng.uniform(low, high)), card)
                )
            for _ in range(rng.randint(2, 5)):
                name, low, high = rng.choice(DEPOSITS)
                entries.append(
                    (rng.randint(0, 120), DEPOSIT, name, money(rng.uniform(low, high)), "")
                )
            fees = [f for f in FEES if rng.random() < 0.18]
            if overdrawn:
                fees.append(FEES[0])
            for name, amount in fees:
                entries.append((rng.randint(1, 100), FEE, name, -amount, ""))
            entries.extend(self.subscriptions(cards))
        else:
            for _ in range(rng.randint(3, 8)):
                if rng.random() < 0.5:
                    entries.append(
                        (
                            rng.randint(0, 120),
                            TRANSFER_IN,
                            "Transfer from checking",
                            money(rng.uniform(50, 1500)),
                            "",
                        )
                    )
                else:
                    entries.append(
                        (
                            rng.randint(0, 120),
                            INTEREST,
                            "Interest payment",
                            money(rng.uniform(0.5, 40)),
                            "",
                        )
                    )
        entries.sort(key=lambda e: (-e[0], e[1], e[2], e[3]))
        for n, (offset, kind, description, amount, card) in enumerate(entries, start=1):
            tid = transaction_id(account.account_id, n)
            self.transactions[tid] = Transaction(
                tid, account.account_id, day(offset), kind, description, amount, card
            )
        return msgspec.structs.replace(account, transaction_count=len(entries))

    def subscriptions(self, cards: list[Card]) -> list[tuple[int, str, str, float, str]]:
        """Monthly subscription charges (same amount, same day of the month) on a card.

        Drawn from ``extra``, a stream of its own, so that the rest of the base is what it was
        before subscriptions were posted.
        """
        extra = self.extra
        if not cards or extra.random() >= 0.45:
            return []
        out = []
        for name, amount in extra.sample(SUBSCRIPTIONS, extra.choice((1, 1, 2))):
            card = extra.choice(cards).card_id
            first = add_months(TODAY.replace(day=extra.randint(1, 28)), -extra.randint(3, 4))
            for n in range(6):
                posted = add_months(first, n)
                if posted > TODAY:
                    break
                out.append((days_ago(posted.isoformat()), CARD_PURCHASE, name, -amount, card))
        return out

    def settle(self, user: User) -> None:
        """Mark some of the user's card purchases disputed (with their dispute records)."""
        rng = self.rng
        for account_id in user.accounts:
            account = self.accounts[account_id]
            for n in range(1, account.transaction_count + 1):
                tid = transaction_id(account_id, n)
                txn = self.transactions[tid]
                if txn.kind == CARD_PURCHASE and rng.random() < 0.04:
                    dispute = Dispute(
                        dispute_id(tid),
                        tid,
                        user.user_id,
                        -txn.amount,
                        rng.choice(("duplicate charge", "goods not received", "wrong amount")),
                        rng.choice(("open", "refunded", "declined")),
                        day(max(0, days_ago(txn.date) - rng.randint(1, 10))),
                    )
                    self.disputes[dispute.dispute_id] = dispute
                    self.transactions[tid] = msgspec.structs.replace(
                        txn, dispute_id=dispute.dispute_id
                    )


def generate(seed: int, users: int = 300) -> Tables:
    """Generate the tables (users, accounts, cards, transactions, disputes) from ``seed``."""
    rng = random.Random(seed)
    build = _Builder(rng, random.Random(seed + 1))
    people = customers(rng, build.ids, users, User, accounts=True)
    for uid, user in list(people.items()):
        kinds = [CHECKING] + ([SAVINGS] if rng.random() < 0.7 else [])
        accounts = [build.account(user, kind) for kind in kinds]
        checking = accounts[0]
        cards = [build.card(user, checking) for _ in range(1 if rng.random() < 0.75 else 2)]
        overdrawn = checking.balance < 0
        for account in accounts:
            build.accounts[account.account_id] = build.history(
                account, cards if account.kind == CHECKING else [], overdrawn
            )
        reversal = rng.choices(("", "recent", "old"), (55, 30, 15))[0]
        last = {"": "", "recent": day(rng.randint(20, 330)), "old": day(rng.randint(400, 900))}
        user = msgspec.structs.replace(
            user,
            accounts=tuple(a.account_id for a in accounts),
            cards=tuple(c.card_id for c in cards),
            last_fee_reversal=last[reversal],
        )
        people[uid] = user
        build.settle(user)
    return {
        "users": dict(people),
        "accounts": dict(build.accounts),
        "cards": dict(build.cards),
        "transactions": dict(build.transactions),
        "disputes": dict(build.disputes),
    }


INDEXES = identity_indexes([ACCOUNT_PIN])
"""Users by account number + PIN."""


def build_base(seed: int) -> Base:
    """The banking base: the tables generated from ``seed`` and their indexes."""
    return Base(generate(seed), INDEXES)
