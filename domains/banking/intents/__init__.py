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

from tau_sim.domains.banking.intents.accounts import (
    BalanceInquiry,
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
from tau_sim.domains.banking.intents.fees import (
    CoverOverdraft,
    FeeOverCap,
    ReverseFee,
    SecondFeeReversal,
)
from tau_sim.domains.banking.intents.hard_disproven import DuplicateNotOnFile, RecurringNotFraud
from tau_sim.domains.banking.intents.hard_disputes import (
    DisputeBesideExpired,
    DisputeSeveral,
    DisputeUnlessFiled,
)
from tau_sim.domains.banking.intents.hard_fees import (
    CapBesideTransfer,
    DisputeBesideSecondReversal,
    OneOfTwoFees,
)
from tau_sim.domains.banking.intents.hard_long import MonthCleanup, StolenWallet
from tau_sim.domains.banking.intents.hard_transfers import TopUpIfLow, TransferOrTheMost
from tau_sim.domains.banking.intents.limits import OffLimitsRequest
from tau_sim.simulator.world import Intent

__all__ = ["INTENTS", "PHRASINGS"]

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

PHRASINGS: dict[str, tuple[str, ...]] = {
    # a dispute's status as get_dispute_details gives it, said as a status (not any "open")
    "open": (
        "is open",
        "still open",
        "remains open",
        "stays open",
        "currently open",
        "as open",
        "open status",
        "under review",
        "being reviewed",
        "under investigation",
        "being investigated",
        "in progress",
        "still pending",
        "not yet resolved",
        "not been resolved",
    ),
    "refunded": (
        "refunded",
        "refund was issued",
        "credited back",
        "money back",
        "resolved in your favor",
        "resolved in your favour",
    ),
    "declined": (
        "declined",
        "denied",
        "rejected",
        "not in your favor",
        "not in your favour",
    ),
}
"""The ways of saying a required output that count (``Domain.phrasings``)."""
