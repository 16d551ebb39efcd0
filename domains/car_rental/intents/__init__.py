"""Car-rental task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common``
holds the intents' base class and the booking helpers the themes share; ``bookings``
books and upgrades (or refuses to, by the driver's age), ``changes`` extends, cancels,
moves and returns late, ``damage`` reports damage. The hard tier: ``hard_search`` (users who
describe their bookings; conditional, later and long requests), ``hard_claims`` (claims the
records disprove), ``hard_mixed`` (an allowed request beside a refused one).
"""

from __future__ import annotations

from tau_sim.domains.car_rental.intents.bookings import (
    BookCar,
    PremiumUnder25Refused,
    Under21Refused,
    UpgradeClass,
)
from tau_sim.domains.car_rental.intents.changes import (
    CancelBooking,
    ChangeReturnLocation,
    ExtendAndAddInsurance,
    ExtendRental,
    LateReturn,
)
from tau_sim.domains.car_rental.intents.damage import (
    DamageDisputeTransfer,
    LargeDamageTransfer,
    ReportMinorDamage,
)
from tau_sim.domains.car_rental.intents.hard_claims import (
    LateCancellationClaim,
    WaiverClaimDisproven,
    YoungDriverPremiumClaim,
)
from tau_sim.domains.car_rental.intents.hard_mixed import (
    BookForMeNotKid,
    CancelMineAndFriends,
    LateReturnAndBigDamage,
)
from tau_sim.domains.car_rental.intents.hard_search import (
    ExtendDescribedRental,
    TripOverhaul,
    TwoTripsReworked,
)
from tau_sim.simulator.world import Intent

__all__ = ["INTENTS"]

INTENTS: list[Intent] = [
    BookCar(),
    ExtendRental(),
    ExtendAndAddInsurance(),
    CancelBooking(),
    ChangeReturnLocation(),
    LateReturn(),
    ReportMinorDamage(),
    UpgradeClass(),
    PremiumUnder25Refused(),
    Under21Refused(),
    LargeDamageTransfer(),
    DamageDisputeTransfer(),
    ExtendDescribedRental(),
    TripOverhaul(),
    TwoTripsReworked(),
    YoungDriverPremiumClaim(),
    WaiverClaimDisproven(),
    LateCancellationClaim(),
    CancelMineAndFriends(),
    LateReturnAndBigDamage(),
    BookForMeNotKid(),
]
