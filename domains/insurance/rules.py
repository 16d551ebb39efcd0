"""The figures of the insurance policy: what each loss is paid from, exclusions, rates, limits.

The tools enforce the database's limits (``MAX_ITEM_VALUE``, ``MIN_DRIVER_AGE``); the rest are the
agent's to follow, and the intents use them to compute the gold path of each task.
"""

from __future__ import annotations

LOSS_COVERAGE: dict[tuple[str, str], str] = {
    ("auto", "collision"): "collision",
    ("auto", "theft"): "comprehensive",
    ("auto", "vandalism"): "comprehensive",
    ("auto", "hail"): "comprehensive",
    ("auto", "glass"): "comprehensive",
    ("auto", "animal collision"): "comprehensive",
    ("auto", "flood"): "comprehensive",
    ("auto", "mechanical breakdown"): "comprehensive",
    ("home", "fire"): "dwelling",
    ("home", "wind"): "dwelling",
    ("home", "hail"): "dwelling",
    ("home", "water damage"): "dwelling",
    ("home", "theft"): "personal property",
    ("home", "flood"): "dwelling",
    ("home", "earthquake"): "dwelling",
    ("home", "mold"): "dwelling",
}
"""(policy kind, loss type) -> the coverage a claim for it is paid from (an endorsement named
after the loss type, when the policy has one, takes its place)."""

HOME_EXCLUSIONS: tuple[str, ...] = ("flood", "earthquake", "mold")
"""Losses a home policy excludes unless an endorsement adds them back."""

ENDORSABLE: tuple[str, ...] = ("flood", "earthquake")
"""Home exclusions an endorsement (a coverage of the same name) can remove."""

RELATIONSHIPS: tuple[str, ...] = ("spouse", "partner", "child", "parent", "sibling")
"""Household members who may be added as drivers."""

NON_HOUSEHOLD: tuple[str, ...] = ("friend", "coworker", "neighbor")
"""Relationships the add-driver tool accepts but the policy does not allow."""

ITEM_CATEGORIES: dict[str, float] = {
    "jewelry": 0.018,
    "fine art": 0.009,
    "electronics": 0.015,
    "musical instrument": 0.011,
    "collectibles": 0.01,
    "bicycle": 0.02,
}
"""Scheduled-item categories and their annual premium rate (a share of the appraised value)."""

MAX_ITEM_VALUE = 100_000.0
"""The highest appraised value one scheduled item may have."""

DRIVER_RATES: tuple[tuple[int, float], ...] = ((21, 1100.0), (25, 700.0), (70, 320.0), (200, 450.0))
"""(age below which, annual surcharge in dollars) for an added driver."""

MIN_DRIVER_AGE = 16
"""The youngest age at which a driver can be listed."""

FILING_WINDOW_DAYS = 60
"""A claim must be reported within this many days of the loss."""

HUMAN_CLAIM_THRESHOLD = 25_000.0
"""Claims estimated above this amount are handled by a human adjuster."""


def driver_rate(age: int) -> float:
    """The annual surcharge of an added driver of ``age``."""
    return next(rate for below, rate in DRIVER_RATES if age < below)


PHRASINGS: dict[str, tuple[str, ...]] = {
    # the policy: "Only active policies can have claims filed"
    "cannot be filed": (
        "cannot be filed",
        "cannot file",
        "can only be filed",
        "can be filed only",
        "only active policies can have claims filed",
        "claims can only be filed",
        "not able to file",
        "unable to file",
    ),
    # the policy: "explain that only household members can be added"
    "cannot be added": (
        "cannot be added",
        "only household members can be added",
        "only household members may be added",
        "cannot add",
        "can only add household members",
    ),
}
"""The ways of saying a required output that count (``Domain.phrasings``)."""
