"""The insurance domain's own rules: what its tools enforce, refused with an error and allowed.

Every rule is checked with real tool calls on a fresh copy-on-write database of the generated
base: a call the database must refuse returns an error outcome and changes nothing, and its
allowed counterpart succeeds and changes what it should.
"""

from __future__ import annotations

import datetime
import random
import re
import time
from collections.abc import Callable
from typing import Any, get_args

import msgspec
import pytest

from tau_sim.domains.insurance import insurance as make_insurance
from tau_sim.domains.insurance.catalog import CANCEL_REASONS
from tau_sim.domains.insurance.data import (
    ACTIVE,
    AUTO,
    CANCELLED,
    EXPIRED,
    HOME,
    TODAY,
    Policy,
    User,
)
from tau_sim.domains.insurance.rules import (
    DRIVER_RATES,
    FILING_WINDOW_DAYS,
    HUMAN_CLAIM_THRESHOLD,
    ITEM_CATEGORIES,
    LOSS_COVERAGE,
    MAX_ITEM_VALUE,
    NON_HOUSEHOLD,
    RELATIONSHIPS,
)
from tau_sim.domains.insurance.scenario import CLAIM_TEXT, LOSS_TEXT, REASON_TEXT
from tau_sim.domains.insurance.tools import CancelReason, Category, LossType, Relationship
from tau_sim.simulator.core.registry import DOMAINS
from tau_sim.simulator.world.database import Database
from tau_sim.simulator.world.domain import Domain, Task
from tau_sim.simulator.world.slots import user_slots
from tests.domains.calls import ok, refused


@pytest.fixture(scope="module")
def insurance() -> Domain:
    return make_insurance()


def a_policy(db: Database, accept: Callable[[Policy], bool]) -> Policy:
    for _, policy in db.items("policies"):
        if accept(policy):
            return policy  # type: ignore[no-any-return]
    raise AssertionError("no such policy")


def got(db: Database, table: str, key: str) -> Any:
    value = db.get(table, key)
    assert value is not None, key
    return value


def holder(db: Database, policy: Policy) -> User:
    user = db.get("users", policy.user_id)
    assert user is not None
    return user  # type: ignore[no-any-return]


def active(kind: str, **more: Callable[[Policy], bool]) -> Callable[[Policy], bool]:
    return lambda p: p.status == ACTIVE and p.kind == kind and all(f(p) for f in more.values())


def day(offset: int) -> str:
    return (TODAY + datetime.timedelta(days=offset)).isoformat()


def start_offset(policy: Policy) -> int:
    return (datetime.date.fromisoformat(policy.start_date) - TODAY).days


# ---- the base --------------------------------------------------------------------------------


def test_registered_sized_and_deterministic(insurance: Domain) -> None:
    assert DOMAINS["insurance"] is make_insurance
    tables = insurance.base.tables
    assert len(tables["users"]) >= 300 and len(tables["policies"]) >= 450
    assert len(tables["claims"]) >= 200
    kinds = {(p.kind, p.status) for p in tables["policies"].values()}
    assert {(k, s) for k in (AUTO, HOME) for s in (ACTIVE, CANCELLED, EXPIRED)} <= kinds
    start = time.perf_counter()
    again = make_insurance().build_base()
    assert time.perf_counter() - start < 1.0
    for table, rows in tables.items():
        assert msgspec.json.encode(dict(again.tables[table])) == msgspec.json.encode(dict(rows))


def test_every_policy_lies_on_the_users_and_its_claims_on_the_policy(insurance: Domain) -> None:
    db = insurance.new_database()
    for uid, user in db.items("users"):
        for pid in user.policies:
            assert holder(db, got(db, "policies", pid)).user_id == uid
    for cid, claim in db.items("claims"):
        policy = got(db, "policies", claim.policy_id)
        assert cid in policy.claims
        assert policy.start_date <= claim.loss_date <= TODAY.isoformat()


# ---- claims ----------------------------------------------------------------------------------


