"""The insurance tools the agent calls; each enforces what the policy database enforces."""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

from typing import Any, Literal

import msgspec

from tau_sim.domains.insurance.access import (
    CancellationQuote,
    cancellation_quote,
    coverage_for,
    date_arg,
    driver_charge,
    item_charge,
    load_claim,
    load_policy,
    load_user,
    policy_view,
    require_active,
    require_kind,
)
from tau_sim.domains.insurance.data import (
    AUTO,
    CANCELLED,
    HOME,
    TODAY,
    Claim,
    Driver,
    Payment,
    Policy,
    ScheduledItem,
    claim_id,
    item_id,
    parse_date,
)
from tau_sim.domains.insurance.rules import MAX_ITEM_VALUE, MIN_DRIVER_AGE
from tau_sim.domains.kit import identity
from tau_sim.domains.kit import tools as kit_tools
from tau_sim.domains.kit.calc import age_on
from tau_sim.domains.kit.payments import money, owned_method, settle
from tau_sim.simulator.world import Database, ToolError, ToolKind, tool

LossType = Literal[
    "collision",
    "theft",
    "vandalism",
    "hail",
    "glass",
    "animal collision",
    "flood",
    "mechanical breakdown",
    "fire",
    "wind",
    "water damage",
    "earthquake",
    "mold",
]
Category = Literal[
    "jewelry", "fine art", "electronics", "musical instrument", "collectibles", "bicycle"
]
Relationship = Literal[
    "spouse", "partner", "child", "parent", "sibling", "friend", "coworker", "neighbor"
]
CancelReason = Literal["switching insurers", "sold the insured property", "other"]

MAX_DRIVERS = 5

# ---- read tools -------------------------------------------------------------------------------


find_user_id_by_email = identity.find_user_id_by_email
find_user_id_by_name_zip = identity.find_user_id_by_name_zip
find_user_id_by_account = identity.find_user_id_by_account


get_user_details = kit_tools.profile_tool(
    "get_user_details",
    "Get a policyholder's profile: name, mailing address, email, payment methods, policy ids.",
    load_user,
)


@tool(ToolKind.READ)
def get_policy_details(db: Database, policy_id: str) -> dict[str, Any]:
    """Get a policy: its terms, coverages, exclusions, premium, payments and what it insures.

    It shows the kind, status, term dates, coverages with limits and deductibles, exclusions,
    premium, amount paid, balance due, days left in the term, payment method on file,
    cancellation fee, claim ids, and the vehicle and drivers (auto) or the property and
    scheduled items (home).

    Args:
        policy_id: The policy number, e.g. "AUT-4829301" or "HOM-4829301".
    """
    return policy_view(load_policy(db, policy_id))


@tool(ToolKind.READ)
def get_claim_details(db: Database, claim_id: str) -> Claim:
    """Get a claim: its policy, loss type and date, filing date, estimate, status and payment.

    Args:
        claim_id: The claim number, e.g. "CLM-4829301-01".
    """
    return load_claim(db, claim_id)


@tool(ToolKind.READ)
def check_coverage(db: Database, policy_id: str, loss_type: LossType) -> dict[str, Any]:
    """Say whether a policy covers a kind of loss: the coverage, its limit and deductible.

    Args:
        policy_id: The policy number, e.g. "HOM-4829301".
        loss_type: The kind of loss, e.g. "collision" or "water damage".
    """
    policy = load_policy(db, policy_id)
    excluded = loss_type in policy.exclusions
    try:
        name = coverage_for(policy, loss_type)
    except ToolError as exc:
        return {"loss_type": loss_type, "covered": False, "reason": str(exc)}
    coverage = policy.coverage(name)
    assert coverage is not None
    return {
        "loss_type": loss_type,
        "covered": not excluded,
        "excluded": excluded,
        "coverage": name,
        "limit": coverage.limit,
        "deductible": coverage.deductible,
    }


days_between = kit_tools.days_between


