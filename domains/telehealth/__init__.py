"""The telehealth domain: patients, providers' schedules, appointments, prescriptions, insurance."""

from __future__ import annotations

from pathlib import Path

from domains.telehealth import tools
from domains.telehealth.data import build_base
from domains.telehealth.intents import INTENTS
from domains.telehealth.scenario import HINTS
from simulator.domain import Domain, Generation
from simulator.registry import DOMAINS
from simulator.tools import Toolkit

__all__ = ["BASE_SEED", "GENERATION", "telehealth"]

BASE_SEED = 20260302
GENERATION = Generation(count=65, seed=11)  # five tasks per intent
TOOLKIT = Toolkit.from_module(tools)


@DOMAINS.register("telehealth")
def telehealth() -> Domain:
    """Patients book, move and cancel visits, refill prescriptions and ask about coverage."""
    return Domain.from_folder(
        Path(__file__).parent,
        name="telehealth",
        title="Telehealth (appointments, prescriptions, insurance)",
        toolkit=TOOLKIT,
        build_base=lambda: build_base(BASE_SEED),
        intents=INTENTS,
        generation=GENERATION,
        slot_hints=HINTS,
    )