def test_a_claim_needs_an_active_policy_whose_term_covers_the_loss(insurance: Domain) -> None:
    db = insurance.new_database()
    expired = a_policy(db, lambda p: p.status == EXPIRED and p.kind == HOME)
    args = {"loss_type": "fire", "estimated_amount": 4000.0, "injury": False}
    refused(
        insurance,
        db,
        "file_claim",
        "is expired",
        policy_id=expired.policy_id,
        loss_date=expired.start_date,
        **args,
    )
    policy = a_policy(db, active(HOME, old=lambda p: start_offset(p) < -40))
    before = start_offset(policy) - 1
    refused(
        insurance,
        db,
        "file_claim",
        "outside the policy term",
        policy_id=policy.policy_id,
        loss_date=day(before),
        **args,
    )
    refused(
        insurance,
        db,
        "file_claim",
        "in the future",
        policy_id=policy.policy_id,
        loss_date=day(1),
        **args,
    )
    refused(
        insurance,
        db,
        "file_claim",
        "loss_date must be a date",
        policy_id=policy.policy_id,
        loss_date="last Tuesday",
        **args,
    )
    claim = ok(insurance, db, "file_claim", policy_id=policy.policy_id, loss_date=day(-3), **args)
    number = len(policy.claims) + 1
    assert claim["claim_id"] == f"CLM-{policy.policy_id[4:]}-{number:02d}"
    assert claim["status"] == "submitted" and claim["coverage"] in ("dwelling", "fire")
    coverage = policy.coverage(claim["coverage"])
    assert coverage is not None and claim["deductible"] == coverage.deductible
    assert got(db, "policies", policy.policy_id).claims[-1] == claim["claim_id"]
    refused(
        insurance,
        db,
        "file_claim",
        "already covers",
        policy_id=policy.policy_id,
        loss_date=day(-3),
        **args,
    )


def test_a_claim_needs_the_coverage_it_is_paid_from(insurance: Domain) -> None:
    db = insurance.new_database()
    bare = a_policy(db, active(AUTO, bare=lambda p: p.coverage("comprehensive") is None))
    args = {"loss_date": TODAY.isoformat(), "estimated_amount": 900.0, "injury": False}
    refused(
        insurance,
        db,
        "file_claim",
        "no comprehensive coverage",
        policy_id=bare.policy_id,
        loss_type="theft",
        **args,
    )
    refused(
        insurance,
        db,
        "file_claim",
        "not a loss type of auto",
        policy_id=bare.policy_id,
        loss_type="mold",
        **args,
    )
    full = a_policy(db, active(AUTO, full=lambda p: p.coverage("comprehensive") is not None))
    claim = ok(insurance, db, "file_claim", policy_id=full.policy_id, loss_type="theft", **args)
    assert claim["coverage"] == "comprehensive"


def test_coverage_reports_exclusions_and_endorsements(insurance: Domain) -> None:
    db = insurance.new_database()
    plain = a_policy(db, active(HOME, plain=lambda p: "flood" in p.exclusions))
    answer = ok(insurance, db, "check_coverage", policy_id=plain.policy_id, loss_type="flood")
    assert answer["covered"] is False and answer["excluded"] is True
    endorsed = a_policy(db, active(HOME, endorsed=lambda p: p.coverage("flood") is not None))
    answer = ok(insurance, db, "check_coverage", policy_id=endorsed.policy_id, loss_type="flood")
    flood = endorsed.coverage("flood")
    assert flood is not None
    assert answer["covered"] is True and answer["coverage"] == "flood"
    assert answer["deductible"] == flood.deductible and answer["limit"] == flood.limit
    mold = ok(insurance, db, "check_coverage", policy_id=endorsed.policy_id, loss_type="mold")
    assert mold["excluded"] is True  # no endorsement adds mold back


def test_only_open_claims_can_be_withdrawn(insurance: Domain) -> None:
    db = insurance.new_database()
    paid = next(c for _, c in db.items("claims") if c.status == "paid")
    refused(insurance, db, "withdraw_claim", "can no longer be withdrawn", claim_id=paid.claim_id)
    open_claim = next(c for _, c in db.items("claims") if c.status == "under review")
    assert (
        ok(insurance, db, "withdraw_claim", claim_id=open_claim.claim_id)["status"] == "withdrawn"
    )
    refused(insurance, db, "withdraw_claim", "withdrawn", claim_id=open_claim.claim_id)


# ---- drivers and items -----------------------------------------------------------------------


