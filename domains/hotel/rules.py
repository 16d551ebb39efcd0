"""The figures of the hotel policy: rate plans, cancellation windows, points and goodwill.

The tools do not apply the policy's rules (following them is the agent's job); the intents use
these figures to compute the gold path of each task, and the policy states the same numbers.
"""

from __future__ import annotations

import datetime as dt

from tau_sim.domains.kit.payments import money

TIERS: tuple[str, ...] = ("blue", "silver", "gold")
"""Loyalty tiers, lowest first."""

ROOM_TYPES: tuple[str, ...] = ("standard", "deluxe", "suite")
"""Room types, cheapest first (an upgrade moves to a later one)."""

FLEXIBLE = "flexible"
NON_REFUNDABLE = "non_refundable"
MEMBER = "member"
RATE_PLANS: tuple[str, ...] = (FLEXIBLE, MEMBER, NON_REFUNDABLE)

PLAN_FACTOR: dict[str, float] = {FLEXIBLE: 1.0, MEMBER: 0.9, NON_REFUNDABLE: 0.85}
"""A plan's nightly price as a share of the room's nightly rate (rounded to cents per night)."""

MEMBER_TIERS: tuple[str, ...] = ("silver", "gold")
"""Tiers that may book the member rate."""

FREE_CANCELLATION_HOURS: dict[str, int] = {FLEXIBLE: 48, MEMBER: 24}
"""Hours before check-in (15:00 on the check-in date) until which cancelling is free."""

CHECK_IN_TIME = dt.time(15, 0)
CHECK_OUT_TIME = dt.time(11, 0)

EARN_PER_NIGHT: dict[str, int] = {"blue": 500, "silver": 750, "gold": 1000}
"""Points earned per night paid in money, by tier (credited after check-out)."""

POINTS_PER_NIGHT: dict[str, int] = {"standard": 20_000, "deluxe": 30_000, "suite": 45_000}
"""Points that pay one night of a room type."""

GOODWILL_PER_NIGHT = 1_000
GOODWILL_CAP = 5_000
"""Goodwill points for a stay with a recorded incident: per night of the stay, capped."""

MAX_GOODWILL = 10_000
"""What the goodwill tool accepts at most (above the policy's cap)."""

MAX_NIGHTS = 14
"""Longest stay one reservation holds."""

SPECIAL_REQUESTS: tuple[str, ...] = (
    "late_checkout",
    "early_checkin",
    "crib",
    "accessible_room",
    "quiet_room",
)


def plan_price(rate: float, plan: str) -> float:
    """The price of one night at nightly ``rate`` on rate ``plan``."""
    return money(rate * PLAN_FACTOR[plan])


def cancellation_deadline(check_in: str, plan: str) -> dt.datetime | None:
    """Until when cancelling is free (None: never, for a non-refundable booking)."""
    hours = FREE_CANCELLATION_HOURS.get(plan)
    if hours is None:
        return None
    start = dt.datetime.combine(dt.date.fromisoformat(check_in), CHECK_IN_TIME)
    return start - dt.timedelta(hours=hours)


def goodwill_points(nights: int) -> tuple[int, int]:
    """(uncapped, due) goodwill points for a stay of ``nights`` nights with an incident."""
    uncapped = GOODWILL_PER_NIGHT * nights
    return uncapped, min(uncapped, GOODWILL_CAP)


PHRASINGS: dict[str, tuple[str, ...]] = {
    # the policy: "say you cannot change or cancel it"
    "cannot cancel": (
        "cannot cancel",
        "cannot change or cancel",
        "cannot be cancelled",
        "unable to cancel",
        "not able to cancel",
    ),
}
"""The ways of saying a required output that count (``Domain.phrasings``)."""
