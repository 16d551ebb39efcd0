"""The car-rental domain: branches, vehicle classes, bookings, extensions, fees and damage."""

from __future__ import annotations

from pathlib import Path

from domains.car_rental import tools
from domains.car_rental.data import build_base
from domains.car_rental.intents import INTENTS
from domains.car_rental.scenario import HINTS
from simulator.domain import Domain, Generation
from simulator.registry import DOMAINS
from simulator.tools import Toolkit

__all__ = ["BASE_SEED", "GENERATION", "car_rental"]

BASE_SEED = 20260610
GENERATION = Generation(count=60, seed=11)  # five tasks per intent
TOOLKIT = Toolkit.from_module(tools)


@DOMAINS.register("car_rental")
def car_rental() -> Domain:
    """Renters book cars, extend, change branches and classes, add cover and report damage."""
    return Domain.from_folder(
        Path(__file__).parent,
        name="car_rental",
        title="Car rental (branches, bookings, fees and damage)",
        toolkit=TOOLKIT,
        build_base=lambda: build_base(BASE_SEED),
        intents=INTENTS,
        generation=GENERATION,
        slot_hints=HINTS,
    )
