"""The telehealth domain: patients, providers' schedules, appointments, prescriptions, insurance."""

from __future__ import annotations

from tau_sim.domains.kit.world import register_world
from tau_sim.simulator.world import Generation

__all__ = ["BASE_SEED", "GENERATION", "telehealth"]

TITLE = "Telehealth (appointments, prescriptions, insurance)"
BASE_SEED = 20260302
GENERATION = Generation(count=120, seed=11)  # five tasks per intent

telehealth = register_world(__name__, TITLE, BASE_SEED, GENERATION)
