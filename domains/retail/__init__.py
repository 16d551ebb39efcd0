"""The retail domain: an online shop's customers, products and orders."""

from __future__ import annotations

from tau_sim.domains.kit.world import register_world
from tau_sim.simulator.world import Generation

__all__ = ["BASE_SEED", "GENERATION", "retail"]

TITLE = "Retail (online shop orders)"
BASE_SEED = 20250101
GENERATION = Generation(count=120, seed=7)  # five tasks per intent

retail = register_world(__name__, TITLE, BASE_SEED, GENERATION)
