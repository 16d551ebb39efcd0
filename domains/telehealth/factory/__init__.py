"""Telehealth task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common``
holds the intents' base class and the appointment and prescription helpers the themes
share; ``appointments`` books, moves and cancels visits, ``prescriptions`` refills and
renews; the hard tier's ``hard_visits`` (visits the patient describes, a fee claim, a fallback
provider), ``hard_rx`` (prescriptions among several, a controlled one refused, a supply said to
be out, a need raised later) and ``hard_long`` (three to five writes).
"""

from __future__ import annotations

from tau_sim.domains.telehealth.factory.appointments import (
    BookAppointment,
    CancelAppointment,
    CoverageInquiry,
    LateCancellation,
    NewInsuranceAndBook,
    PrivacyRefusal,
    RescheduleAppointment,
)
from tau_sim.domains.telehealth.factory.hard_long import (
    InsuranceAndTwoVisits,
    RebookElsewhere,
    WeekCleared,
)
from tau_sim.domains.telehealth.factory.hard_rx import (
    LaterRefill,
    PharmacyMoveAll,
    RanOutDisproven,
    RefillAndControlledMixed,
)
from tau_sim.domains.telehealth.factory.hard_visits import (
    BookWithFallback,
    CancelWithRelativeMixed,
    DescribedReschedule,
    FeeClaimDisproven,
)
from tau_sim.domains.telehealth.factory.prescriptions import (
    ControlledRefillTransfer,
    EarlyRefillRefused,
    RefillPrescription,
    RenewalRequest,
    RescheduleAndRefill,
    SwitchPharmacyAndRefill,
)
from tau_sim.simulator.world import Intent

__all__ = ["INTENTS"]

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