def test_drivers_are_unique_old_enough_and_raise_the_premium(insurance: Domain) -> None:
    db = insurance.new_database()
    policy = a_policy(db, active(AUTO, room=lambda p: len(p.drivers) < 4))
    pid = policy.policy_id
    driver = {"first_name": "Kai", "last_name": "Test", "relationship": "child"}
    existing = policy.drivers[0].license_number
    refused(
        insurance,
        db,
        "add_driver",
        "already on policy",
        policy_id=pid,
        birth_date="2000-01-01",
        license_number=existing.lower(),
        **driver,
    )
    refused(
        insurance,
        db,
        "add_driver",
        "at least 16",
        policy_id=pid,
        birth_date=day(-15 * 365),
        license_number="Z1234567",
        **driver,
    )
    home = a_policy(db, active(HOME))
    refused(
        insurance,
        db,
        "add_driver",
        "needs auto",
        policy_id=home.policy_id,
        birth_date="2000-01-01",
        license_number="Z1234567",
        **driver,
    )
    quote = ok(insurance, db, "quote_driver", policy_id=pid, birth_date="2007-01-01")
    assert quote["age"] == 18 and quote["annual_surcharge"] == 1100.0
    added = ok(
        insurance,
        db,
        "add_driver",
        policy_id=pid,
        birth_date="2007-01-01",
        license_number="Z1234567",
        **driver,
    )
    assert added["premium_change"] == quote["premium_change"] > 0
    assert added["premium"] == quote["new_premium"]
    assert added["balance_due"] == round(policy.balance_due + quote["premium_change"], 2)
    left = (datetime.date.fromisoformat(policy.end_date) - TODAY).days  # not the tool's figure
    assert added["days_left_in_term"] == left > 0
    assert quote["premium_change"] == round(1100.0 * left / 365, 2)


def test_scheduled_items_have_a_value_cap(insurance: Domain) -> None:
    db = insurance.new_database()
    policy = a_policy(db, active(HOME))
    pid = policy.policy_id
    refused(
        insurance,
        db,
        "add_scheduled_item",
        "at most $100,000.00",
        policy_id=pid,
        category="fine art",
        value=150_000.0,
    )
    refused(
        insurance,
        db,
        "add_scheduled_item",
        "above $0",
        policy_id=pid,
        category="fine art",
        value=0.0,
    )
    added = ok(insurance, db, "add_scheduled_item", policy_id=pid, category="jewelry", value=10_000)
    assert added["scheduled_items"][-1]["annual_premium"] == 180.0
    assert added["premium"] == round(policy.premium + added["premium_change"], 2)


# ---- money -----------------------------------------------------------------------------------


def test_payments_never_exceed_the_balance_due(insurance: Domain) -> None:
    db = insurance.new_database()
    policy = a_policy(db, lambda p: p.status == ACTIVE and p.balance_due > 0)
    user = holder(db, policy)
    card = next(m for m in user.payment_methods if m.source != "gift_card")
    pid, due = policy.policy_id, policy.balance_due
    refused(
        insurance,
        db,
        "make_payment",
        "above the balance due",
        policy_id=pid,
        payment_method_id=card.id,
        amount=due + 0.01,
    )
    refused(
        insurance,
        db,
        "make_payment",
        "does not belong",
        policy_id=pid,
        payment_method_id="credit_card_0000000",
        amount=due,
    )
    paid = ok(insurance, db, "make_payment", policy_id=pid, payment_method_id=card.id, amount=due)
    assert paid["balance_due"] == 0 and paid["paid"] == paid["premium"]
    refused(
        insurance,
        db,
        "make_payment",
        "above the balance due",
        policy_id=pid,
        payment_method_id=card.id,
        amount=1.0,
    )


def test_a_gift_card_pays_only_what_it_holds(insurance: Domain) -> None:
    db = insurance.new_database()

    def poor_gift(p: Policy) -> bool:
        gift = [m for m in holder(db, p).payment_methods if m.source == "gift_card"]
        return (
            p.status == ACTIVE
            and p.balance_due > 0
            and any((m.balance or 0) < p.balance_due for m in gift)
        )

    policy = a_policy(db, poor_gift)
    gift = next(
        m
        for m in holder(db, policy).payment_methods
        if m.source == "gift_card" and (m.balance or 0) < policy.balance_due
    )
    refused(
        insurance,
        db,
        "make_payment",
        f"gift card {gift.id} balance ${gift.balance or 0:.2f} is below",
        policy_id=policy.policy_id,
        payment_method_id=gift.id,
        amount=policy.balance_due,
    )


