"""The insurance domain: policyholders with auto and home policies, claims and endorsements."""

from __future__ import annotations

from tau_sim.domains.kit.world import register_world
from tau_sim.simulator.world import Generation

__all__ = ["BASE_SEED", "GENERATION", "insurance"]

TITLE = "Insurance (auto and home policies, claims)"
BASE_SEED = 20250615
GENERATION = Generation(count=112, seed=7)  # four tasks per intent (28 intents)

insurance = register_world(__name__, TITLE, BASE_SEED, GENERATION)
