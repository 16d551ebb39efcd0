"""The retail domain: an online shop's customers, products and orders."""

from __future__ import annotations

from pathlib import Path

from domains.retail import tools
from domains.retail.data import build_base
from domains.retail.intents import INTENTS
from domains.retail.scenario import HINTS
from simulator.domain import Domain, Generation
from simulator.registry import DOMAINS
from simulator.tools import Toolkit

__all__ = ["BASE_SEED", "GENERATION", "retail"]

BASE_SEED = 20250101
GENERATION = Generation(count=55, seed=7)  # five tasks per intent
TOOLKIT = Toolkit.from_module(tools)


@DOMAINS.register("retail")
def retail() -> Domain:
    """Customers of an online shop cancel, modify, return and exchange their orders."""
    return Domain.from_folder(
        Path(__file__).parent,
        name="retail",
        title="Retail (online shop orders)",
        toolkit=TOOLKIT,
        build_base=lambda: build_base(BASE_SEED),
        intents=INTENTS,
        generation=GENERATION,
        slot_hints=HINTS,
    )