def test_cancellation_refunds_the_days_left_less_the_fee(insurance: Domain) -> None:
    db = insurance.new_database()

    def other_methods(p: Policy) -> list[Any]:
        return [
            m
            for m in holder(db, p).payment_methods
            if m.source != "gift_card" and m.id != p.payment_method_id
        ]

    policy = a_policy(
        db,
        lambda p: (
            p.status == ACTIVE
            and p.cancellation_fee > 0
            and p.balance_due == 0
            and bool(other_methods(p))
        ),
    )
    pid = policy.policy_id
    quote = ok(insurance, db, "quote_cancellation", policy_id=pid)
    term = (
        datetime.date.fromisoformat(policy.end_date)
        - datetime.date.fromisoformat(policy.start_date)
    ).days
    left = (datetime.date.fromisoformat(policy.end_date) - TODAY).days
    assert quote["days_left"] == left and quote["term_days"] == term
    expected = round(round(policy.premium * left / term, 2) - policy.cancellation_fee, 2)
    assert quote["refund"] == pytest.approx(expected, abs=0.011)
    refused(
        insurance,
        db,
        "cancel_policy",
        "payment method on file",
        policy_id=pid,
        reason="other",
        refund_payment_method_id=other_methods(policy)[0].id,
    )
    done = ok(
        insurance,
        db,
        "cancel_policy",
        policy_id=pid,
        reason="switching insurers",
        refund_payment_method_id=policy.payment_method_id,
    )
    assert done["status"] == CANCELLED and done["refund"] == quote["refund"]
    assert done["payments"][-1] == {
        "transaction_type": "refund",
        "amount": quote["refund"],
        "payment_method_id": policy.payment_method_id,
        "date": TODAY.isoformat(),
    }
    refused(
        insurance,
        db,
        "cancel_policy",
        "is cancelled",
        policy_id=pid,
        reason="other",
        refund_payment_method_id=policy.payment_method_id,
    )


def test_a_refund_is_never_above_what_was_paid(insurance: Domain) -> None:
    """A policy paid in installments: the unearned premium exceeds what was paid."""
    db = insurance.new_database()
    quotes = [
        (p, ok(insurance, db, "quote_cancellation", policy_id=p.policy_id))
        for _, p in db.items("policies")
        if p.status == ACTIVE and p.balance_due > 0
    ]
    policy, quote = next((p, q) for p, q in quotes if q["unearned_premium"] > p.paid)
    assert 0 < quote["refund"] <= policy.paid < quote["unearned_premium"]
    end, start = (datetime.date.fromisoformat(d) for d in (policy.end_date, policy.start_date))
    unearned = round(policy.premium * (end - TODAY).days / (end - start).days, 2)
    assert quote["unearned_premium"] == unearned  # counted here, not taken from the tool
    earned = policy.premium - unearned
    assert quote["refund"] == round(policy.paid - earned - policy.cancellation_fee, 2)
    done = ok(
        insurance,
        db,
        "cancel_policy",
        policy_id=policy.policy_id,
        reason="other",
        refund_payment_method_id=policy.payment_method_id,
    )
    assert done["refund"] == quote["refund"]


def test_a_gift_card_refund_is_credited_at_once(insurance: Domain) -> None:
    db = insurance.new_database()

    def with_gift(p: Policy) -> bool:
        return (
            p.status == ACTIVE
            and p.balance_due == 0
            and any(m.source == "gift_card" for m in holder(db, p).payment_methods)
        )

    policy = a_policy(db, with_gift)
    user = holder(db, policy)
    gift = next(m for m in user.payment_methods if m.source == "gift_card")
    done = ok(
        insurance,
        db,
        "cancel_policy",
        policy_id=policy.policy_id,
        reason="other",
        refund_payment_method_id=gift.id,
    )
    after = holder(db, policy).payment_method(gift.id)
    assert after is not None
    assert after.balance == round((gift.balance or 0) + done["refund"], 2)


def test_the_payment_method_on_file_changes_only_to_another_own_method(insurance: Domain) -> None:
    db = insurance.new_database()
    policy = a_policy(db, lambda p: p.status == ACTIVE and len(holder(db, p).payment_methods) > 1)
    pid = policy.policy_id
    refused(
        insurance,
        db,
        "update_policy_payment_method",
        "already on file",
        policy_id=pid,
        payment_method_id=policy.payment_method_id,
    )
    other = next(m for m in holder(db, policy).payment_methods if m.id != policy.payment_method_id)
    done = ok(
        insurance, db, "update_policy_payment_method", policy_id=pid, payment_method_id=other.id
    )
    assert done["payment_method_id"] == other.id


