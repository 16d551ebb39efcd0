"""The food-delivery domain: restaurants and menus, customers, their orders and remedies."""

from __future__ import annotations

from pathlib import Path

from domains.food_delivery import tools
from domains.food_delivery.data import build_base
from domains.food_delivery.intents import INTENTS
from domains.food_delivery.scenario import HINTS
from simulator.domain import Domain, Generation
from simulator.registry import DOMAINS
from simulator.tools import Toolkit

__all__ = ["BASE_SEED", "GENERATION", "food_delivery"]

BASE_SEED = 20250620
GENERATION = Generation(count=75, seed=13)  # five tasks per intent
TOOLKIT = Toolkit.from_module(tools)


@DOMAINS.register("food_delivery")
def food_delivery() -> Domain:
    """Customers of a food-delivery app change, cancel and get refunds and credits on orders."""
    return Domain.from_folder(
        Path(__file__).parent,
        name="food_delivery",
        title="Food delivery (restaurants, orders, refunds, credits)",
        toolkit=TOOLKIT,
        build_base=lambda: build_base(BASE_SEED),
        intents=INTENTS,
        generation=GENERATION,
        slot_hints=HINTS,
    )
