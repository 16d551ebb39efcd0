"""Utilities task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common``
holds the intents' base class and the supply helpers the themes share; ``bills`` takes
readings, tells and pays bills, ``plans`` sets up payment plans, ``accounts`` switches tariffs
and moves homes, ``supply`` handles outages, gas and disconnection. The hard tier:
``hard_search`` (one of several accounts, described), ``hard_disputes`` (readings and outage
days the records check), ``hard_mixed`` (an allowed request beside a refused one) and
``hard_long`` (four or five writes, a need raised later).

Figures a task requires (a bill's total, a balance, an instalment) are computed by replaying
the gold writes on the fresh database ``sample`` receives (the kit's ``replay_actions``),
so they are what the tools produce.
"""

from __future__ import annotations

from tau_sim.domains.utilities.factory.accounts import MoveHome, MoveOut, SwitchTariff, WaiveExitFee
from tau_sim.domains.utilities.factory.bills import (
    BillInquiry,
    PayBalance,
    ReadingAndBill,
    SubmitReading,
)
from tau_sim.domains.utilities.factory.hard_disputes import (
    DisputeOrReading,
    OutageCreditNotOnFile,
    ReadingClaimMatches,
)
from tau_sim.domains.utilities.factory.hard_long import BillPayAutopay, MoveService
from tau_sim.domains.utilities.factory.hard_mixed import (
    FixedTermClaim,
    OutageCreditsMixed,
    PlanAndLateFeeWaiver,
    PlanMinInstalment,
)
from tau_sim.domains.utilities.factory.hard_search import BillDescribedAccount, PayDescribedAccount
from tau_sim.domains.utilities.factory.plans import (
    PaymentPlanSetup,
    PlanOverLimit,
    ReadingAndPlan,
)
from tau_sim.domains.utilities.factory.supply import (
    GasSmell,
    HardshipDisconnection,
    KnownOutage,
    ReportOutage,
)
from tau_sim.simulator.world import Intent

__all__ = ["INTENTS"]

INTENTS: list[Intent] = [
    SubmitReading(),
    ReadingAndBill(),
    BillInquiry(),
    PayBalance(),
    PaymentPlanSetup(),
    ReadingAndPlan(),
    PlanOverLimit(),
    HardshipDisconnection(),
    SwitchTariff(),
    WaiveExitFee(),
    MoveOut(),
    MoveHome(),
    ReportOutage(),
    KnownOutage(),
    GasSmell(),
    PayDescribedAccount(),
    BillDescribedAccount(),
    ReadingClaimMatches(),
    DisputeOrReading(),
    OutageCreditNotOnFile(),
    PlanAndLateFeeWaiver(),
    OutageCreditsMixed(),
    PlanMinInstalment(),
    FixedTermClaim(),
    MoveService(),
    BillPayAutopay(),
]
