"""The airline domain: flights, reservations, bags, cancellations and delay compensation."""

from __future__ import annotations

from pathlib import Path

from domains.airline import tools
from domains.airline.data import build_base
from domains.airline.intents import INTENTS
from domains.airline.scenario import HINTS
from simulator.domain import Domain, Generation
from simulator.registry import DOMAINS
from simulator.tools import Toolkit

__all__ = ["BASE_SEED", "GENERATION", "airline"]

BASE_SEED = 20260515
GENERATION = Generation(count=55, seed=7)  # five tasks per intent
TOOLKIT = Toolkit.from_module(tools)


@DOMAINS.register("airline")
def airline() -> Domain:
    """Travellers book, change and cancel flights, add bags and claim delay compensation."""
    return Domain.from_folder(
        Path(__file__).parent,
        name="airline",
        title="Airline (flight reservations)",
        toolkit=TOOLKIT,
        build_base=lambda: build_base(BASE_SEED),
        intents=INTENTS,
        generation=GENERATION,
        slot_hints=HINTS,
    )
