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

from tau_sim.domains.insurance.factory.claims import (
    ClaimStatus,
    ClaimToHuman,
    CoverageQuestion,
    ExcludedClaimRefusal,
    FileClaim,
    LateClaimRefusal,
    WithdrawClaim,
)
from tau_sim.domains.insurance.factory.drivers import (
    AddDriver,
    AddDriverAndPay,
    NonHouseholdDriverRefusal,
)
from tau_sim.domains.insurance.factory.hard_claims import (
    DescribedClaimStatus,
    DescribedClaimWithdrawal,
    DisprovenCoverage,
    DisprovenForeignClaim,
    DisprovenPayment,
    ExpiredPolicyClaim,
)
from tau_sim.domains.insurance.factory.hard_long import HouseholdUpdate, ScheduleCollection
from tau_sim.domains.insurance.factory.hard_mixed import (
    DriversAndFriend,
    RecentAndLateClaims,
    StormClaims,
)
from tau_sim.domains.insurance.factory.hard_policies import BackdatedCoverage, OnePaymentMethod
from tau_sim.domains.insurance.factory.policies import (
    AddScheduledItem,
    CancelHomeAndFileAutoClaim,
    CancelPolicy,
    MakePayment,
    SwitchPaymentAndAddItem,
)
from tau_sim.simulator.world import Intent

__all__ = ["INTENTS"]

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
