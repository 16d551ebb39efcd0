"""The banking domain: a retail bank's customers, their accounts, cards and transactions."""

from __future__ import annotations

from pathlib import Path

from domains.banking import tools
from domains.banking.data import build_base
from domains.banking.intents import INTENTS
from domains.banking.scenario import HINTS
from simulator.domain import Domain, Generation
from simulator.registry import DOMAINS
from simulator.tools import Toolkit

__all__ = ["BASE_SEED", "GENERATION", "banking"]

BASE_SEED = 20250314
GENERATION = Generation(count=80, seed=11)  # five tasks per intent
TOOLKIT = Toolkit.from_module(tools)


@DOMAINS.register("banking")
def banking() -> Domain:
    """Bank customers freeze and replace cards, move money, dispute charges and contest fees."""
    return Domain.from_folder(
        Path(__file__).parent,
        name="banking",
        title="Banking (accounts, cards, disputes, fees)",
        toolkit=TOOLKIT,
        build_base=lambda: build_base(BASE_SEED),
        intents=INTENTS,
        generation=GENERATION,
        slot_hints=HINTS,
    )
