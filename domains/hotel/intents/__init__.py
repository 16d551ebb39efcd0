"""Hotel task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common`` holds
the intents' base class and the reservation helpers the themes share; ``bookings``
books stays and adds to them, ``changes`` moves dates and upgrades rooms,
``cancellations`` cancels and compensates. The hard tier: ``hard_search`` (guests who
describe their stays; conditional, later and long requests), ``hard_claims`` (claims the
records disprove), ``hard_mixed`` (allowed requests beside a refused one).
"""

from __future__ import annotations

from tau_sim.domains.hotel.intents.bookings import AddSpecialRequest, BookStay, RedeemPointsNight
from tau_sim.domains.hotel.intents.cancellations import (
    BadStayCompensationTransfer,
    CancellationTermsInquiry,
    CancelStay,
    NonRefundableRefundRefused,
    StayGoodwill,
)
from tau_sim.domains.hotel.intents.changes import ChangeDates, ChangeDatesAndRequest, UpgradeRoom
from tau_sim.domains.hotel.intents.hard_claims import (
    BlueMemberRateClaim,
    LateCancellationClaim,
    NeverCleanedClaim,
)
from tau_sim.domains.hotel.intents.hard_mixed import (
    CancelMineAndFriends,
    NonRefundableKeepsDates,
    PointsOnTwoStays,
)
from tau_sim.domains.hotel.intents.hard_search import (
    MoveDescribedStay,
    StayOverhaul,
    TwoStaysReworked,
)
from tau_sim.simulator.world import Intent

__all__ = ["INTENTS", "PHRASINGS"]

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

PHRASINGS: dict[str, tuple[str, ...]] = {
    # the policy: "say you cannot change or cancel it"
    "cannot cancel": (
        "cannot cancel",
        "cannot change or cancel",
        "cannot be cancelled",
        "unable to cancel",
        "not able to cancel",
    ),
}
"""The ways of saying a required output that count (``Domain.phrasings``)."""
