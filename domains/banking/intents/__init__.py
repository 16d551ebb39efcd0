"""Banking task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common`` holds
the intents' base class and the account and card helpers the themes share; ``cards``
freezes and replaces cards, ``disputes`` disputes charges, ``accounts`` moves money,
reverses fees and tells balances.
"""

from __future__ import annotations

from tau_sim.domains.banking.intents.accounts import (
    BalanceInquiry,
    CoverOverdraft,
    FeeOverCap,
    ReverseFee,
    SecondFeeReversal,
    TransferFunds,
    TransferOverLimit,
)
from tau_sim.domains.banking.intents.cards import (
    FreezeCard,
    ReplaceCardAfterMove,
    ReplaceDamagedCard,
    ReplaceLostCard,
    UnfreezeCard,
)
from tau_sim.domains.banking.intents.disputes import (
    DisputeCharge,
    DisputeOutsideWindow,
    DisputeStatus,
    FraudToHuman,
)
from tau_sim.simulator.world import Intent

__all__ = ["INTENTS"]

INTENTS: list[Intent] = [
    FreezeCard(),
    UnfreezeCard(),
    ReplaceLostCard(),
    ReplaceDamagedCard(),
    ReplaceCardAfterMove(),
    TransferFunds(),
    TransferOverLimit(),
    DisputeCharge(),
    DisputeOutsideWindow(),
    DisputeStatus(),
    FraudToHuman(),
    ReverseFee(),
    SecondFeeReversal(),
    FeeOverCap(),
    CoverOverdraft(),
    BalanceInquiry(),
]
