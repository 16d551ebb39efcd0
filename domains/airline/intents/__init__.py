"""Airline task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common`` holds
the intents' base class and the helpers the themes share, ``finding`` and ``moves`` what the
hard tier shares (a trip described without its code, the writes it combines). The base tier:
``bookings`` books, reports and corrects, ``changes`` changes flights, cabins and bags,
``cancellations`` cancels and compensates. The hard tier: ``hard_search`` and ``hard_later``
(trips described, a need raised later), ``hard_mixed`` (an allowed part beside a refused one),
``hard_disproven`` (claims the records disprove).
"""

from __future__ import annotations

from tau_sim.domains.airline.intents.bookings import (
    BookFlight,
    CorrectPassengerBirthDate,
    FlightStatusInquiry,
)
from tau_sim.domains.airline.intents.cancellations import (
    CancelBasicEconomyRefused,
    CancelOthersReservationRefused,
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
from tau_sim.domains.airline.intents.hard_disproven import (
    DepartedTodayCancel,
    DisprovenCancelledRefund,
    DisprovenDelayCompensation,
)
from tau_sim.domains.airline.intents.hard_later import ChangeWithLaterExtras, MoveBagBetweenTrips
from tau_sim.domains.airline.intents.hard_mixed import (
    BasicBagsChangeRefused,
    ChangeAndBasicRefundRefused,
    FamilyFixWithRefusals,
)
from tau_sim.domains.airline.intents.hard_search import FamilyTripOverhaul, SearchChangeFlight
from tau_sim.simulator.world import Intent

__all__ = ["INTENTS", "PHRASINGS"]

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
    CancelOthersReservationRefused(),
    SearchChangeFlight(),
    FamilyTripOverhaul(),
    ChangeWithLaterExtras(),
    MoveBagBetweenTrips(),
    ChangeAndBasicRefundRefused(),
    BasicBagsChangeRefused(),
    FamilyFixWithRefusals(),
    DisprovenDelayCompensation(),
    DisprovenCancelledRefund(),
    DepartedTodayCancel(),
]

PHRASINGS: dict[str, tuple[str, ...]] = {
    # the policy: "Bags can be added to an upcoming reservation, never removed"
    "cannot be removed": (
        "cannot be removed",
        "never removed",
        "never be removed",
        "cannot remove",
        "can only be added",
        "no way to remove",
    ),
    # a flight's status as get_flight_status gives it, in the words a person uses for it
    "scheduled": (
        "scheduled",
        "on schedule",
        "on time",
        "not cancelled",
        "not been cancelled",
        "not delayed",
        "operating normally",
    ),
}
"""The ways of saying a required output that count (``Domain.phrasings``)."""
