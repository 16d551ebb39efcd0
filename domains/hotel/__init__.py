"""The hotel domain: stays, date changes, upgrades, cancellations, special requests and points."""

from __future__ import annotations

from tau_sim.domains.kit.world import register_world
from tau_sim.simulator.world import Generation

__all__ = ["BASE_SEED", "GENERATION", "hotel"]

TITLE = "Hotel (stays and loyalty)"
BASE_SEED = 20260715
GENERATION = Generation(count=100, seed=8)  # five tasks per intent

hotel = register_world(__name__, TITLE, BASE_SEED, GENERATION)
