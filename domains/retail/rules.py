"""The retail policy's figures (the return window, the final-sale products) and their checks.

The tools do not apply them: the intents do, and ``policy.md`` states the same rules.
"""

from __future__ import annotations

from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.retail.data import TODAY, Order, OrderItem

RETURN_WINDOW_DAYS = 30
"""Delivered items can be returned or exchanged up to this many days after delivery."""

FINAL_SALE = ("Perfume", "Pillow", "Wireless Earbuds", "Wool Socks")
"""Product types that can be exchanged but never returned (hygiene)."""


def days_since_delivery(order: Order) -> int:
    """Days from the order's delivery to ``TODAY``."""
    return (TODAY - iso_day(order.delivered_on)).days


def in_window(order: Order) -> bool:
    """Whether the delivered ``order`` is still within the return and exchange window."""
    return bool(order.delivered_on) and days_since_delivery(order) <= RETURN_WINDOW_DAYS


def returnable(item: OrderItem) -> bool:
    """Whether ``item`` may be returned (it is not a final-sale product)."""
    return item.name not in FINAL_SALE
