"""Insurance task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common``
holds the intents' base classes and the policy, claim and driver helpers the themes share;
``claims`` files, follows and refuses claims, ``drivers`` adds drivers, ``policies``
schedules items, pays and cancels (a home policy beside an auto claim). The hard tier:
``hard_claims`` (claims and policies the user describes or misremembers), ``hard_mixed``
(several losses or drivers, one part refused), ``hard_long`` (three or four writes with a
condition) and ``hard_policies`` (a start date the user wants moved, one payment method for two
policies).
"""

from __future__ import annotations

from tau_sim.domains.insurance.intents.claims import (
    ClaimStatus,
    ClaimToHuman,
    CoverageQuestion,
    ExcludedClaimRefusal,
    FileClaim,
    LateClaimRefusal,
    WithdrawClaim,
)
from tau_sim.domains.insurance.intents.drivers import (
    AddDriver,
    AddDriverAndPay,
    NonHouseholdDriverRefusal,
)
from tau_sim.domains.insurance.intents.hard_claims import (
    DescribedClaimStatus,
    DescribedClaimWithdrawal,
    DisprovenCoverage,
    DisprovenForeignClaim,
    DisprovenPayment,
    ExpiredPolicyClaim,
)
from tau_sim.domains.insurance.intents.hard_long import HouseholdUpdate, ScheduleCollection
from tau_sim.domains.insurance.intents.hard_mixed import (
    DriversAndFriend,
    RecentAndLateClaims,
    StormClaims,
)
from tau_sim.domains.insurance.intents.hard_policies import BackdatedCoverage, OnePaymentMethod
from tau_sim.domains.insurance.intents.policies import (
    AddScheduledItem,
    CancelHomeAndFileAutoClaim,
    CancelPolicy,
    MakePayment,
    SwitchPaymentAndAddItem,
)
from tau_sim.simulator.world import Intent

__all__ = ["INTENTS", "PHRASINGS"]

INTENTS: list[Intent] = [
    CoverageQuestion(),
    FileClaim(),
    ClaimStatus(),
    WithdrawClaim(),
    AddDriver(),
    AddDriverAndPay(),
    AddScheduledItem(),
    SwitchPaymentAndAddItem(),
    CancelPolicy(),
    MakePayment(),
    CancelHomeAndFileAutoClaim(),
    ExcludedClaimRefusal(),
    LateClaimRefusal(),
    ClaimToHuman(),
    NonHouseholdDriverRefusal(),
    DescribedClaimWithdrawal(),
    DescribedClaimStatus(),
    DisprovenForeignClaim(),
    DisprovenCoverage(),
    ExpiredPolicyClaim(),
    DisprovenPayment(),
    StormClaims(),
    DriversAndFriend(),
    RecentAndLateClaims(),
    HouseholdUpdate(),
    ScheduleCollection(),
    BackdatedCoverage(),
    OnePaymentMethod(),
]

PHRASINGS: dict[str, tuple[str, ...]] = {
    # the policy: "Only active policies can have claims filed"
    "cannot be filed": (
        "cannot be filed",
        "cannot file",
        "can only be filed",
        "can be filed only",
        "only active policies can have claims filed",
        "claims can only be filed",
        "not able to file",
        "unable to file",
    ),
    # the policy: "explain that only household members can be added"
    "cannot be added": (
        "cannot be added",
        "only household members can be added",
        "only household members may be added",
        "cannot add",
        "can only add household members",
    ),
}
"""The ways of saying a required output that count (``Domain.phrasings``)."""
