"""Telehealth task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common``
holds the intents' base class and the appointment and prescription helpers the themes
share; ``appointments`` books, moves and cancels visits, ``prescriptions`` refills and
renews.
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
from tau_sim.domains.telehealth.intents.prescriptions import (
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
]