@tool(ToolKind.READ)
def quote_cancellation(db: Database, policy_id: str) -> CancellationQuote:
    """Quote the refund of cancelling an active policy today.

    The refund is the premium of the days left in the term (premium x days left / days in the
    term), less the cancellation fee, never above what was paid.

    Args:
        policy_id: The policy number, e.g. "AUT-4829301".
    """
    policy = load_policy(db, policy_id)
    require_active(policy, "can be cancelled")
    return cancellation_quote(policy)


@tool(ToolKind.READ)
def quote_driver(db: Database, policy_id: str, birth_date: str) -> dict[str, Any]:
    """Quote the premium change of adding a driver to an active auto policy.

    It gives the annual surcharge for the driver's age and its part for the rest of the term
    (x days left / 365).

    Args:
        policy_id: The auto policy number, e.g. "AUT-4829301".
        birth_date: The driver's date of birth, as YYYY-MM-DD, e.g. "2007-09-14".
    """
    policy, age = _driver_policy(db, policy_id, birth_date)
    annual, charge = driver_charge(policy, age)
    return {
        "age": age,
        "annual_surcharge": annual,
        "premium_change": charge,
        "new_premium": money(policy.premium + charge),
    }


@tool(ToolKind.READ)
def quote_scheduled_item(
    db: Database, policy_id: str, category: Category, value: float
) -> dict[str, Any]:
    """Quote the premium change of scheduling a valuable item on an active home policy.

    It gives the annual premium (the category's rate x the appraised value) and its part for the
    rest of the term (x days left / 365).

    Args:
        policy_id: The home policy number, e.g. "HOM-4829301".
        category: The item's category, e.g. "jewelry".
        value: The appraised value in dollars, e.g. 8400.
    """
    policy, annual, charge = _item_charge(db, policy_id, category, value)
    return {
        "annual_premium": annual,
        "premium_change": charge,
        "new_premium": money(policy.premium + charge),
    }


calculate = kit_tools.calculate
transfer_to_human_agents = kit_tools.transfer_to_human_agents


def _driver_age(birth_date: str) -> int:
    born = date_arg(birth_date, "birth_date")
    if born > TODAY:
        raise ToolError(f"birth_date {birth_date} is in the future")
    age = age_on(born.isoformat(), TODAY)
    if age < MIN_DRIVER_AGE:
        raise ToolError(f"a driver must be at least {MIN_DRIVER_AGE} (this one is {age})")
    return age


def _driver_policy(db: Database, policy_id: str, birth_date: str) -> tuple[Policy, int]:
    """The active auto policy ``policy_id`` and the age of a driver born on ``birth_date``."""
    policy = load_policy(db, policy_id)
    require_kind(policy, AUTO, "adding a driver")
    require_active(policy, "can add drivers")
    return policy, _driver_age(birth_date)


def _item_charge(
    db: Database, policy_id: str, category: str, value: float
) -> tuple[Policy, float, float]:
    """The active home policy ``policy_id`` and what scheduling an item costs: ``item_charge``."""
    policy = load_policy(db, policy_id)
    require_kind(policy, HOME, "scheduling an item")
    require_active(policy, "can schedule items")
    if not 0 < value <= MAX_ITEM_VALUE:
        raise ToolError(f"value must be above $0 and at most ${MAX_ITEM_VALUE:,.2f}")
    annual, charge = item_charge(policy, category, value)
    return policy, annual, charge


# ---- write tools ------------------------------------------------------------------------------


