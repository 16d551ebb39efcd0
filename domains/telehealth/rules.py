"""The figures of the telehealth policy: the late fee of a visit cancelled or moved late.

The intents use them to compute the gold path of each task, and the policy states the same
numbers.
"""

from __future__ import annotations

from tau_sim.domains.telehealth.catalog import IN_PERSON, VIDEO

LATE_FEES: dict[str, float] = {VIDEO: 35.0, IN_PERSON: 60.0}
"""The late fee of a visit cancelled or moved less than 24 hours before it starts."""

PHRASINGS: dict[str, tuple[str, ...]] = {
    # the policy: "say that you cannot share or change it" (a bare "cannot" is in any refusal)
    "cannot": (
        "cannot share",
        "cannot change",
        "cannot cancel",
        "cannot access",
        "cannot discuss",
        "cannot give",
    ),
}
"""The ways of saying a required output that count (``Domain.phrasings``)."""
