"""How banking tasks talk: cards, accounts and transactions as a customer names them, slot hints."""

from __future__ import annotations

from tau_sim.domains.banking.data import CHECKING, Account, Card, Transaction
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.kit.tasks import HINTS as KIT_HINTS
from tau_sim.domains.kit.tasks import address_hint
from tau_sim.simulator.world import Action, SlotHint

UNKNOWN_IDS = ["account ids", "card ids", "transaction ids"]


def card_text(card: Card) -> str:
    """A card as a customer names it, e.g. "my debit card ending in 1234"."""
    return f"my debit card ending in {card.last_four}"


def account_text(account: Account) -> str:
    """An account as a customer names it, e.g. "my checking account"."""
    return "my checking account" if account.kind == CHECKING else "my savings account"


def transaction_text(txn: Transaction) -> str:
    """A transaction as a customer names it, e.g. "the $54.20 charge at Target on 2025-03-02"."""
    return f"the {money_text(-txn.amount)} charge at {txn.description} on {txn.date}"


def fee_text(txn: Transaction) -> str:
    """A fee as a customer names it, e.g. "the $35.00 overdraft fee of 2025-02-11"."""
    what = txn.description[:1].lower() + txn.description[1:]
    return f"the {money_text(-txn.amount)} {what} of {txn.date}"


_ACCOUNT = ("which account", "what account", "from which")

HINTS: dict[str, SlotHint] = {
    **KIT_HINTS,
    "card": SlotHint(
        ("which card", "what card", "card ending", "last four", "last 4"),
        "which card it is (its last four digits)",
        True,
    ),
    "from_account": SlotHint(
        (*_ACCOUNT, "source account"),
        "the account to transfer from",
        True,
    ),
    "to_account": SlotHint(
        ("destination account", "receiving account", "into which", "to which"),
        "the account to transfer to",
        True,
    ),
    "account": SlotHint(_ACCOUNT, "which account you mean", True),
    "amount": SlotHint(("how much", "what amount", "which amount"), "the amount"),
    "transaction": SlotHint(
        ("which transaction", "which charge", "what charge", "which purchase", "merchant"),
        "the charge you mean",
        True,
        policy_asks="Ask the customer which purchases they dispute",
    ),
    "old_dispute": SlotHint(
        ("earlier dispute", "dispute you filed", "previous dispute"),
        "the charge of the earlier dispute you filed",
        True,
    ),
    "threshold": SlotHint(
        ("below which", "threshold", "balance you have in mind"),
        "the balance you have in mind (the threshold)",
    ),
    "other_amount": SlotHint(
        ("otherwise", "other amount", "instead"),
        "the other amount you mentioned (what to move otherwise, or instead)",
    ),
    "fee": SlotHint(("which fee", "what fee", "the fee you"), "the fee you mean", True),
    "dispute_reason": SlotHint(
        ("reason", "why", "what went wrong", "what is wrong"), "what is wrong with the charge"
    ),
    "card_problem": SlotHint(("what happened", "happened to"), "what happened to the card"),
    "new_address": address_hint("mailing", "your new mailing address"),
    "shipping": SlotHint(
        ("shipping speed", "which shipping", "delivery speed", "how fast"),
        "the shipping speed you want",
    ),
}
"""The kit's standard slots plus the cards, accounts, transactions and fees of banking."""


def gold_reads(identity: Identity, *reads: Action) -> list[Action]:
    """Authentication and the customer's profile, then ``reads``."""
    return [*identity.actions, *reads]
