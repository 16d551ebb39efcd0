"""Airline task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common`` holds
the intents' base class and the helpers the themes share; ``bookings`` books, reports
and corrects, ``changes`` changes flights, cabins and bags, ``cancellations`` cancels
and compensates.
"""

from __future__ import annotations

from tau_sim.domains.airline.intents.bookings import (
    BookFlight,
    CorrectPassengerBirthDate,
    FlightStatusInquiry,
)
from tau_sim.domains.airline.intents.cancellations import (
    CancelBasicEconomyRefused,
    CancelReservation,
    CompensationOverCapTransfer,
    DelayCompensation,
)
from tau_sim.domains.airline.intents.changes import (
    AddBaggage,
    ChangeFlight,
    ChangeFlightAndAddBag,
    UpgradeCabin,
)
from tau_sim.simulator.world import Intent

__all__ = ["INTENTS"]

INTENTS: list[Intent] = [
    BookFlight(),
    ChangeFlight(),
    UpgradeCabin(),
    AddBaggage(),
    CancelReservation(),
    DelayCompensation(),
    CancelBasicEconomyRefused(),
    CompensationOverCapTransfer(),
    ChangeFlightAndAddBag(),
    FlightStatusInquiry(),
    CorrectPassengerBirthDate(),
]