@tool(ToolKind.WRITE)
def file_claim(
    db: Database,
    policy_id: str,
    loss_type: LossType,
    loss_date: str,
    estimated_amount: float,
    injury: bool,
) -> Claim:
    """File a claim on an active policy whose term covers the loss date; it starts "submitted".

    Args:
        policy_id: The policy number, e.g. "AUT-4829301".
        loss_type: The kind of loss, e.g. "collision" or "water damage".
        loss_date: The day of the loss, as YYYY-MM-DD, e.g. "2025-06-02".
        estimated_amount: The estimated damage in dollars, e.g. 3200.
        injury: Whether anyone was injured.
    """
    policy = load_policy(db, policy_id)
    require_active(policy, "accept claims")
    day = date_arg(loss_date, "loss_date")
    if day > TODAY:
        raise ToolError(f"loss_date {day} is in the future")
    if not parse_date(policy.start_date) <= day < parse_date(policy.end_date):
        raise ToolError(
            f"loss_date {day} is outside the policy term ({policy.start_date} to {policy.end_date})"
        )
    if estimated_amount <= 0:
        raise ToolError("estimated_amount must be above $0")
    coverage = coverage_for(policy, loss_type)
    for existing in policy.claims:
        other = load_claim(db, existing)
        if other.loss_type == loss_type and other.loss_date == day.isoformat():
            raise ToolError(f"claim {other.claim_id} already covers this {loss_type} on {day}")
    paid_from = policy.coverage(coverage)
    assert paid_from is not None  # coverage_for names only coverages the policy has
    claim = Claim(
        claim_id(policy.policy_id, len(policy.claims) + 1),
        policy.policy_id,
        loss_type,
        coverage,
        day.isoformat(),
        TODAY.isoformat(),
        money(estimated_amount),
        injury,
        "submitted",
        paid_from.deductible,
    )
    db.put("claims", claim.claim_id, claim)
    db.put(
        "policies",
        policy.policy_id,
        msgspec.structs.replace(policy, claims=(*policy.claims, claim.claim_id)),
    )
    return claim


@tool(ToolKind.WRITE)
def withdraw_claim(db: Database, claim_id: str) -> Claim:
    """Withdraw a claim that is still "submitted" or "under review".

    Args:
        claim_id: The claim number, e.g. "CLM-4829301-01".
    """
    claim = load_claim(db, claim_id)
    if claim.status not in ("submitted", "under review"):
        raise ToolError(f"claim {claim.claim_id} is {claim.status}: it can no longer be withdrawn")
    updated = msgspec.structs.replace(claim, status="withdrawn")
    db.put("claims", claim.claim_id, updated)
    return updated


@tool(ToolKind.WRITE)
def add_driver(
    db: Database,
    policy_id: str,
    first_name: str,
    last_name: str,
    birth_date: str,
    license_number: str,
    relationship: Relationship,
) -> dict[str, Any]:
    """Add a driver to an active auto policy; the premium rises by the quoted change.

    Args:
        policy_id: The auto policy number, e.g. "AUT-4829301".
        first_name: The driver's first name, e.g. "Maya".
        last_name: The driver's last name, e.g. "Lee".
        birth_date: The driver's date of birth, as YYYY-MM-DD, e.g. "2007-09-14".
        license_number: The driver's license number, e.g. "D4829301".
        relationship: How the driver is related to the policyholder, e.g. "child".
    """
    policy, age = _driver_policy(db, policy_id, birth_date)
    number = license_number.strip().upper()
    if not (first_name.strip() and last_name.strip() and number):
        raise ToolError("first_name, last_name and license_number are required")
    if any(d.license_number == number for d in policy.drivers):
        raise ToolError(f"a driver with license {number} is already on policy {policy.policy_id}")
    if len(policy.drivers) >= MAX_DRIVERS:
        raise ToolError(f"policy {policy.policy_id} already lists {MAX_DRIVERS} drivers")
    _, charge = driver_charge(policy, age)
    driver = Driver(
        first_name.strip(),
        last_name.strip(),
        parse_date(birth_date).isoformat(),
        number,
        relationship,
    )
    updated = msgspec.structs.replace(
        policy, drivers=(*policy.drivers, driver), premium=money(policy.premium + charge)
    )
    db.put("policies", policy.policy_id, updated)
    return {**policy_view(updated), "premium_change": charge}


@tool(ToolKind.WRITE)
def add_scheduled_item(
    db: Database, policy_id: str, category: Category, value: float
) -> dict[str, Any]:
    """Schedule a valuable item on an active home policy; the premium rises by the quoted change.

    Args:
        policy_id: The home policy number, e.g. "HOM-4829301".
        category: The item's category, e.g. "jewelry".
        value: The appraised value in dollars, e.g. 8400.
    """
    policy, annual, charge = _item_charge(db, policy_id, category, value)
    item = ScheduledItem(
        item_id(policy.policy_id, len(policy.scheduled_items) + 1), category, money(value), annual
    )
    updated = msgspec.structs.replace(
        policy,
        scheduled_items=(*policy.scheduled_items, item),
        premium=money(policy.premium + charge),
    )
    db.put("policies", policy.policy_id, updated)
    return {**policy_view(updated), "premium_change": charge}


