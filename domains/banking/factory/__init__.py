"""Banking task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common`` holds
the intents' base class and the account, card and charge helpers the themes share, ``side``
the side questions and later needs any intent may add; ``cards`` freezes and replaces cards,
``disputes`` disputes charges, ``accounts`` moves money and tells balances, ``fees`` reverses
fees, ``limits`` refuses what no tool or rule allows (another person's money, loans). The hard
tier: ``hard_disputes`` (several charges, one past the window, one already
disputed), ``hard_disproven`` (claims the statement disproves), ``hard_fees`` (a refused
reversal beside an allowed write), ``hard_transfers`` (transfers a condition picks) and
``hard_long`` (three to five writes, later needs).
"""

from __future__ import annotations

from tau_sim.domains.banking.factory.accounts import (
    BalanceInquiry,
    TransferFunds,
    TransferOverLimit,
)
from tau_sim.domains.banking.factory.cards import (
    FreezeCard,
    ReplaceCardAfterMove,
    ReplaceDamagedCard,
    ReplaceLostCard,
    UnfreezeCard,
)
from tau_sim.domains.banking.factory.disputes import (
    DisputeCharge,
    DisputeOutsideWindow,
    DisputeStatus,
    FraudToHuman,
)
from tau_sim.domains.banking.factory.fees import (
    CoverOverdraft,
    FeeOverCap,
    ReverseFee,
    SecondFeeReversal,
)
from tau_sim.domains.banking.factory.hard_disproven import DuplicateNotOnFile, RecurringNotFraud
from tau_sim.domains.banking.factory.hard_disputes import (
    DisputeBesideExpired,
    DisputeSeveral,
    DisputeUnlessFiled,
)
from tau_sim.domains.banking.factory.hard_fees import (
    CapBesideTransfer,
    DisputeBesideSecondReversal,
    OneOfTwoFees,
)
from tau_sim.domains.banking.factory.hard_long import MonthCleanup, StolenWallet
from tau_sim.domains.banking.factory.hard_transfers import TopUpIfLow, TransferOrTheMost
from tau_sim.domains.banking.factory.limits import OffLimitsRequest
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
    OffLimitsRequest(),
    DisputeSeveral(),
    DisputeBesideExpired(),
    DisputeUnlessFiled(),
    RecurringNotFraud(),
    DuplicateNotOnFile(),
    OneOfTwoFees(),
    CapBesideTransfer(),
    DisputeBesideSecondReversal(),
    TopUpIfLow(),
    TransferOrTheMost(),
    StolenWallet(),
    MonthCleanup(),
]
