"""The banking tools the agent calls; each enforces what the bank's ledger enforces.

The tools refuse what the ledger cannot do (an overdraft beyond the account's limit, a transfer
above the daily limit, a dispute of a transaction that is not a card purchase or is already
disputed, a fee reversed twice). The policy's own rules (dispute window, fee-reversal cap,
fraud to a human, confirmation, identity first) are the agent's to follow.
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

from typing import Any, Literal

import msgspec

from tau_sim.domains.banking.access import (
    account_view,
    check_available,
    check_transfer_limit,
    load_account,
    load_card,
    load_transaction,
    load_user,
    post,
    replacement_id,
    replacement_last_four,
    transactions,
    user_view,
)
from tau_sim.domains.banking.data import (
    ACTIVE,
    CARD_PURCHASE,
    EXPEDITED_FEE,
    FEE,
    FEE_REVERSAL,
    FROZEN,
    ORDERED,
    TODAY,
    TRANSFER_IN,
    TRANSFER_OUT,
    Card,
    Dispute,
    Transaction,
    dispute_id,
)
from tau_sim.domains.kit import identity
from tau_sim.domains.kit import tools as kit_tools
from tau_sim.domains.kit.lookup import load
from tau_sim.domains.kit.payments import money
from tau_sim.simulator.world import Database, ToolError, ToolKind, tool

# ---- read tools -------------------------------------------------------------------------------

find_user_id_by_account = identity.find_user_id_by_account


get_user_details = kit_tools.profile_tool(
    "get_user_details",
    "Get a customer's profile: name, address, email, account ids, card ids, last fee reversal. "
    "``last_fee_reversal`` is the date of the customer's last fee reversal (empty when never).",
    lambda db, user_id: user_view(load_user(db, user_id)),
)


@tool(ToolKind.READ)
def get_account_details(db: Database, account_id: str) -> dict[str, Any]:
    """Get an account: kind, balance, overdraft limit, what is available and the transfer limit.

    ``available`` is the balance plus the overdraft limit; ``transfer_room_today`` is what the
    daily transfer limit still allows to leave the account by transfer today.

    Args:
        account_id: The account id, e.g. "chk_12345678" or "sav_12345678".
    """
    return account_view(load_account(db, account_id))


@tool(ToolKind.READ)
def get_account_transactions(db: Database, account_id: str) -> list[Transaction]:
    """List an account's transactions of the last 120 days and today's, newest first.

    Amounts are negative when money left the account. A disputed card purchase names its
    ``dispute_id``; a fee credited back is marked ``reversed``.

    Args:
        account_id: The account id, e.g. "chk_12345678".
    """
    return transactions(db, load_account(db, account_id))


@tool(ToolKind.READ)
def get_transaction_details(db: Database, transaction_id: str) -> Transaction:
    """Get one transaction: date, kind, description, amount, card, dispute id, reversed flag.

    Args:
        transaction_id: The transaction id, e.g. "chk_12345678_007".
    """
    return load_transaction(db, transaction_id)


@tool(ToolKind.READ)
def get_card_details(db: Database, card_id: str) -> Card:
    """Get a debit card: its account, last four digits, status, expiry and any replacement.

    Statuses: "active", "frozen" (temporarily blocked), "ordered" (a replacement on its way).

    Args:
        card_id: The card id, e.g. "card_1234567".
    """
    return load_card(db, card_id)


@tool(ToolKind.READ)
def get_dispute_details(db: Database, dispute_id: str) -> Dispute:
    """Get a dispute: the transaction, amount, reason, status and the date it was filed.

    Args:
        dispute_id: The dispute id, e.g. "dsp_chk_12345678_007".
    """
    dispute: Dispute = load(db, "disputes", dispute_id.strip(), "dispute")
    return dispute


calculate = kit_tools.calculate
transfer_to_human_agents = kit_tools.transfer_to_human_agents

# ---- write tools ------------------------------------------------------------------------------


@tool(ToolKind.WRITE)
def freeze_card(db: Database, card_id: str) -> Card:
    """Freeze an active card: every new card payment and withdrawal is declined until unfrozen.

    Args:
        card_id: The card id, e.g. "card_1234567".
    """
    card = load_card(db, card_id)
    if card.status != ACTIVE:
        raise ToolError(f"card {card.card_id} is {card.status!r}: only active cards can be frozen")
    updated = msgspec.structs.replace(card, status=FROZEN)
    db.put("cards", card.card_id, updated)
    return updated


@tool(ToolKind.WRITE)
def unfreeze_card(db: Database, card_id: str) -> Card:
    """Unfreeze a frozen card that has not been replaced, so that it works again.

    Args:
        card_id: The card id, e.g. "card_1234567".
    """
    card = load_card(db, card_id)
    if card.status != FROZEN:
        raise ToolError(
            f"card {card.card_id} is {card.status!r}: only frozen cards can be unfrozen"
        )
    if card.replaced_by:
        raise ToolError(f"card {card.card_id} was replaced by {card.replaced_by}: it stays frozen")
    updated = msgspec.structs.replace(card, status=ACTIVE)
    db.put("cards", card.card_id, updated)
    return updated


@tool(ToolKind.WRITE)
def replace_card(
    db: Database,
    card_id: str,
    reason: Literal["lost", "stolen", "damaged"],
    shipping: Literal["standard", "expedited"],
) -> dict[str, Any]:
    """Order a replacement card with a new number, mailed to the customer's address.

    The old card keeps its status (freeze a lost or stolen card first) until the new one is
    activated. Standard shipping is free (5 to 7 business days); expedited shipping (2 business
    days) costs $25.00, debited from the card's account.

    Args:
        card_id: The card to replace, e.g. "card_1234567".
        reason: Why it is replaced: "lost", "stolen" or "damaged".
        shipping: "standard" (free) or "expedited" ($25.00 fee).
    """
    card = load_card(db, card_id)
    if card.status not in (ACTIVE, FROZEN) or card.replaced_by:
        raise ToolError(f"card {card.card_id} is {card.status!r} or already replaced")
    account = load_account(db, card.account_id)
    if shipping == "expedited":
        check_available(account, EXPEDITED_FEE)
        post(db, account, FEE, "Expedited card delivery fee", -EXPEDITED_FEE)
    new = Card(
        replacement_id(card),
        card.user_id,
        card.account_id,
        replacement_last_four(replacement_id(card)),
        ORDERED,
        f"{TODAY.year + 4}-{TODAY.month:02d}",
        replacement_of=card.card_id,
        reason=reason,
        shipping=shipping,
    )
    db.put("cards", new.card_id, new)
    old = msgspec.structs.replace(card, replaced_by=new.card_id)
    db.put("cards", card.card_id, old)
    user = load_user(db, card.user_id)
    db.put("users", user.user_id, msgspec.structs.replace(user, cards=(*user.cards, new.card_id)))
    fee = EXPEDITED_FEE if shipping == "expedited" else 0.0
    return {"old_card": old, "new_card": new, "shipping_fee": fee}


@tool(ToolKind.WRITE)
def transfer_between_accounts(
    db: Database, from_account_id: str, to_account_id: str, amount: float
) -> dict[str, Any]:
    """Move money between two accounts of the same customer, at once.

    Refused when the amount exceeds what the source account has available (balance plus
    overdraft limit) or what its daily transfer limit still allows today.

    Args:
        from_account_id: The account the money leaves, e.g. "sav_12345678".
        to_account_id: The account the money goes to, e.g. "chk_12345678".
        amount: The amount in dollars, more than zero, e.g. 250.0.
    """
    source = load_account(db, from_account_id)
    target = load_account(db, to_account_id)
    if source.account_id == target.account_id:
        raise ToolError("the two accounts must differ")
    if source.user_id != target.user_id:
        raise ToolError("transfers go only between accounts of the same customer")
    amount = money(amount)
    if amount <= 0:
        raise ToolError("amount must be more than zero")
    check_available(source, amount)
    check_transfer_limit(source, amount)
    source = post(db, source, TRANSFER_OUT, f"Transfer to {target.account_id}", -amount)
    source = msgspec.structs.replace(
        source, transferred_today=money(source.transferred_today + amount)
    )
    db.put("accounts", source.account_id, source)
    target = post(db, target, TRANSFER_IN, f"Transfer from {source.account_id}", amount)
    return {"from_account": account_view(source), "to_account": account_view(target)}


@tool(ToolKind.WRITE)
def file_dispute(
    db: Database,
    transaction_id: str,
    reason: Literal["duplicate charge", "goods not received", "wrong amount"],
) -> Dispute:
    """File a dispute of a card purchase; the bank's dispute team investigates it.

    Only card purchases that are not already disputed can be disputed.

    Args:
        transaction_id: The card purchase, e.g. "chk_12345678_007".
        reason: "duplicate charge", "goods not received" or "wrong amount".
    """
    txn = load_transaction(db, transaction_id)
    if txn.kind != CARD_PURCHASE:
        raise ToolError(f"transaction {txn.transaction_id} is a {txn.kind}, not a card purchase")
    if txn.dispute_id:
        raise ToolError(
            f"transaction {txn.transaction_id} is already disputed (dispute {txn.dispute_id})"
        )
    account = load_account(db, txn.account_id)
    dispute = Dispute(
        dispute_id(txn.transaction_id),
        txn.transaction_id,
        account.user_id,
        money(-txn.amount),
        reason,
        "open",
        TODAY.isoformat(),
    )
    db.put("disputes", dispute.dispute_id, dispute)
    db.put(
        "transactions",
        txn.transaction_id,
        msgspec.structs.replace(txn, dispute_id=dispute.dispute_id),
    )
    return dispute


@tool(ToolKind.WRITE)
def reverse_fee(db: Database, transaction_id: str) -> dict[str, Any]:
    """Reverse a fee: its amount is credited back to the account at once.

    Records today as the customer's last fee reversal. A fee can be reversed only once.

    Args:
        transaction_id: The fee transaction, e.g. "chk_12345678_012".
    """
    txn = load_transaction(db, transaction_id)
    if txn.kind != FEE:
        raise ToolError(f"transaction {txn.transaction_id} is a {txn.kind}, not a fee")
    if txn.reversed:
        raise ToolError(f"fee {txn.transaction_id} was already reversed")
    db.put("transactions", txn.transaction_id, msgspec.structs.replace(txn, reversed=True))
    account = post(
        db,
        load_account(db, txn.account_id),
        FEE_REVERSAL,
        f"Reversal: {txn.description}",
        -txn.amount,
    )
    user = load_user(db, account.user_id)
    db.put(
        "users", user.user_id, msgspec.structs.replace(user, last_fee_reversal=TODAY.isoformat())
    )
    return {"reversed": money(-txn.amount), "account": account_view(account)}


update_mailing_address = kit_tools.address_tool(
    "update_mailing_address",
    "Change a customer's mailing address (where statements and new cards are sent).",
    view=user_view,
)
