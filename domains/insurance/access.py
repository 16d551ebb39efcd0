"""Lookups, quotes and hard-rule checks shared by the insurance tools (they raise ``ToolError``)."""

from __future__ import annotations

import datetime
from typing import Any

import msgspec

from tau_sim.domains.insurance.data import ACTIVE, TODAY, Claim, Policy, User, days, parse_date
from tau_sim.domains.insurance.rules import ITEM_CATEGORIES, LOSS_COVERAGE, driver_rate
from tau_sim.domains.kit.calc import parse_day
from tau_sim.domains.kit.lookup import code_key, loader
from tau_sim.domains.kit.payments import money
from tau_sim.simulator.world import ToolError

load_user = loader("users", "user", User)
load_policy = loader("policies", "policy", Policy, code_key)
load_claim = loader("claims", "claim", Claim, code_key)


def date_arg(text: str, field: str) -> datetime.date:
    """An ISO date argument; ``ToolError`` naming ``field`` when it is not one."""
    try:
        return parse_day(text, field)
    except ValueError as exc:
        raise ToolError(str(exc)) from None


def require_active(policy: Policy, action: str) -> None:
    """Refuse unless the policy is active."""
    if policy.status != ACTIVE:
        raise ToolError(
            f"policy {policy.policy_id} is {policy.status}: only active policies {action}"
        )


def require_kind(policy: Policy, kind: str, action: str) -> None:
    """Refuse unless the policy is of ``kind`` ("auto" or "home")."""
    if policy.kind != kind:
        raise ToolError(
            f"policy {policy.policy_id} is a {policy.kind} policy: {action} needs {kind}"
        )


def days_left(policy: Policy) -> int:
    """Days from today to the end of the policy's term (0 once it has ended)."""
    return max(0, (parse_date(policy.end_date) - TODAY).days)


def prorated(annual: float, policy: Policy) -> float:
    """The part of an annual amount that falls in the rest of the term (days left / 365)."""
    return money(annual * days_left(policy) / 365)


def coverage_for(policy: Policy, loss_type: str) -> str:
    """The coverage a claim for ``loss_type`` is paid from; ``ToolError`` when none applies."""
    mapped = LOSS_COVERAGE.get((policy.kind, loss_type))
    if mapped is None:
        raise ToolError(f"{loss_type!r} is not a loss type of {policy.kind} policies")
    if policy.coverage(loss_type) is not None:  # an endorsement named after the peril
        return loss_type
    if policy.coverage(mapped) is None:
        raise ToolError(f"policy {policy.policy_id} has no {mapped} coverage")
    return mapped


class CancellationQuote(msgspec.Struct, frozen=True):
    """What cancelling a policy today returns: the unearned premium less the fee."""

    policy_id: str
    term_days: int
    days_left: int
    premium: float
    paid: float
    unearned_premium: float
    cancellation_fee: float
    refund: float


def cancellation_quote(policy: Policy) -> CancellationQuote:
    """The refund of cancelling ``policy`` today; never more than what was paid."""
    term = days(policy.start_date, policy.end_date)
    left = days_left(policy)
    unearned = money(policy.premium * left / term)
    earned = policy.premium - unearned
    refund = money(max(0.0, policy.paid - earned - policy.cancellation_fee))
    return CancellationQuote(
        policy.policy_id,
        term,
        left,
        policy.premium,
        policy.paid,
        unearned,
        policy.cancellation_fee,
        min(refund, policy.paid),
    )


def driver_charge(policy: Policy, age: int) -> tuple[float, float]:
    """(annual surcharge, charge for the rest of the term) of adding a driver of ``age``."""
    annual = driver_rate(age)
    return annual, prorated(annual, policy)


def item_charge(policy: Policy, category: str, value: float) -> tuple[float, float]:
    """(annual premium, charge for the rest of the term) of scheduling an item."""
    annual = money(value * ITEM_CATEGORIES[category])
    return annual, prorated(annual, policy)


def policy_view(policy: Policy) -> dict[str, Any]:
    """A policy as the agent sees it, with its balance due and the days left in its term."""
    view: dict[str, Any] = msgspec.to_builtins(policy)
    view["balance_due"] = policy.balance_due
    view["days_left_in_term"] = days_left(policy)
    return view
