"""Banking task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common`` holds
the intents' base class and the account and card helpers the themes share; ``cards``
freezes and replaces cards, ``disputes`` disputes charges, ``accounts`` moves money,
reverses fees and tells balances. The hard tier: ``hard_disputes`` (several charges, one past
the window, claims the statement disproves), ``hard_money`` (a refused reversal beside an
allowed write, conditional transfers) and ``hard_long`` (three to five writes, later needs).
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
from tau_sim.domains.banking.intents.hard_disputes import (
    DisputeBesideExpired,
    DisputeSeveral,
    DisputeUnlessFiled,
    DuplicateNotOnFile,
    RecurringNotFraud,
)
from tau_sim.domains.banking.intents.hard_long import MonthCleanup, StolenWallet
from tau_sim.domains.banking.intents.hard_money import (
    CapBesideTransfer,
    DisputeBesideSecondReversal,
    OneOfTwoFees,
    TopUpIfLow,
    TransferOrTheMost,
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
