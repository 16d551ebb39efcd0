"""The utilities domain: an energy supplier's accounts, meters, tariffs, bills and outages."""

from __future__ import annotations

from tau_sim.domains.kit.world import register_world
from tau_sim.simulator.world import Generation

__all__ = ["BASE_SEED", "GENERATION", "utilities"]

TITLE = "Utilities (energy: meters, tariffs, bills, moving, outages)"
BASE_SEED = 20251114
GENERATION = Generation(count=130, seed=13)  # five tasks per intent, 11 of 26 intents hard

utilities = register_world(__name__, TITLE, BASE_SEED, GENERATION)
