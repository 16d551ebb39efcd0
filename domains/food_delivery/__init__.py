"""The food-delivery domain: restaurants and menus, customers, their orders and remedies."""

from __future__ import annotations

from tau_sim.domains.kit.world import register_world
from tau_sim.simulator.world import Generation

__all__ = ["BASE_SEED", "GENERATION", "food_delivery"]

TITLE = "Food delivery (restaurants, orders, refunds, credits)"
BASE_SEED = 20250620
GENERATION = Generation(count=145, seed=13)  # five tasks per intent

food_delivery = register_world(__name__, TITLE, BASE_SEED, GENERATION)
