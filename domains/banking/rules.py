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

PHRASINGS: dict[str, tuple[str, ...]] = {
    # a dispute's status as get_dispute_details gives it, said as a status (not any "open")
    "open": (
        "is open",
        "still open",
        "remains open",
        "stays open",
        "currently open",
        "as open",
        "open status",
        "under review",
        "being reviewed",
        "under investigation",
        "being investigated",
        "in progress",
        "still pending",
        "not yet resolved",
        "not been resolved",
    ),
    "refunded": (
        "refunded",
        "refund was issued",
        "credited back",
        "money back",
        "resolved in your favor",
        "resolved in your favour",
    ),
    "declined": (
        "declined",
        "denied",
        "rejected",
        "not in your favor",
        "not in your favour",
    ),
}
"""The ways of saying a required output that count (``Domain.phrasings``)."""
