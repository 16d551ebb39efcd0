"""The policy's figures as the gold path computes them: refund and credit caps, promotion checks.

The tools do not apply these rules (they are the agent's to follow); intents use them to build
the gold actions and the required outputs.
"""

from __future__ import annotations

import datetime as dt

from tau_sim.domains.food_delivery.data import DELIVERED, NOW, Order, OrderItem, Promotion, User
from tau_sim.domains.kit.calc import minutes_from
from tau_sim.domains.kit.payments import capped, money, share_of

ITEM_REFUND_ORDER_SHARE = 0.5
"""Policy: missing/wrong-item refunds of one order total at most this share of its subtotal."""

ITEM_REFUND_MONTHLY_CAP = 50.0
"""Policy: missing/wrong-item refunds of one customer total at most this much per month."""

LATE_MINUTES = 20
"""Policy: a delivery this many minutes or more after the promised time is late."""

VERY_LATE_MINUTES = 45
"""Policy: a delivery this many minutes or more after the promised time is very late."""

LATE_CREDIT = 5.0
"""Policy: the account credit of a late delivery."""

VERY_LATE_CREDIT = 10.0
"""Policy: the account credit of a very late delivery."""

LATE_CREDIT_MONTHLY_CAP = 20.0
"""Policy: late-delivery credits of one customer total at most this much per month."""

CLAIM_WINDOW_DAYS = 7
"""Policy: item refunds and late-delivery credits are given up to this many days after delivery."""


def in_claim_window(order: Order) -> bool:
    """Whether ``order`` was delivered within the claim window before ``NOW``."""
    if order.status != DELIVERED or not order.delivered_at:
        return False
    delivered = dt.datetime.fromisoformat(order.delivered_at)
    return NOW - delivered <= dt.timedelta(days=CLAIM_WINDOW_DAYS)


def item_refunds(order: Order) -> float:
    """Missing/wrong-item refunds already given on ``order``."""
    return money(sum(r.amount for r in order.refunds if r.kind in ("missing item", "wrong item")))


def item_refund(order: Order, line: OrderItem, user: User) -> float:
    """The refund the policy allows for ``line``: its total, within the order and monthly caps."""
    share = share_of(order.subtotal, ITEM_REFUND_ORDER_SHARE)
    order_left = money(share - item_refunds(order))
    month_left = money(ITEM_REFUND_MONTHLY_CAP - user.item_refunds_this_month)
    return capped(line.line_total, order_left, month_left)


def minutes_late(order: Order) -> int:
    """How many minutes after the promised time ``order`` was delivered (negative when early)."""
    return minutes_from(order.promised_by, order.delivered_at)


def late_tier(order: Order) -> float:
    """The credit the lateness of ``order`` earns before the monthly cap (0 when not late)."""
    late = minutes_late(order)
    if late >= VERY_LATE_MINUTES:
        return VERY_LATE_CREDIT
    return LATE_CREDIT if late >= LATE_MINUTES else 0.0


def late_credit(order: Order, user: User) -> float:
    """The late-delivery credit the policy allows: the tier, within the monthly cap."""
    month_left = money(LATE_CREDIT_MONTHLY_CAP - user.late_credits_this_month)
    return capped(late_tier(order), month_left)


def promotion_problem(promo: Promotion, order: Order, first_order: bool) -> str:
    """Why ``promo`` may not be applied to ``order`` ("" when it may): the first rule it breaks.

    One of "expired", "minimum subtotal", "first order only".
    """
    if promo.expires < NOW.date().isoformat():
        return "expired"
    if order.subtotal < promo.min_subtotal:
        return "minimum subtotal"
    if promo.first_order_only and not first_order:
        return "first order only"
    return ""
