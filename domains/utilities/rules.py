"""The figures of the utilities policy: payment-plan lengths and the smallest instalment.

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