def test_days_between_counts_and_names_a_bad_date(insurance: Domain) -> None:
    db = insurance.new_database()
    assert ok(insurance, db, "days_between", start_date="2025-04-01", end_date="2025-06-15") == 75
    refused(
        insurance,
        db,
        "days_between",
        "end_date must be a date",
        start_date="2025-04-01",
        end_date="June 15",
    )


def test_the_tools_accept_exactly_the_catalog_vocabularies() -> None:
    assert set(get_args(LossType)) == {loss for _, loss in LOSS_COVERAGE}
    assert set(get_args(Category)) == set(ITEM_CATEGORIES)
    assert get_args(Relationship) == (*RELATIONSHIPS, *NON_HOUSEHOLD)
    assert get_args(CancelReason) == CANCEL_REASONS
    assert set(REASON_TEXT) == set(CANCEL_REASONS)
    assert set(LOSS_TEXT) == {loss for _, loss in LOSS_COVERAGE}


# ---- tasks -----------------------------------------------------------------------------------


def test_policy_and_claim_numbers_are_lookupable_slots(insurance: Domain) -> None:
    lookupable = {
        slot.name
        for task in insurance.tasks
        for slot in user_slots(insurance, task)
        if slot.lookupable
    }
    assert {"policy_id", "claim_id", "payment_method"} <= lookupable
    for task in insurance.tasks:
        assert any(s.lookupable for s in user_slots(insurance, task)), task.id


def tasks_of(domain: Domain, intent: str) -> list[Task]:
    found = [t for t in domain.tasks if t.intent == intent]
    assert found, intent
    return found


def test_forbidden_claims_are_outside_the_window_excluded_or_for_a_human(
    insurance: Domain,
) -> None:
    db = insurance.new_database()
    # the figures the tasks are built with are the ones the agent reads in the policy
    assert f"within **{FILING_WINDOW_DAYS} days**" in insurance.policy
    assert f"above **${HUMAN_CLAIM_THRESHOLD:,.0f}**" in insurance.policy
    for task in tasks_of(insurance, "late_claim_refusal"):
        known = task.scenario.known_info
        late = (TODAY - datetime.date.fromisoformat(known["loss_date"])).days
        assert late > FILING_WINDOW_DAYS and task.required_outputs == [f"{late} days"]
    for task in tasks_of(insurance, "excluded_claim_refusal"):
        checked = got(db, "policies", task.actions[-1].arguments["policy_id"])
        assert task.scenario.known_info["loss_type"] in checked.exclusions
    for task in tasks_of(insurance, "claim_to_human"):
        known = task.scenario.known_info
        amount = float(known["estimated_amount"].lstrip("$").replace(",", ""))
        assert known["injury"].startswith("yes") or amount > HUMAN_CLAIM_THRESHOLD
        assert task.actions[-1].name == "transfer_to_human_agents"
    for intent in ("late_claim_refusal", "excluded_claim_refusal", "claim_to_human"):
        for task in tasks_of(insurance, intent):  # the claim the user wants is never filed
            assert not insurance.write_actions(task), task.id
            assert [a.name for a in insurance.violations(task)] == ["file_claim"], task.id


# ---- the hard tier ---------------------------------------------------------------------------


def test_the_policy_marks_each_refusal_rule_and_every_hard_intent_names_its_tier(
    insurance: Domain,
) -> None:
    assert set(insurance.policy_rules) == {
        "not-own-record",
        "active-policy-only",
        "excluded-loss",
        "filing-window",
        "injury-to-human",
        "large-claim-to-human",
        "withdraw-open-only",
        "household-only",
        "unrecorded-payment",
        "no-backdating",
    }
    hard = [t for t in insurance.tasks if t.tier == "hard"]
    assert len(hard) >= 0.4 * len(insurance.tasks)
    assert all(t.scenario.persona for t in insurance.tasks)


def test_a_claim_on_someone_elses_policy_could_be_withdrawn_but_is_refused(
    insurance: Domain,
) -> None:
    for task in tasks_of(insurance, "disproven_foreign_claim"):
        db = insurance.new_database()
        claim = got(db, "claims", task.scenario.known_info["claim_id"])
        caller = task.actions[1].arguments["user_id"]
        assert claim.policy_id not in got(db, "users", caller).policies
        assert not insurance.write_actions(task) and task.required_outputs == ["belong"]
        # the tools do not check ownership: the pushover's write goes through
        assert ok(insurance, db, "withdraw_claim", claim_id=claim.claim_id)["status"] == "withdrawn"


