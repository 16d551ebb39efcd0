"""The hotel domain: stays, date changes, upgrades, cancellations, special requests and points."""

from __future__ import annotations

from pathlib import Path

from domains.hotel import tools
from domains.hotel.data import build_base
from domains.hotel.intents import INTENTS
from domains.hotel.scenario import HINTS
from simulator.domain import Domain, Generation
from simulator.registry import DOMAINS
from simulator.tools import Toolkit

__all__ = ["BASE_SEED", "GENERATION", "hotel"]

BASE_SEED = 20260715
GENERATION = Generation(count=66, seed=7)  # six tasks per intent
TOOLKIT = Toolkit.from_module(tools)


@DOMAINS.register("hotel")
def hotel() -> Domain:
    """Guests book, change, upgrade and cancel stays, add requests and use loyalty points."""
    return Domain.from_folder(
        Path(__file__).parent,
        name="hotel",
        title="Hotel (stays and loyalty)",
        toolkit=TOOLKIT,
        build_base=lambda: build_base(BASE_SEED),
        intents=INTENTS,
        generation=GENERATION,
        slot_hints=HINTS,
    )
