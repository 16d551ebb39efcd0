"""Lookups, views and the hard-rule checks of the banking tools (they raise ``ToolError``)."""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

from tau_sim.domains.banking.data import TODAY, Account, Card, Transaction, User, transaction_id
from tau_sim.domains.kit.lookup import loader
from tau_sim.domains.kit.payments import money, money_text
from tau_sim.simulator.world import Database, ToolError

load_user = loader("users", "user", User)
load_account = loader("accounts", "account", Account)
load_card = loader("cards", "card", Card)
load_transaction = loader("transactions", "transaction", Transaction)


def transactions(db: Database, account: Account) -> list[Transaction]:
    """The account's transactions, newest first."""
    out = []
    for n in range(account.transaction_count, 0, -1):
        txn = db.get("transactions", transaction_id(account.account_id, n))
        if txn is not None:
            out.append(txn)
    return out


def post(db: Database, account: Account, kind: str, description: str, amount: float) -> Account:
    """Post a transaction dated today on ``account`` and move its balance; the updated account."""
    n = account.transaction_count + 1
    tid = transaction_id(account.account_id, n)
    txn = Transaction(tid, account.account_id, TODAY.isoformat(), kind, description, money(amount))
    db.put("transactions", tid, txn)
    updated = msgspec.structs.replace(
        account, balance=money(account.balance + amount), transaction_count=n
    )
    db.put("accounts", account.account_id, updated)
    return updated


def check_available(account: Account, amount: float) -> None:
    """Refuse taking ``amount`` out of ``account`` beyond its balance plus overdraft limit."""
    if amount > account.available:
        raise ToolError(
            f"account {account.account_id} has {money_text(account.available)} available "
            f"(balance {money_text(account.balance)} plus overdraft limit "
            f"{money_text(account.overdraft_limit)}): {money_text(amount)} would overdraw it"
        )


def check_transfer_limit(account: Account, amount: float) -> None:
    """Refuse a transfer out of ``account`` above what its daily limit still allows today."""
    if amount > account.transfer_room:
        raise ToolError(
            f"the daily transfer limit of account {account.account_id} is "
            f"{money_text(account.daily_transfer_limit)}; {money_text(account.transferred_today)} "
            f"was already transferred today, so at most {money_text(account.transfer_room)} "
            "can be transferred"
        )


def replacement_id(card: Card) -> str:
    """The id of the replacement card ordered for ``card`` (a card is replaced once)."""
    return f"{card.card_id}r"


def replacement_last_four(card_id: str) -> str:
    """The last four digits of a new card, derived from its id (deterministic, no clock)."""
    digest = hashlib.sha256(card_id.encode()).digest()
    return f"{int.from_bytes(digest[:4], 'big') % 10000:04d}"


def account_view(account: Account) -> dict[str, Any]:
    """An account as the agent sees it, with what is available and what can still be moved."""
    view: dict[str, Any] = msgspec.to_builtins(account)
    view.pop("transaction_count", None)
    view["available"] = account.available
    view["transfer_room_today"] = account.transfer_room
    return view


def user_view(user: User) -> dict[str, Any]:
    """A user's profile as the agent sees it: no PIN, no payment methods of other banks."""
    view: dict[str, Any] = msgspec.to_builtins(user)
    view.pop("pin", None)
    view.pop("payment_methods", None)
    return view
