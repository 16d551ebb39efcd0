"""The car-rental domain: branches, vehicle classes, bookings, extensions, fees and damage."""

from __future__ import annotations

from tau_sim.domains.kit.world import register_world
from tau_sim.simulator.world import Generation

__all__ = ["BASE_SEED", "GENERATION", "car_rental"]

TITLE = "Car rental (branches, bookings, fees and damage)"
BASE_SEED = 20260610
GENERATION = Generation(count=105, seed=11)  # five tasks per intent

car_rental = register_world(__name__, TITLE, BASE_SEED, GENERATION)
