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

from tau_sim.domains.airline.factory.bookings import (
    BookFlight,
    CorrectPassengerBirthDate,
    FlightStatusInquiry,
)
from tau_sim.domains.airline.factory.cancellations import (
    CancelBasicEconomyRefused,
    CancelOthersReservationRefused,
    CancelReservation,
    CompensationOverCapTransfer,
    DelayCompensation,
)
from tau_sim.domains.airline.factory.changes import (
    AddBaggage,
    ChangeFlight,
    ChangeFlightAndAddBag,
    UpgradeCabin,
)
from tau_sim.domains.airline.factory.hard_disproven import (
    DepartedTodayCancel,
    DisprovenCancelledRefund,
    DisprovenDelayCompensation,
)
from tau_sim.domains.airline.factory.hard_later import ChangeWithLaterExtras, MoveBagBetweenTrips
from tau_sim.domains.airline.factory.hard_mixed import (
    BasicBagsChangeRefused,
    ChangeAndBasicRefundRefused,
    FamilyFixWithRefusals,
)
from tau_sim.domains.airline.factory.hard_search import FamilyTripOverhaul, SearchChangeFlight
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
