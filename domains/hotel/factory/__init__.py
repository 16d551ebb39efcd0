"""Hotel task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common`` holds
the intents' base class and the reservation helpers the themes share; ``bookings``
books stays and adds to them, ``changes`` moves dates and upgrades rooms,
``cancellations`` cancels and compensates. The hard tier: ``hard_search`` (guests who
describe their stays; conditional, later and long requests), ``hard_claims`` (claims the
records disprove), ``hard_mixed`` (allowed requests beside a refused one).
"""

from __future__ import annotations

from tau_sim.domains.hotel.factory.bookings import AddSpecialRequest, BookStay, RedeemPointsNight
from tau_sim.domains.hotel.factory.cancellations import (
    BadStayCompensationTransfer,
    CancellationTermsInquiry,
    CancelStay,
    NonRefundableRefundRefused,
    StayGoodwill,
)
from tau_sim.domains.hotel.factory.changes import ChangeDates, ChangeDatesAndRequest, UpgradeRoom
from tau_sim.domains.hotel.factory.hard_claims import (
    BlueMemberRateClaim,
    LateCancellationClaim,
    NeverCleanedClaim,
)
from tau_sim.domains.hotel.factory.hard_mixed import (
    CancelMineAndFriends,
    NonRefundableKeepsDates,
    PointsOnTwoStays,
)
from tau_sim.domains.hotel.factory.hard_search import (
    MoveDescribedStay,
    StayOverhaul,
    TwoStaysReworked,
)
from tau_sim.simulator.world import Intent

__all__ = ["INTENTS"]

INTENTS: list[Intent] = [
    BookStay(),
    ChangeDates(),
    UpgradeRoom(),
    CancelStay(),
    AddSpecialRequest(),
    RedeemPointsNight(),
    StayGoodwill(),
    ChangeDatesAndRequest(),
    NonRefundableRefundRefused(),
    BadStayCompensationTransfer(),
    CancellationTermsInquiry(),
    MoveDescribedStay(),
    StayOverhaul(),
    TwoStaysReworked(),
    NeverCleanedClaim(),
    LateCancellationClaim(),
    BlueMemberRateClaim(),
    NonRefundableKeepsDates(),
    PointsOnTwoStays(),
    CancelMineAndFriends(),
]
