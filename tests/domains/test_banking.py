"""The banking domain's rules: what its tools enforce, and what its tasks hold to the policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from tau_sim.domains.banking import banking as make_banking
from tau_sim.domains.banking.catalog import SUBSCRIPTIONS
from tau_sim.domains.banking.data import (
    ACTIVE,
    CARD_PURCHASE,
    DEPOSIT,
    EXPEDITED_FEE,
    FEE,
    FROZEN,
    ORDERED,
    TODAY,
    Account,
    Card,
    Transaction,
    User,
    days_ago,
)
from tau_sim.domains.banking.rules import (
    DISPUTE_WINDOW_DAYS,
    FEE_REVERSAL_CAP,
    FEE_REVERSAL_PERIOD_DAYS,
)
from tau_sim.domains.kit.payments import money_text
from tau_sim.simulator.core.registry import DOMAINS
from tau_sim.simulator.world.database import Database
from tau_sim.simulator.world.domain import Domain, Task
from tests.domains.calls import ok, refused


@pytest.fixture(scope="module")
def banking() -> Domain:
    return make_banking()


@pytest.fixture
def db(banking: Domain) -> Database:
    return banking.new_database()


def first(db: Database, table: str, accept: Callable[[Any], bool]) -> Any:
    for _, value in db.items(table):
        if accept(value):
            return value
    raise AssertionError(f"no matching record in {table}")


def account(db: Database, account_id: str) -> Account:
    found = db.get("accounts", account_id)
    assert found is not None
    return found  # type: ignore[no-any-return]


def dollars(text: str) -> float:
    """The amount of a figure as the user says it, e.g. "$2,550.00"."""
    return float(text.removeprefix("$").replace(",", ""))


def customer_with_two_accounts(db: Database) -> tuple[User, Account, Account]:
    user: User = first(db, "users", lambda u: len(u.accounts) == 2)
    chk, sav = (account(db, a) for a in user.accounts)
    return user, chk, sav


# ---- the base --------------------------------------------------------------------------------


def test_registered_and_sized_like_a_bank(banking: Domain) -> None:
    assert DOMAINS["banking"] is make_banking
    tables = banking.base.tables
    assert len(tables["users"]) >= 300 and len(tables["accounts"]) >= 450
    assert len(tables["cards"]) >= 300 and len(tables["transactions"]) >= 5000
    kinds = {t.kind for t in tables["transactions"].values()}
    assert {CARD_PURCHASE, DEPOSIT, FEE} <= kinds
    assert all(days_ago(t.date) >= 0 for t in tables["transactions"].values())


def test_authentication_needs_the_right_pin_and_the_profile_hides_it(
    banking: Domain, db: Database
) -> None:
    user: User = first(db, "users", lambda u: True)
    found = ok(
        banking, db, "find_user_id_by_account", account_number=user.account_number, pin=user.pin
    )
    assert found == user.user_id
    wrong = f"{(int(user.pin) + 1) % 10000:04d}"
    refused(
        banking,
        db,
        "find_user_id_by_account",
        "no user",
        account_number=user.account_number,
        pin=wrong,
    )
    profile = ok(banking, db, "get_user_details", user_id=user.user_id)
    assert "pin" not in profile and profile["accounts"] == list(user.accounts)


# ---- cards -----------------------------------------------------------------------------------


def test_freeze_and_unfreeze_follow_the_card_status(banking: Domain, db: Database) -> None:
    card: Card = first(db, "cards", lambda c: c.status == ACTIVE)
    refused(banking, db, "unfreeze_card", "only frozen cards", card_id=card.card_id)
    assert ok(banking, db, "freeze_card", card_id=card.card_id)["status"] == FROZEN
    refused(banking, db, "freeze_card", "only active cards", card_id=card.card_id)
    assert ok(banking, db, "unfreeze_card", card_id=card.card_id)["status"] == ACTIVE


def test_replacement_orders_a_new_card_and_charges_expedited_shipping(
    banking: Domain, db: Database
) -> None:
    card: Card = first(
        db, "cards", lambda c: c.status == ACTIVE and account(db, c.account_id).available >= 100
    )
    before = account(db, card.account_id)
    ok(banking, db, "freeze_card", card_id=card.card_id)
    result = ok(
        banking, db, "replace_card", card_id=card.card_id, reason="lost", shipping="expedited"
    )
    new = result["new_card"]
    assert new["status"] == ORDERED and new["replacement_of"] == card.card_id
    assert result["old_card"]["replaced_by"] == new["card_id"] and result["shipping_fee"] == 25.0
    after = account(db, card.account_id)
    assert after.balance == round(before.balance - EXPEDITED_FEE, 2)
    assert after.transaction_count == before.transaction_count + 1
    assert new["card_id"] in ok(banking, db, "get_user_details", user_id=card.user_id)["cards"]
    refused(
        banking,
        db,
        "replace_card",
        "already replaced",
        card_id=card.card_id,
        reason="lost",
        shipping="standard",
    )
    refused(banking, db, "unfreeze_card", "stays frozen", card_id=card.card_id)


def test_expedited_shipping_cannot_overdraw_the_account(banking: Domain, db: Database) -> None:
    card: Card = first(db, "cards", lambda c: c.status == ACTIVE)
    broke = msgspec.structs.replace(
        account(db, card.account_id), balance=-10.0, overdraft_limit=20.0
    )
    db.put("accounts", broke.account_id, broke)
    refused(
        banking,
        db,
        "replace_card",
        "would overdraw",
        card_id=card.card_id,
        reason="damaged",
        shipping="expedited",
    )
    standard = ok(
        banking, db, "replace_card", card_id=card.card_id, reason="damaged", shipping="standard"
    )
    assert standard["shipping_fee"] == 0.0 and account(db, broke.account_id).balance == -10.0


# ---- transfers -------------------------------------------------------------------------------


def test_transfer_moves_money_and_counts_against_the_daily_limit(
    banking: Domain, db: Database
) -> None:
    _, chk, sav = customer_with_two_accounts(db)
    amount = min(sav.available, sav.transfer_room, 100.0)
    result = ok(
        banking,
        db,
        "transfer_between_accounts",
        from_account_id=sav.account_id,
        to_account_id=chk.account_id,
        amount=amount,
    )
    assert result["from_account"]["balance"] == round(sav.balance - amount, 2)
    assert result["to_account"]["balance"] == round(chk.balance + amount, 2)
    assert account(db, sav.account_id).transferred_today == round(sav.transferred_today + amount, 2)
    txns = ok(banking, db, "get_account_transactions", account_id=chk.account_id)
    assert txns[0]["amount"] == amount and txns[0]["date"] == TODAY.isoformat()


def test_transfer_refuses_beyond_the_overdraft_limit(banking: Domain, db: Database) -> None:
    _, chk, sav = customer_with_two_accounts(db)
    roomy = msgspec.structs.replace(
        chk, balance=100.0, daily_transfer_limit=1e9, transferred_today=0.0
    )
    db.put("accounts", chk.account_id, roomy)
    args = {"from_account_id": chk.account_id, "to_account_id": sav.account_id}
    refused(
        banking,
        db,
        "transfer_between_accounts",
        "would overdraw",
        **args,
        amount=roomy.available + 0.01,
    )
    ok(banking, db, "transfer_between_accounts", **args, amount=roomy.available)
    assert account(db, chk.account_id).balance == -roomy.overdraft_limit


def test_transfer_refuses_above_what_the_daily_limit_leaves(banking: Domain, db: Database) -> None:
    _, chk, sav = customer_with_two_accounts(db)
    rich = msgspec.structs.replace(
        sav, balance=1e6, daily_transfer_limit=2500.0, transferred_today=2000.0
    )
    db.put("accounts", sav.account_id, rich)
    args = {"from_account_id": sav.account_id, "to_account_id": chk.account_id}
    refused(banking, db, "transfer_between_accounts", "at most $500.00", **args, amount=500.01)
    ok(banking, db, "transfer_between_accounts", **args, amount=500.0)
    refused(banking, db, "transfer_between_accounts", "at most $0.00", **args, amount=1.0)


def test_transfer_refuses_bad_amounts_and_other_customers(banking: Domain, db: Database) -> None:
    user, chk, sav = customer_with_two_accounts(db)
    stranger: User = first(db, "users", lambda u: u.user_id != user.user_id)
    args = {"from_account_id": sav.account_id, "to_account_id": chk.account_id}
    refused(banking, db, "transfer_between_accounts", "more than zero", **args, amount=0.0)
    refused(banking, db, "transfer_between_accounts", "more than zero", **args, amount=-5.0)
    refused(
        banking,
        db,
        "transfer_between_accounts",
        "must differ",
        from_account_id=chk.account_id,
        to_account_id=chk.account_id,
        amount=1.0,
    )
    refused(
        banking,
        db,
        "transfer_between_accounts",
        "same customer",
        from_account_id=sav.account_id,
        to_account_id=stranger.accounts[0],
        amount=1.0,
    )


# ---- disputes and fees -----------------------------------------------------------------------


def test_only_undisputed_card_purchases_can_be_disputed(banking: Domain, db: Database) -> None:
    txn: Transaction = first(
        db, "transactions", lambda t: t.kind == CARD_PURCHASE and not t.dispute_id
    )
    dispute = ok(
        banking, db, "file_dispute", transaction_id=txn.transaction_id, reason="wrong amount"
    )
    assert dispute["amount"] == -txn.amount and dispute["filed"] == TODAY.isoformat()
    assert ok(banking, db, "get_dispute_details", dispute_id=dispute["dispute_id"]) == dispute
    refused(
        banking,
        db,
        "file_dispute",
        "already disputed",
        transaction_id=txn.transaction_id,
        reason="duplicate charge",
    )
    fee: Transaction = first(db, "transactions", lambda t: t.kind == FEE)
    refused(
        banking,
        db,
        "file_dispute",
        "not a card purchase",
        transaction_id=fee.transaction_id,
        reason="wrong amount",
    )
    refused(
        banking,
        db,
        "file_dispute",
        "not found",
        transaction_id="chk_00000000_001",
        reason="wrong amount",
    )


def test_a_fee_is_reversed_once_and_marks_the_customer(banking: Domain, db: Database) -> None:
    fee: Transaction = first(db, "transactions", lambda t: t.kind == FEE and not t.reversed)
    before = account(db, fee.account_id)
    result = ok(banking, db, "reverse_fee", transaction_id=fee.transaction_id)
    assert result["reversed"] == -fee.amount
    assert account(db, fee.account_id).balance == round(before.balance - fee.amount, 2)
    user = ok(banking, db, "get_user_details", user_id=before.user_id)
    assert user["last_fee_reversal"] == TODAY.isoformat()
    refused(banking, db, "reverse_fee", "already reversed", transaction_id=fee.transaction_id)
    deposit: Transaction = first(db, "transactions", lambda t: t.kind == DEPOSIT)
    refused(banking, db, "reverse_fee", "not a fee", transaction_id=deposit.transaction_id)


# ---- the tasks hold to the policy ------------------------------------------------------------


def _records(banking: Domain, intent: str) -> list[tuple[Transaction, User]]:
    """The transaction each task of ``intent`` is about (from its known info) and its owner."""
    db = banking.new_database()
    out = []
    for task in banking.tasks:
        if task.intent != intent:
            continue
        user = db.get("users", task.actions[1].arguments["user_id"])
        assert isinstance(user, User), task.id
        said = task.scenario.known_info.get("transaction") or task.scenario.known_info["fee"]
        amount = said.split(" ")[1]
        txns = [
            t
            for a in user.accounts
            for t in ok(banking, db, "get_account_transactions", account_id=a)
            if f"${-t['amount']:,.2f}" == amount and t["date"] in said
        ]
        assert len(txns) == 1, (task.id, said)
        out.append((msgspec.convert(txns[0], Transaction), user))
    return out


def test_dispute_tasks_respect_the_window(banking: Domain) -> None:
    assert (
        f"dispute window is {DISPUTE_WINDOW_DAYS} days**" in banking.policy
    )  # what the agent reads
    inside = _records(banking, "dispute_charge")
    outside = _records(banking, "dispute_outside_window")
    assert inside and outside
    assert all(days_ago(t.date) <= DISPUTE_WINDOW_DAYS for t, _ in inside)
    assert all(days_ago(t.date) > DISPUTE_WINDOW_DAYS for t, _ in outside)


def test_fee_tasks_respect_the_cap_and_the_twelve_months(banking: Domain) -> None:
    def eligible(user: User) -> bool:
        last = user.last_fee_reversal
        return not last or days_ago(last) > FEE_REVERSAL_PERIOD_DAYS

    assert f"fee is at most **{money_text(FEE_REVERSAL_CAP)}**" in banking.policy
    assert f"more than {FEE_REVERSAL_PERIOD_DAYS} days before today" in banking.policy
    allowed = _records(banking, "reverse_fee")
    second = _records(banking, "second_fee_reversal")
    over = _records(banking, "fee_over_cap")
    assert allowed and second and over
    assert all(eligible(u) and -t.amount <= FEE_REVERSAL_CAP for t, u in allowed)
    assert all(not eligible(u) and -t.amount <= FEE_REVERSAL_CAP for t, u in second)
    assert all(eligible(u) and -t.amount > FEE_REVERSAL_CAP for t, u in over)


# ---- the hard tier holds to the policy -------------------------------------------------------


def _tasks(banking: Domain, intent: str) -> list[Task]:
    found = [t for t in banking.tasks if t.intent == intent]
    assert found, intent
    return found


def transaction(db: Database, transaction_id: str) -> Transaction:
    found = db.get("transactions", transaction_id)
    assert isinstance(found, Transaction), transaction_id
    return found


def _owner(db: Database, task: Task) -> User:
    user = db.get("users", task.actions[1].arguments["user_id"])
    assert isinstance(user, User), task.id
    return user


def _statement(db: Database, user: User) -> list[Transaction]:
    return [t for a in user.accounts for t in banking_history(db, a)]


def banking_history(db: Database, account_id: str) -> list[Transaction]:
    acc = account(db, account_id)
    return [
        t
        for n in range(acc.transaction_count, 0, -1)
        if isinstance(t := db.get("transactions", f"{account_id}_{n:03d}"), Transaction)
    ]


def test_subscriptions_are_charged_monthly_for_the_same_amount_on_the_same_card(
    db: Database,
) -> None:
    names = {name for name, _ in SUBSCRIPTIONS}
    series: dict[tuple[str, str], list[Transaction]] = {}
    for _, txn in db.items("transactions"):
        if txn.description in names:
            series.setdefault((txn.account_id, txn.description), []).append(txn)
    assert len(series) >= 50
    for charges in series.values():
        assert len(charges) >= 3
        assert len({(t.amount, t.card_id, t.kind) for t in charges}) == 1
        months = sorted(t.date[:7] for t in charges)
        assert len(set(months)) == len(months)  # one a month


def test_recurring_claims_are_subscriptions_charged_before(banking: Domain, db: Database) -> None:
    for task in _tasks(banking, "recurring_charge_claimed_fraud"):
        said = task.scenario.known_info["transaction"]
        named = [t for t in _statement(db, _owner(db, task)) if t.date in said]
        claimed = next(t for t in named if t.description in said)
        earlier = [
            t
            for t in _statement(db, _owner(db, task))
            if (t.description, t.amount) == (claimed.description, claimed.amount)
            and t.date < claimed.date
        ]
        assert len(earlier) >= 2, task.id
        assert min(t.date for t in earlier) in task.required_outputs, task.id
        assert days_ago(claimed.date) <= DISPUTE_WINDOW_DAYS and not claimed.dispute_id
        assert not banking.write_actions(task) and banking.violations(task), task.id


def test_duplicate_claims_have_a_single_charge(banking: Domain, db: Database) -> None:
    for task in _tasks(banking, "duplicate_not_on_file"):
        (violation,) = banking.violations(task)
        txn = transaction(db, violation.arguments["transaction_id"])
        twins = [
            t
            for t in _statement(db, _owner(db, task))
            if (t.description, t.amount) == (txn.description, txn.amount)
        ]
        assert twins == [txn], task.id
        assert violation.arguments["reason"] == "duplicate charge"
        assert not [a for a in banking.write_actions(task) if a.name == "file_dispute"], task.id


def test_mixed_disputes_file_the_recent_charges_and_refuse_the_old_one(
    banking: Domain, db: Database
) -> None:
    for task in _tasks(banking, "dispute_beside_expired"):
        filed = [a.arguments["transaction_id"] for a in banking.write_actions(task)]
        (old,) = [a.arguments["transaction_id"] for a in banking.violations(task)]
        dates = {tid: transaction(db, tid).date for tid in [*filed, old]}
        assert all(days_ago(dates[t]) <= DISPUTE_WINDOW_DAYS for t in filed), task.id
        assert days_ago(dates[old]) > DISPUTE_WINDOW_DAYS and dates[old] in task.required_outputs


def test_mixed_fee_tasks_refuse_the_reversal_the_policy_forbids(
    banking: Domain, db: Database
) -> None:
    def eligible(user: User) -> bool:
        last = user.last_fee_reversal
        return not last or days_ago(last) > FEE_REVERSAL_PERIOD_DAYS

    def refused_fee(task: Task) -> Transaction:
        (violation,) = banking.violations(task)
        assert violation.name == "reverse_fee"
        fee = transaction(db, violation.arguments["transaction_id"])
        assert fee.kind == FEE and not fee.reversed
        return fee

    for task in _tasks(banking, "one_of_two_fees"):
        (done,) = banking.write_actions(task)
        assert eligible(_owner(db, task)) and done.name == "reverse_fee"
        assert done.arguments["transaction_id"] != refused_fee(task).transaction_id
    for task in _tasks(banking, "cap_beside_transfer"):
        assert eligible(_owner(db, task)) and -refused_fee(task).amount > FEE_REVERSAL_CAP
        assert [a.name for a in banking.write_actions(task)] == ["transfer_between_accounts"]
    for task in _tasks(banking, "dispute_beside_second_reversal"):
        assert not eligible(_owner(db, task)) and -refused_fee(task).amount <= FEE_REVERSAL_CAP
        assert _owner(db, task).last_fee_reversal in task.required_outputs


def test_a_dispute_that_exists_is_reported_not_filed_again(banking: Domain) -> None:
    for task in _tasks(banking, "dispute_unless_filed"):
        db = banking.new_database()
        status, filing = task.actions[-2:]
        assert status.name == "get_dispute_details" and filing.name == "file_dispute"
        refused(
            banking,
            db,
            "file_dispute",
            "already disputed",
            transaction_id=status.arguments["dispute_id"].removeprefix("dsp_"),
            reason=filing.arguments["reason"],
        )
        assert not transaction(db, filing.arguments["transaction_id"]).dispute_id
        ok(banking, db, "file_dispute", **filing.arguments)


def test_conditional_transfers_follow_the_condition(banking: Domain) -> None:
    for task in _tasks(banking, "top_up_if_low"):
        db = banking.new_database()
        chk, _ = (account(db, a) for a in _owner(db, task).accounts)
        threshold = dollars(task.scenario.known_info["threshold"])
        (move,) = banking.write_actions(task)
        tops_up = move.arguments["to_account_id"] == chk.account_id
        assert tops_up is (chk.balance < threshold), task.id
    reasons = set()
    for task in _tasks(banking, "transfer_or_the_most"):
        db = banking.new_database()
        (move,) = banking.write_actions(task)
        known = task.scenario.known_info
        asked = dollars(known["amount"])
        args = {k: v for k, v in move.arguments.items() if k != "amount"}
        source = account(db, args["from_account_id"])
        if move.arguments["amount"] != asked:  # what was asked is more than the ledger allows
            # the user's fallback is their own figure when the balance is short, else the room
            if "other_amount" in known:
                reason = "would overdraw"
                assert move.arguments["amount"] == dollars(known["other_amount"]), task.id
            else:
                reason = f"at most {money_text(source.transfer_room)}"
                assert move.arguments["amount"] == source.transfer_room, task.id
            refused(banking, db, "transfer_between_accounts", reason, **args, amount=asked)
            reasons.add(reason.split(" $")[0])
        ok(banking, db, "transfer_between_accounts", **args, amount=move.arguments["amount"])
    assert reasons == {"would overdraw", "at most"}  # both refusals are exercised


def test_no_gold_dispute_calls_a_single_posting_a_duplicate(banking: Domain, db: Database) -> None:
    disputes = [
        (task, action)
        for task in banking.tasks
        for action in banking.write_actions(task)
        if action.name == "file_dispute"
    ]
    assert len(disputes) >= 20  # the check below runs over the gold disputes, not over nothing
    for task, action in disputes:
        txn = transaction(db, action.arguments["transaction_id"])
        twins = [
            t
            for t in _statement(db, _owner(db, task))
            if (t.description, t.amount) == (txn.description, txn.amount)
        ]
        assert action.arguments["reason"] != "duplicate charge" or len(twins) >= 2, task.id
