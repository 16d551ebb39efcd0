"""The utilities domain: an energy supplier's accounts, meters, tariffs, bills and outages."""

from __future__ import annotations

from pathlib import Path

from domains.utilities import tools
from domains.utilities.data import build_base
from domains.utilities.intents import INTENTS
from domains.utilities.scenario import HINTS
from simulator.domain import Domain, Generation
from simulator.registry import DOMAINS
from simulator.tools import Toolkit

__all__ = ["BASE_SEED", "GENERATION", "utilities"]

BASE_SEED = 20251114
GENERATION = Generation(count=60, seed=13)  # four tasks per intent
TOOLKIT = Toolkit.from_module(tools)


@DOMAINS.register("utilities")
def utilities() -> Domain:
    """Energy customers submit readings, pay, spread balances, switch tariffs, move and report."""
    return Domain.from_folder(
        Path(__file__).parent,
        name="utilities",
        title="Utilities (energy: meters, tariffs, bills, moving, outages)",
        toolkit=TOOLKIT,
        build_base=lambda: build_base(BASE_SEED),
        intents=INTENTS,
        generation=GENERATION,
        slot_hints=HINTS,
    )