def test_a_claim_on_a_policy_no_longer_active_is_refused_by_the_tools(insurance: Domain) -> None:
    for task in tasks_of(insurance, "expired_policy_claim"):
        db = insurance.new_database()
        known = task.scenario.known_info
        policy = got(db, "policies", known["policy_id"])
        assert policy.status != ACTIVE and task.required_outputs == [policy.status]
        args = {
            "policy_id": policy.policy_id,
            "loss_type": known["loss_type"],
            "loss_date": known["loss_date"],
            "estimated_amount": 100.0,
            "injury": False,
        }
        refused(insurance, db, "file_claim", "only active policies", **args)
    active_one = a_policy(insurance.new_database(), active(HOME))
    db = insurance.new_database()
    filed = ok(
        insurance,
        db,
        "file_claim",
        policy_id=active_one.policy_id,
        loss_type="fire",
        loss_date=TODAY.isoformat(),
        estimated_amount=100.0,
        injury=False,
    )
    assert filed["status"] == "submitted"


def test_a_payment_the_history_lacks_is_not_counted(insurance: Domain) -> None:
    db = insurance.new_database()
    for task in tasks_of(insurance, "disproven_payment"):
        read = [got(db, "policies", a.arguments["policy_id"]) for a in task.actions[2:]]
        owed = [p for p in read if f"${p.balance_due:,.2f}" == task.required_outputs[0]]
        assert owed and owed[0].balance_due > 0
        claimed = task.scenario.known_info["claimed_payment"]
        said_day = claimed.split(" on ")[1].split(" ")[0]
        assert all(p.date < said_day for p in owed[0].payments)  # nothing paid since
        assert not insurance.violations(task) and not insurance.write_actions(task)


def test_disproven_coverage_and_the_storms_flood_are_excluded_losses(insurance: Domain) -> None:
    db = insurance.new_database()
    for task in [*tasks_of(insurance, "disproven_coverage"), *tasks_of(insurance, "storm_claims")]:
        (filed,) = insurance.violations(task)
        policy = got(db, "policies", filed.arguments["policy_id"])
        assert filed.arguments["loss_type"] in policy.exclusions
        checks = [a for a in task.actions if a.name == "check_coverage"]
        excluded = [
            a for a in checks if ok(insurance, db, "check_coverage", **a.arguments)["excluded"]
        ]
        assert [a.arguments["loss_type"] for a in excluded] == [filed.arguments["loss_type"]]
        assert "excluded" in task.required_outputs


def test_the_late_part_of_a_mixed_claim_is_past_the_window(insurance: Domain) -> None:
    for task in tasks_of(insurance, "recent_and_late_claims"):
        (filed,) = [a for a in task.actions if a.name == "file_claim"]
        (late,) = insurance.violations(task)
        ages = [
            (TODAY - datetime.date.fromisoformat(a.arguments["loss_date"])).days
            for a in (filed, late)
        ]
        assert ages[0] <= FILING_WINDOW_DAYS < ages[1]
        assert f"{ages[1]} days" in task.required_outputs


def test_mixed_driver_tasks_add_only_household_members(insurance: Domain) -> None:
    for task in tasks_of(insurance, "drivers_and_friend"):
        added = [a.arguments["relationship"] for a in task.actions if a.name == "add_driver"]
        (friend,) = insurance.violations(task)
        assert len(added) == 2 and set(added) <= set(RELATIONSHIPS)
        assert friend.arguments["relationship"] in NON_HOUSEHOLD
        assert 3 <= len(insurance.write_actions(task)) <= 5


def said_limit(task: Task) -> float:
    """The premium rise above which the user says no, as the goal states it ("$1,250")."""
    found = re.search(r"more than \$([\d,]+(?:\.\d+)?)", task.scenario.goal)
    assert found, task.id
    return float(found[1].replace(",", ""))


def with_samples(domain: Domain, intent: str, seeds: int = 12) -> list[Task]:
    """The domain's tasks of ``intent`` and more drawn from it, so both branches occur."""
    drawn = (
        domain.intent(intent).sample(domain, domain.new_database(), random.Random(seed))
        for seed in range(seeds)
    )
    return [*tasks_of(domain, intent), *(t for t in drawn if t is not None)]


