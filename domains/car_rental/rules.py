"""The figures of the car-rental policy: rates, add-on prices, fees, caps and age limits.

The tools charge what the booking holds (its rate, its add-ons, its surcharge flag, the one-way
fee of its locations); choosing those (who pays the young-driver surcharge, what a cancellation
refunds, what a late return costs, what a damage report charges) is the agent's job, and the
intents use the same figures to compute each task's gold path. The policy states them too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from tau_sim.domains.kit.payments import money

CLASSES: dict[str, float] = {
    "economy": 42.0,
    "compact": 48.0,
    "midsize": 56.0,
    "fullsize": 64.0,
    "suv": 82.0,
    "minivan": 88.0,
    "premium": 112.0,
    "luxury": 148.0,
}
"""Vehicle classes, cheapest first, with their base daily rate (city branches)."""

PREMIUM_CLASSES: tuple[str, ...] = ("premium", "luxury")
"""Classes a driver under ``PREMIUM_MIN_AGE`` may not rent."""

AIRPORT_FACTOR = 1.15
"""Airport branches charge this multiple of the base rate (rounded to whole dollars)."""

ADD_ONS: dict[str, float] = {
    "collision_damage_waiver": 19.0,
    "liability_protection": 14.0,
    "gps": 9.0,
    "child_seat": 11.0,
}
"""Add-ons and their price per rental day."""

INSURANCE: tuple[str, ...] = ("collision_damage_waiver", "liability_protection")
"""The add-ons that are insurance (they can be added to an existing booking)."""

YOUNG_DRIVER_SURCHARGE = 27.0
"""Per rental day, when the driver is under ``YOUNG_DRIVER_AGE`` on the pick-up date."""

MIN_AGE = 21
PREMIUM_MIN_AGE = 25
YOUNG_DRIVER_AGE = 25

SAME_CITY_FEE = 25.0
OTHER_CITY_FEE = 150.0
"""One-way fees: return at another branch of the same city, or in another city."""

LATE_FEE_PER_HOUR = 15.0
"""Late return: per started hour, capped at one day's vehicle rate of the booking."""

MAX_LATE_HOURS = 23
"""A return later than this is an extension, not a late return."""

FREE_CANCELLATION_HOURS = 48
"""Cancelled at least this long before the pick-up time: full refund; later: one day's rate kept."""

DAMAGE_LIMIT = 500.0
"""Damage estimated above this (or with an injury or another vehicle) goes to a human agent."""

MAX_RENTAL_DAYS = 30

PICKUP_TIME = dt.time(10, 0)
"""Pick-ups and returns happen at 10:00 on the booked dates."""


def one_way_fee(pickup_city: str, pickup: str, return_city: str, returned: str) -> float:
    """The one-way fee of a rental picked up at ``pickup`` and returned at ``returned``."""
    if pickup == returned:
        return 0.0
    return SAME_CITY_FEE if pickup_city == return_city else OTHER_CITY_FEE


def daily_cost(rate: float, add_ons: Sequence[str], young_driver: bool) -> float:
    """What one rental day costs: the vehicle rate, the add-ons and the surcharge."""
    extras = sum(ADD_ONS[a] for a in add_ons)
    return money(rate + extras + (YOUNG_DRIVER_SURCHARGE if young_driver else 0.0))


def late_fee(hours: int, rate: float) -> tuple[float, float]:
    """(uncapped fee, fee due) of a return ``hours`` late for a booking at ``rate`` a day."""
    uncapped = money(LATE_FEE_PER_HOUR * hours)
    return uncapped, min(uncapped, rate)
