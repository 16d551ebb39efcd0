"""The figures of the airline policy: bag allowances, fees, compensation rates and caps.

The tools do not apply these (following the policy is the agent's job); the intents use them to
compute the gold path of each task, and the policy states the same numbers.
"""

from __future__ import annotations

from tau_sim.domains.kit.payments import money

TIERS: tuple[str, ...] = ("regular", "silver", "gold")
"""Membership tiers, lowest first."""

FREE_BAGS: dict[str, dict[str, int]] = {
    "regular": {"basic_economy": 0, "economy": 1, "business": 2},
    "silver": {"basic_economy": 1, "economy": 2, "business": 3},
    "gold": {"basic_economy": 2, "economy": 3, "business": 4},
}
"""Free checked bags per passenger, by membership tier and cabin."""

BAG_FEE = 50.0
"""Price of each checked bag beyond the free allowance."""

MAX_BAGS_PER_PASSENGER = 5

INSURANCE_PRICE = 30.0
"""Travel insurance, per passenger, bought only at booking."""

CANCELLATION_FEE = 75.0
"""Per passenger, kept when an economy reservation is cancelled without a full-refund reason."""

FREE_CANCELLATION_HOURS = 24

DELAY_THRESHOLD_MINUTES = 180
"""A delay of at least this many minutes makes a flight eligible for compensation."""

DELAY_RATE: dict[str, float] = {"regular": 50.0, "silver": 75.0, "gold": 100.0}
"""Compensation per passenger for a delayed flight, by tier."""

CANCELLED_RATE: dict[str, float] = {"regular": 100.0, "silver": 150.0, "gold": 200.0}
"""Compensation per passenger for a flight the airline cancelled, by tier."""

COMPENSATION_CAP: dict[str, float] = {"regular": 150.0, "silver": 300.0, "gold": 500.0}
"""Most compensation one reservation can receive, by tier."""

MAX_COMPENSATION = 1000.0
"""What the compensation tool accepts at most (above every tier's cap)."""


def free_bags(tier: str, cabin: str, passengers: int) -> int:
    """Free checked bags of a reservation."""
    return FREE_BAGS[tier][cabin] * passengers


def nonfree_bags(tier: str, cabin: str, passengers: int, total: int) -> int:
    """Bags beyond the free allowance among ``total`` bags."""
    return max(0, total - free_bags(tier, cabin, passengers))


def compensation(tier: str, cancelled: bool, passengers: int) -> tuple[float, float]:
    """(uncapped amount, amount due) of the compensation for one disrupted reservation."""
    rate = (CANCELLED_RATE if cancelled else DELAY_RATE)[tier]
    uncapped = money(rate * passengers)
    return uncapped, min(uncapped, COMPENSATION_CAP[tier])


PHRASINGS: dict[str, tuple[str, ...]] = {
    # the policy: "Bags can be added to an upcoming reservation, never removed"
    "cannot be removed": (
        "cannot be removed",
        "never removed",
        "never be removed",
        "cannot remove",
        "can only be added",
        "no way to remove",
    ),
    # a flight's status as get_flight_status gives it, in the words a person uses for it
    "scheduled": (
        "scheduled",
        "on schedule",
        "on time",
        "not cancelled",
        "not been cancelled",
        "not delayed",
        "operating normally",
    ),
}
"""The ways of saying a required output that count (``Domain.phrasings``)."""