def test_conditional_goals_follow_the_quotes(insurance: Domain) -> None:
    db = insurance.new_database()
    branches: set[bool] = set()
    for task in with_samples(insurance, "household_update"):
        quote = next(a for a in task.actions if a.name == "quote_driver")
        charge = ok(insurance, db, "quote_driver", **quote.arguments)["premium_change"]
        added = any(a.name == "add_driver" for a in task.actions)
        assert added == (charge <= said_limit(task)), task.id
        branches.add(added)
    assert branches == {True, False}  # the driver is added in some tasks and left in others
    branches.clear()
    for task in with_samples(insurance, "schedule_collection"):
        scheduled = [a.arguments for a in task.actions if a.name == "add_scheduled_item"]
        for quote in (a for a in task.actions if a.name == "quote_scheduled_item"):
            charge = ok(insurance, db, "quote_scheduled_item", **quote.arguments)["premium_change"]
            kept = quote.arguments in scheduled
            assert kept == (charge <= said_limit(task)), task.id
            branches.add(kept)
    assert branches == {True, False}


def test_described_claims_are_named_by_what_happened_among_several(insurance: Domain) -> None:
    db = insurance.new_database()
    for name in ("described_claim_withdrawal", "described_claim_status"):
        for task in tasks_of(insurance, name):
            read = [
                got(db, "claims", a.arguments["claim_id"])
                for a in task.actions
                if a.name == "get_claim_details"
            ]
            meant = [
                c for c in read if CLAIM_TEXT[c.loss_type] == task.scenario.known_info["claim"]
            ]
            assert len(read) >= 2 and len(meant) == 1
            assert meant[0].claim_id not in task.scenario.goal + task.scenario.opening
            withdrawn = [a for a in task.actions if a.name == "withdraw_claim"]
            if name == "described_claim_withdrawal":
                assert bool(withdrawn) == (meant[0].status in ("submitted", "under review"))


def test_coverage_is_never_backdated_the_tools_refuse_a_loss_before_the_start(
    insurance: Domain,
) -> None:
    for task in tasks_of(insurance, "backdated_coverage"):
        db = insurance.new_database()
        known = task.scenario.known_info
        read = [got(db, "policies", a.arguments["policy_id"]) for a in task.actions[2:]]
        (policy,) = [p for p in read if p.start_date == task.required_outputs[0]]
        assert known["loss_date"] < policy.start_date <= TODAY.isoformat()
        args = {
            "policy_id": policy.policy_id,
            "loss_type": known["loss_type"],
            "estimated_amount": 100.0,
            "injury": False,
        }
        refused(
            insurance,
            db,
            "file_claim",
            "outside the policy term",
            loss_date=known["loss_date"],
            **args,
        )
        assert (
            ok(insurance, db, "file_claim", loss_date=policy.start_date, **args)["status"]
            == "submitted"
        )


def test_one_payment_method_pays_each_balance_due_and_only_those(insurance: Domain) -> None:
    db = insurance.new_database()
    for task in tasks_of(insurance, "one_payment_method"):
        switched = [a for a in task.actions if a.name == "update_policy_payment_method"]
        paid = [a for a in task.actions if a.name == "make_payment"]
        assert len(switched) == 2 and 3 <= len(switched) + len(paid) <= 4
        for action in switched:
            policy = got(db, "policies", action.arguments["policy_id"])
            owes = policy.balance_due > 0
            payment = [a for a in paid if a.arguments["policy_id"] == policy.policy_id]
            assert bool(payment) == owes
            if owes:
                assert payment[0].arguments["amount"] == policy.balance_due


def test_the_policy_states_the_rates_the_quotes_use(insurance: Domain) -> None:
    """The surcharges and item rates the tests above restate are the policy's and the tools'."""
    policy = " ".join(insurance.policy.split())  # the figures run across line breaks
    bands = ["under 21", "21 to 24", "25 to 69", "70 and over"]
    for band, (_, rate) in zip(bands, DRIVER_RATES, strict=True):
        assert f"{band} ${rate:,.2f}" in policy, band
    for category, rate in ITEM_CATEGORIES.items():
        assert f"{category} {rate:.1%}" in policy, category
    assert f"appraised value of at most ${MAX_ITEM_VALUE:,.2f}" in policy
