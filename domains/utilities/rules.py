"""The figures of the utilities policy: plan lengths, the smallest instalment, credits, waivers.

The tools do not apply these (following the policy is the agent's job; the billing system's own
limit, ``data.PLAN_SYSTEM_MAX_MONTHS``, is the tool's); the intents use them to compute the gold
path of each task, and the policy states the same numbers.
"""

from __future__ import annotations

PLAN_MIN_MONTHS = 3
PLAN_MAX_MONTHS = 12
"""A payment plan spreads the balance over 3 to 12 monthly instalments (policy)."""

PLAN_MIN_INSTALMENT = 25.0
"""The smallest monthly instalment of a payment plan (policy)."""

CREDIT_MIN_HOURS = 12
"""An outage on file earns a credit only when it cut the supply this many hours or more."""

WAIVER_CUTOFF = "2024-11-14"
"""A late fee is waived once in any 12 months: not when the last waiver is after this day."""


def longest_plan(balance: float) -> int:
    """The most months a plan on ``balance`` may run: instalments of $25 or more, at most 12."""
    months = int(balance // PLAN_MIN_INSTALMENT)
    while months > 0 and balance / months < PLAN_MIN_INSTALMENT:
        months -= 1
    return min(months, PLAN_MAX_MONTHS)
