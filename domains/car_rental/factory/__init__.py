"""Car-rental task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common``
holds the intents' base class and the booking helpers the themes share; ``bookings``
books (or refuses a driver under 21), ``upgrades`` moves a booking to a bigger class (or
refuses a premium one under 25), ``changes`` extends and cancels, ``returns`` moves the
return branch and records late returns, ``damage`` reports damage. The hard tier:
``hard_search`` (users who describe their bookings; conditional, later and long requests),
``hard_claims`` (claims the records disprove), ``hard_mixed`` (an allowed request beside a
refused one).
"""

from __future__ import annotations

from tau_sim.domains.car_rental.factory.bookings import BookCar, Under21Refused
from tau_sim.domains.car_rental.factory.changes import (
    CancelBooking,
    ExtendAndAddInsurance,
    ExtendRental,
)
from tau_sim.domains.car_rental.factory.damage import (
    DamageDisputeTransfer,
    LargeDamageTransfer,
    ReportMinorDamage,
)
from tau_sim.domains.car_rental.factory.hard_claims import (
    LateCancellationClaim,
    WaiverClaimDisproven,
    YoungDriverPremiumClaim,
)
from tau_sim.domains.car_rental.factory.hard_mixed import (
    BookForMeNotKid,
    CancelMineAndFriends,
    LateReturnAndBigDamage,
)
from tau_sim.domains.car_rental.factory.hard_search import (
    ExtendDescribedRental,
    TripOverhaul,
    TwoTripsReworked,
)
from tau_sim.domains.car_rental.factory.returns import ChangeReturnLocation, LateReturn
from tau_sim.domains.car_rental.factory.upgrades import PremiumUnder25Refused, UpgradeClass
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
