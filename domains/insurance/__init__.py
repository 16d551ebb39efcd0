"""The insurance domain: policyholders with auto and home policies, claims and endorsements."""

from __future__ import annotations

from pathlib import Path

from domains.insurance import tools
from domains.insurance.data import build_base
from domains.insurance.intents import INTENTS
from domains.insurance.scenario import HINTS
from simulator.domain import Domain, Generation
from simulator.registry import DOMAINS
from simulator.tools import Toolkit

__all__ = ["BASE_SEED", "GENERATION", "insurance"]

BASE_SEED = 20250615
GENERATION = Generation(count=60, seed=7)  # four tasks per intent
TOOLKIT = Toolkit.from_module(tools)


@DOMAINS.register("insurance")
def insurance() -> Domain:
    """Policyholders file and follow claims, ask about coverage, endorse, pay and cancel."""
    return Domain.from_folder(
        Path(__file__).parent,
        name="insurance",
        title="Insurance (auto and home policies, claims)",
        toolkit=TOOLKIT,
        build_base=lambda: build_base(BASE_SEED),
        intents=INTENTS,
        generation=GENERATION,
        slot_hints=HINTS,
    )
