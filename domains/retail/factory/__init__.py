"""Retail task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common`` holds
the intents' base class and the order helpers the themes share; ``orders`` cancels,
modifies and tracks orders and updates the default address, ``returns`` returns,
exchanges and refunds delivered items. The hard tier: ``hard_search`` (orders described by
an item among several), ``hard_mixed`` (an allowed part beside a refused one, claims the
records disprove) and ``hard_long`` (three or four writes).
"""

from __future__ import annotations

from tau_sim.domains.retail.factory.hard_long import (
    ConditionalMoveAndExchange,
    LongAddressReturnCancel,
    LongExchangeTwoOrders,
)
from tau_sim.domains.retail.factory.hard_mixed import (
    DisprovenLateDelivery,
    MixedFinalSale,
    MixedReturnWindow,
    NotYourOrder,
)
from tau_sim.domains.retail.factory.hard_search import (
    ConditionalExchangeOrReturn,
    LaterCancelReturnAndMore,
    SearchReturnByItem,
)
from tau_sim.domains.retail.factory.orders import (
    CancelForOtherReason,
    CancelPendingOrder,
    CancelShippedOrderTransfer,
    ChangeOrderPayment,
    ModifyOrderAddress,
    ModifyOrderItems,
    OrderStatusInquiry,
    UpdateDefaultAddress,
)
from tau_sim.domains.retail.factory.returns import (
    CancelAndReturn,
    ExchangeDeliveredItems,
    ExchangeForOtherProduct,
    RefundAmountInquiry,
    RefundToAnotherCard,
    ReturnDeliveredItems,
)
from tau_sim.simulator.world import Intent

__all__ = ["INTENTS"]

INTENTS: list[Intent] = [
    CancelPendingOrder(),
    ModifyOrderAddress(),
    ModifyOrderItems(),
    ChangeOrderPayment(),
    ReturnDeliveredItems(),
    ExchangeDeliveredItems(),
    UpdateDefaultAddress(),
    OrderStatusInquiry(),
    RefundAmountInquiry(),
    CancelShippedOrderTransfer(),
    CancelAndReturn(),
    CancelForOtherReason(),
    ExchangeForOtherProduct(),
    RefundToAnotherCard(),
    SearchReturnByItem(),
    ConditionalExchangeOrReturn(),
    LaterCancelReturnAndMore(),
    MixedReturnWindow(),
    MixedFinalSale(),
    DisprovenLateDelivery(),
    NotYourOrder(),
    LongAddressReturnCancel(),
    LongExchangeTwoOrders(),
    ConditionalMoveAndExchange(),
]
