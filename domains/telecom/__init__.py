"""The telecom domain: a mobile carrier's subscribers, lines, plans, bills and their phones.

The phone is the user's (dual control): its tools (``device``) are the domain's user tools,
which the agent can only ask the user to run.
"""

from __future__ import annotations

from tau_sim.domains.kit.world import register_world
from tau_sim.simulator.world import Generation

__all__ = ["BASE_SEED", "GENERATION", "telecom"]

TITLE = "Telecom (mobile carrier lines, bills and phones)"
BASE_SEED = 20250615
GENERATION = Generation(count=100, seed=7)  # five tasks per intent

telecom = register_world(__name__, TITLE, BASE_SEED, GENERATION, user_tools=True)
