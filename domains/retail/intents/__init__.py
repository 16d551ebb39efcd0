"""Retail task intents: templates that sample the base database and produce grounded tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common`` holds
the intents' base class and the order helpers the themes share; ``orders`` cancels,
modifies and tracks orders and updates the default address, ``returns`` returns,
exchanges and refunds delivered items.
"""

from __future__ import annotations

from tau_sim.domains.retail.intents.orders import (
    CancelPendingOrder,
    CancelShippedOrderTransfer,
    ChangeOrderPayment,
    ModifyOrderAddress,
    ModifyOrderItems,
    OrderStatusInquiry,
    UpdateDefaultAddress,
)
from tau_sim.domains.retail.intents.returns import (
    CancelAndReturn,
    ExchangeDeliveredItems,
    RefundAmountInquiry,
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
]
