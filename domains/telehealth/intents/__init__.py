"""Telehealth task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common``
holds the intents' base class and the appointment and prescription helpers the themes
share; ``appointments`` books, moves and cancels visits, ``prescriptions`` refills and
renews; the hard tier's ``hard_visits`` (visits the patient describes, a fee claim, a fallback
provider), ``hard_rx`` (prescriptions among several, a controlled one refused, a supply said to
be out, a need raised later) and ``hard_long`` (three to five writes).
"""

from __future__ import annotations

from tau_sim.domains.telehealth.intents.appointments import (
    BookAppointment,
    CancelAppointment,
    CoverageInquiry,
    LateCancellation,
    NewInsuranceAndBook,
    PrivacyRefusal,
    RescheduleAppointment,
)
from tau_sim.domains.telehealth.intents.hard_long import (
    InsuranceAndTwoVisits,
    RebookElsewhere,
    WeekCleared,
)
from tau_sim.domains.telehealth.intents.hard_rx import (
    LaterRefill,
    PharmacyMoveAll,
    RanOutDisproven,
    RefillAndControlledMixed,
)
from tau_sim.domains.telehealth.intents.hard_visits import (
    BookWithFallback,
    CancelWithRelativeMixed,
    DescribedReschedule,
    FeeClaimDisproven,
)
from tau_sim.domains.telehealth.intents.prescriptions import (
    ControlledRefillTransfer,
    EarlyRefillRefused,
    RefillPrescription,
    RenewalRequest,
    RescheduleAndRefill,
    SwitchPharmacyAndRefill,
)
from tau_sim.simulator.world import Intent

__all__ = ["INTENTS", "PHRASINGS"]

INTENTS: list[Intent] = [
    BookAppointment(),
    RescheduleAppointment(),
    CancelAppointment(),
    LateCancellation(),
    RefillPrescription(),
    EarlyRefillRefused(),
    ControlledRefillTransfer(),
    PrivacyRefusal(),
    RenewalRequest(),
    CoverageInquiry(),
    NewInsuranceAndBook(),
    RescheduleAndRefill(),
    SwitchPharmacyAndRefill(),
    DescribedReschedule(),
    FeeClaimDisproven(),
    CancelWithRelativeMixed(),
    BookWithFallback(),
    RefillAndControlledMixed(),
    RanOutDisproven(),
    LaterRefill(),
    PharmacyMoveAll(),
    InsuranceAndTwoVisits(),
    WeekCleared(),
    RebookElsewhere(),
]

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
