"""The banking domain: a retail bank's customers, their accounts, cards and transactions."""

from __future__ import annotations

from tau_sim.domains.kit.world import register_world
from tau_sim.simulator.world import Generation

__all__ = ["BASE_SEED", "GENERATION", "banking"]

TITLE = "Banking (accounts, cards, disputes, fees)"
BASE_SEED = 20250314
GENERATION = Generation(count=145, seed=11)  # five tasks per intent

banking = register_world(__name__, TITLE, BASE_SEED, GENERATION)
