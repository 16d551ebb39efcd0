"""The figures of the banking policy: the dispute window and the fee-reversal cap and period.

The tools do not apply these (following the policy is the agent's job); the intents use them to
compute the gold path of each task, and the policy states the same numbers.
"""

from __future__ import annotations

DISPUTE_WINDOW_DAYS = 60
"""A card transaction can be disputed up to this many days after it was posted (policy)."""

FEE_REVERSAL_CAP = 40.0
"""The largest fee the agent may reverse (policy)."""

FEE_REVERSAL_PERIOD_DAYS = 365
"""At most one fee reversal per customer in this many days (policy)."""
