"""The telecom domain: a mobile carrier's subscribers, lines, plans, bills and their phones.

The phone is the user's (dual control): its tools (``device``) are the domain's user tools,
which the agent can only ask the user to run.
"""

from __future__ import annotations

from pathlib import Path

from domains.telecom import device, tools
from domains.telecom.data import build_base
from domains.telecom.intents import INTENTS
from domains.telecom.scenario import HINTS, STEP_HINTS
from simulator.domain import Domain, Generation
from simulator.registry import DOMAINS
from simulator.tools import Toolkit

__all__ = ["BASE_SEED", "GENERATION", "telecom"]

BASE_SEED = 20250615
GENERATION = Generation(count=66, seed=7)  # six tasks per intent
TOOLKIT = Toolkit.from_module(tools)
USER_TOOLKIT = Toolkit.from_module(device)


@DOMAINS.register("telecom")
def telecom() -> Domain:
    """Subscribers of a mobile carrier change plans, buy data, dispute charges, fix their phones."""
    return Domain.from_folder(
        Path(__file__).parent,
        name="telecom",
        title="Telecom (mobile carrier lines, bills and phones)",
        toolkit=TOOLKIT,
        build_base=lambda: build_base(BASE_SEED),
        intents=INTENTS,
        generation=GENERATION,
        slot_hints=HINTS,
        user_toolkit=USER_TOOLKIT,
        user_tool_hints=STEP_HINTS,
    )
