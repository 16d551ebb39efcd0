"""Food-delivery task intents: templates that sample the base database and produce tasks.

``INTENTS`` lists them in the order that numbers the generated tasks. ``common`` holds
the intents' base classes and the order helpers the themes share; ``orders`` cancels and
modifies orders, ``tracking`` tracks and tips them, ``promotions`` applies codes,
``refunds`` refunds items and credits late deliveries; the hard tier's ``hard_search``
(orders the user describes), ``hard_mixed`` (an allowed remedy beside a refused one, claims
the records disprove) and ``hard_long`` (three to five writes).
"""

from __future__ import annotations

from tau_sim.domains.food_delivery.factory.hard_long import (
    LateOrdersRemedies,
    MissingDishReordered,
    OrderOverhaul,
)
from tau_sim.domains.food_delivery.factory.hard_mixed import (
    ItemRefundWindowMixed,
    LateCreditsMixed,
    NeverDeliveredDisproven,
    NotStartedDisproven,
    PreparingTipAndAddressMixed,
    WholeOrderRefundMixed,
)
from tau_sim.domains.food_delivery.factory.hard_search import (
    LaterLateCredit,
    NotTheirOrderDisproven,
    PromotionWithFallback,
    SearchCancelIfPlaced,
    SearchItemRefund,
)
from tau_sim.domains.food_delivery.factory.orders import (
    AddOrderItem,
    CancelOrder,
    ModifyOrderAddress,
    ModifyPreparingRefused,
    RemoveOrderItem,
)
from tau_sim.domains.food_delivery.factory.promotions import ApplyPromotion, PromotionRefused
from tau_sim.domains.food_delivery.factory.refunds import (
    CourierSafetyTransfer,
    LateCreditRefused,
    LateDeliveryCredit,
    MissingItemAndLateCredit,
    RefundMissingItem,
    RefundWrongItemCapped,
)
from tau_sim.domains.food_delivery.factory.tracking import OrderStatusInquiry, RaiseTip
from tau_sim.simulator.world import Intent

__all__ = ["INTENTS"]

INTENTS: list[Intent] = [
    CancelOrder(),
    ModifyOrderAddress(),
    AddOrderItem(),
    RemoveOrderItem(),
    ModifyPreparingRefused(),
    ApplyPromotion(),
    PromotionRefused(),
    RefundMissingItem(),
    RefundWrongItemCapped(),
    LateDeliveryCredit(),
    LateCreditRefused(),
    MissingItemAndLateCredit(),
    CourierSafetyTransfer(),
    OrderStatusInquiry(),
    RaiseTip(),
    SearchItemRefund(),
    SearchCancelIfPlaced(),
    LaterLateCredit(),
    PromotionWithFallback(),
    WholeOrderRefundMixed(),
    NeverDeliveredDisproven(),
    PreparingTipAndAddressMixed(),
    NotStartedDisproven(),
    LateCreditsMixed(),
    ItemRefundWindowMixed(),
    LateOrdersRemedies(),
    OrderOverhaul(),
    MissingDishReordered(),
    NotTheirOrderDisproven(),
]
