"""How utilities tasks talk: accounts, meters and tariffs as a customer names them, slot hints."""

from __future__ import annotations

from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.people import Address
from tau_sim.domains.kit.tasks import HINTS as KIT_HINTS
from tau_sim.domains.utilities.data import Meter
from tau_sim.simulator.world import Action, SlotHint

UNKNOWN_IDS = ["account ids", "meter ids", "tariff ids", "premise ids"]


def place_text(address: Address) -> str:
    """A service address as a customer names it, e.g. "123 Maple Street, 98101"."""
    return f"{address.address1}, {address.zip}"


def account_text(address: Address) -> str:
    """An account as a customer names it: by the address it supplies."""
    return f"my account at {place_text(address)}"


def meter_text(meter: Meter) -> str:
    """A meter as a customer names it, e.g. "my electricity meter"."""
    return f"my {meter.fuel} meter"


def reading_text(meter: Meter, value: int) -> str:
    """A reading as a customer says it, e.g. "48213 kWh on the electricity meter"."""
    return f"{value} {meter.unit} on the {meter.fuel} meter"


def units_text(units: int, unit: str) -> str:
    """A quantity of energy as the agent says it, e.g. "412 kWh"."""
    return f"{units} {unit}"


HINTS: dict[str, SlotHint] = {
    **KIT_HINTS,
    "account": SlotHint(
        ("which account", "service address", "which property", "address of the property"),
        "the address of the account you mean",
        True,
    ),
    "meter": SlotHint(
        ("which meter", "what meter", "electricity or gas", "gas or electricity"),
        "which meter it is",
        True,
    ),
    "reading": SlotHint(
        (
            "meter reading",
            "reading on",
            "what does the meter",
            "the reading",
            "current reading",
            "readings",
            "electricity meter",
            "meters read",
            "meter show",
            "meters show",
            "number does it show",
            "number it shows",
            "on the meter",
        ),
        "the meter reading",
    ),
    "gas_reading": SlotHint(
        ("gas reading", "gas meter", "reading on the gas"),
        "the gas meter reading",
    ),
    "amount": SlotHint(("how much", "what amount", "which amount"), "the amount to pay"),
    "months": SlotHint(
        ("how many months", "over how many", "number of months", "how long"),
        "the number of months",
    ),
    "tariff": SlotHint(
        ("which tariff", "what tariff", "tariff would you", "new tariff"),
        "the tariff you want",
    ),
    "current_tariff": SlotHint(
        ("current tariff", "tariff you are on", "tariff are you on"),
        "your current tariff",
        True,
    ),
    "bill": SlotHint(("which bill", "what bill", "billing period"), "the bill you mean", True),
    # keywords avoid a bare "address", which would match "email address"
    "new_address": SlotHint(
        ("new address", "moving to", "where are you moving", "address you are moving"),
        "the address you are moving to",
    ),
    "fuel": SlotHint(
        ("which supply", "power or gas", "what supply", "gas or electricity", "electricity or gas"),
        "which supply is affected",
    ),
    "date": SlotHint(
        ("which day", "what day", "which date", "what date", "when was", "when did"),
        "the day it happened",
    ),
    "problem": SlotHint(
        (
            "what is happening",
            "what happened",
            "completely off",
            "off completely",
            "cutting out",
            "cutting in and out",
        ),
        "what the problem is",
    ),
}
"""The kit's standard slots plus the accounts, meters, readings and tariffs of energy."""


def gold_reads(identity: Identity, *reads: Action) -> list[Action]:
    """Authentication and the customer's profile, then ``reads``."""
    return [*identity.actions, *reads]