@tool(ToolKind.WRITE)
def cancel_policy(
    db: Database, policy_id: str, reason: CancelReason, refund_payment_method_id: str
) -> dict[str, Any]:
    """Cancel an active policy today and refund the quoted amount (see quote_cancellation).

    The refund goes to the payment method on file or to a gift card of the policyholder; gift
    cards are credited at once, other refunds take 5 to 7 business days.

    Args:
        policy_id: The policy number, e.g. "AUT-4829301".
        reason: Why the policyholder cancels: "switching insurers", "sold the insured property"
            or "other".
        refund_payment_method_id: Where the refund goes, e.g. "credit_card_0000000".
    """
    policy = load_policy(db, policy_id)
    require_active(policy, "can be cancelled")
    user = load_user(db, policy.user_id)
    method = owned_method(user, refund_payment_method_id)
    if method.source != "gift_card" and method.id != policy.payment_method_id:
        raise ToolError("refunds go to the payment method on file or to a gift card")
    refund = cancellation_quote(policy).refund
    payments = policy.payments
    if refund > 0:
        payments = (*payments, Payment("refund", refund, method.id, TODAY.isoformat()))
        settle(db, user, method, -refund)
    updated = msgspec.structs.replace(
        policy,
        status=CANCELLED,
        cancel_reason=reason,
        cancelled_on=TODAY.isoformat(),
        refund=refund,
        payments=payments,
    )
    db.put("policies", policy.policy_id, updated)
    return policy_view(updated)


@tool(ToolKind.WRITE)
def make_payment(
    db: Database, policy_id: str, payment_method_id: str, amount: float
) -> dict[str, Any]:
    """Pay toward an active policy's balance due, with one of the policyholder's payment methods.

    Args:
        policy_id: The policy number, e.g. "HOM-4829301".
        payment_method_id: The payment method, e.g. "paypal_0000000".
        amount: The amount in dollars, above $0 and at most the balance due, e.g. 412.5.
    """
    policy = load_policy(db, policy_id)
    require_active(policy, "take payments")
    amount = money(amount)
    if amount <= 0:
        raise ToolError("amount must be above $0")
    if amount > policy.balance_due:
        raise ToolError(
            f"amount ${amount:,.2f} is above the balance due ${policy.balance_due:,.2f}"
        )
    user = load_user(db, policy.user_id)
    method = owned_method(user, payment_method_id)
    settle(db, user, method, amount)
    updated = msgspec.structs.replace(
        policy,
        paid=money(policy.paid + amount),
        payments=(*policy.payments, Payment("payment", amount, method.id, TODAY.isoformat())),
    )
    db.put("policies", policy.policy_id, updated)
    return policy_view(updated)


@tool(ToolKind.WRITE)
def update_policy_payment_method(
    db: Database, policy_id: str, payment_method_id: str
) -> dict[str, Any]:
    """Change the payment method on file of an active policy (future payments and refunds).

    Args:
        policy_id: The policy number, e.g. "AUT-4829301".
        payment_method_id: The new payment method, e.g. "credit_card_0000000"; it must differ
            from the current one.
    """
    policy = load_policy(db, policy_id)
    require_active(policy, "can change their payment method")
    user = load_user(db, policy.user_id)
    method = owned_method(user, payment_method_id)
    if method.id == policy.payment_method_id:
        raise ToolError("the new payment method is the one already on file")
    updated = msgspec.structs.replace(policy, payment_method_id=method.id)
    db.put("policies", policy.policy_id, updated)
    return policy_view(updated)


update_mailing_address = kit_tools.address_tool(
    "update_mailing_address",
    "Change a policyholder's mailing address (insured properties keep theirs).",
)
