"""The airline domain: flights, reservations, bags, cancellations and delay compensation."""

from __future__ import annotations

from tau_sim.domains.kit.world import register_world
from tau_sim.simulator.world import Generation

__all__ = ["BASE_SEED", "GENERATION", "airline"]

TITLE = "Airline (flight reservations)"
BASE_SEED = 20260515
GENERATION = Generation(count=110, seed=7)  # five tasks per intent

airline = register_world(__name__, TITLE, BASE_SEED, GENERATION)
