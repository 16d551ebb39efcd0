"""Side questions: small information needs a banking user adds to their main request.

"I also want to know when my card expires", "... the balance of my savings account", "... the
last interest payment on my savings account": each is one read on the gold path (before the
writes) and a figure the agent must say. Intents draw none, one or two per task with the rng,
so that the gold paths of one intent differ in length and tools, as real calls do.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import NamedTuple, TypedDict, Unpack

from tau_sim.domains.banking.data import DEPOSIT, INTEREST, Account, Card, Dispute, User
from tau_sim.domains.banking.factory.common import (
    account_read,
    accounts_of,
    checking,
    history,
    nameable,
    savings,
    transactions_read,
)
from tau_sim.domains.banking.scenario import account_text, card_text, transaction_text
from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import balance_text, money_text
from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.simulator.world import Action, Database


class Side(NamedTuple):
    """A side question: the goal's sentence, the gold reads, the outputs, the user's facts."""

    goal: str
    actions: list[Action]
    outputs: list[str]
    known: dict[str, str]


NONE = Side("", [], [], {})
"""No side question."""


def _balance(db: Database, user: User, rng: random.Random) -> Side:
    account = rng.choice(accounts_of(db, user))
    return Side(
        f" I also want to know the current balance of {account_text(account)}.",
        [account_read(account)],
        [balance_text(account.balance)],
        {"account": account_text(account)},
    )


def _expiry(db: Database, user: User, rng: random.Random) -> Side:
    card: Card = record(db, "cards", rng.choice(user.cards))
    return Side(
        f" I also want to know when {card_text(card)} expires.",
        [Action("get_card_details", {"card_id": card.card_id})],
        [card.expires],
        {"card": card_text(card)},
    )


def _interest(db: Database, user: User, rng: random.Random) -> Side:
    account = savings(db, user)
    paid = [t for t in history(db, account) if t.kind == INTEREST] if account else []
    if account is None or not paid:
        return NONE
    last = paid[0]
    return Side(
        " I also want to know the date and amount of the last interest payment on my savings "
        "account.",
        [transactions_read(account)],
        [last.date, money_text(last.amount)],
        {},
    )


def _deposit(db: Database, user: User, rng: random.Random) -> Side:
    account = checking(db, user)
    paid = [t for t in history(db, account) if t.kind == DEPOSIT]
    if not paid:
        return NONE
    last = paid[0]
    return Side(
        " I also want to know the date and amount of the last deposit into my checking account.",
        [transactions_read(account)],
        [last.date, money_text(last.amount)],
        {},
    )


def _dispute_status(db: Database, user: User, rng: random.Random) -> Side:
    account = checking(db, user)
    every = history(db, account)
    filed = [t for t in every if t.dispute_id and nameable(every, t)]
    if not filed:
        return NONE
    txn = rng.choice(filed)
    dispute: Dispute = record(db, "disputes", txn.dispute_id)
    return Side(
        f" I also want to know where my earlier dispute of {transaction_text(txn)} stands.",
        [
            transactions_read(account),
            Action("get_dispute_details", {"dispute_id": dispute.dispute_id}),
        ],
        [dispute.status],
        {"old_dispute": transaction_text(txn)},
    )


def side_question(
    db: Database,
    user: User,
    rng: random.Random,
    taken: Collection[str] = (),
    statement: bool = True,
    disputes: bool = False,
) -> Side:
    """None, one or two side questions for ``user``, avoiding slots the task already holds.

    ``taken``: the known-info slots of the main request; a question needing one is not drawn.
    ``statement``: whether the main request reads checking's transactions already (then the
    last deposit is not asked); ``disputes``: whether it reads a dispute (then no earlier
    dispute is asked about). Two questions are asked in the order drawn.
    """
    options = [_interest] + ([] if statement else [_deposit])
    if not disputes:
        options.append(_dispute_status)
    if not {"account", "from_account", "to_account"} & set(taken):
        options.append(_balance)
    if "card" not in taken and user.cards:
        options.append(_expiry)
    count = min(rng.choice((0, 1, 1, 2)), len(options))
    asked = [ask(db, user, rng) for ask in rng.sample(options, count)]
    return Side(
        "".join(q.goal for q in asked),
        [a for q in asked for a in q.actions],
        [o for q in asked for o in q.outputs],
        {k: v for q in asked for k, v in q.known.items()},
    )


def balance_later(db: Database, user: User, rng: random.Random) -> tuple[str, Account, str]:
    """A later need: the balance of one of the customer's accounts (need, account, output)."""
    account = rng.choice(accounts_of(db, user))
    need = one_of(
        rng,
        f"Oh, and while I have you, could you also tell me the balance of {account_text(account)}?",
        f"One more thing: what is the balance on {account_text(account)} right now?",
    )
    return need, account, balance_text(account.balance)


class SideOptions(TypedDict, total=False):
    """``side_question``'s options: ``taken``, ``statement``, ``disputes``."""

    taken: Collection[str]
    statement: bool
    disputes: bool


def caller(
    intent: CustomerIntent,
    db: Database,
    user: User,
    rng: random.Random,
    **options: Unpack[SideOptions],
) -> tuple[Identity, Side]:
    """``user``'s identity (``intent.identity``), then the side questions they bring.

    Both draw from ``rng``, in that order; ``options`` go to ``side_question``.
    """
    who = intent.identity(db, user.user_id, rng)
    return who, side_question(db, user, rng, **options)
