"""How insurance tasks talk: the slot hints, loss and item phrases, the shared gold reads."""

from __future__ import annotations

from tau_sim.domains.insurance.data import Driver
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.tasks import HINTS as KIT_HINTS
from tau_sim.simulator.world import Action, SlotHint

UNKNOWN_IDS = ["user id", "payment method ids"]

LOSS_TEXT: dict[str, str] = {
    "collision": "my car was damaged in a collision",
    "theft": "something was stolen",
    "vandalism": "my car was vandalized",
    "hail": "hail damaged it",
    "glass": "my windshield cracked",
    "animal collision": "I hit a deer",
    "flood": "it was damaged by flood water",
    "mechanical breakdown": "my engine broke down",
    "fire": "there was a fire",
    "wind": "a storm's wind damaged the roof",
    "water damage": "a pipe burst and caused water damage",
    "earthquake": "an earthquake cracked the foundation",
    "mold": "mold spread through the basement",
}
"""How a user says what happened, by loss type."""

CLAIM_TEXT: dict[str, str] = {
    "collision": "the collision",
    "theft": "the theft",
    "vandalism": "the vandalism",
    "hail": "the hail damage",
    "glass": "the cracked windshield glass",
    "animal collision": "the animal collision with a deer",
    "flood": "the flood damage",
    "mechanical breakdown": "the mechanical breakdown",
    "fire": "the fire",
    "wind": "the wind damage to the roof",
    "water damage": "the water damage from a burst pipe",
    "earthquake": "the earthquake damage",
    "mold": "the mold in the basement",
}
"""How a user names a claim they filed, by loss type ("my claim for the hail damage")."""


def loss_text(loss: str, day: str, amount: str) -> str:
    """One loss as a user holds it, naming its type, day and estimate."""
    return f"{loss} ({LOSS_TEXT[loss]}) on {day}, estimated at {amount}"


REASON_TEXT: dict[str, str] = {
    "switching insurers": "I am switching to another insurer",
    "sold the insured property": "I sold what it insures",
    "other": "I no longer need it",
}

_POLICY = SlotHint(
    ("policy number", "policy id", "policy #", "which policy"), "your policy number", True
)

HINTS: dict[str, SlotHint] = {
    **KIT_HINTS,
    "account_number": SlotHint(
        ("account number", "account #", "policyholder number"), "your account number"
    ),
    "policy_id": _POLICY,
    "policy_id_1": _POLICY,
    "policy_id_2": _POLICY,
    "claim_id": SlotHint(("claim number", "claim id", "claim #"), "your claim number", True),
    "loss_type": SlotHint(
        ("what happened", "type of loss", "kind of loss", "cause of"), "what happened"
    ),
    "loss_date": SlotHint(
        ("date of the loss", "when did", "what date", "which date", "loss date", "date of loss"),
        "the date of the loss",
    ),
    "estimated_amount": SlotHint(
        ("estimate", "how much damage", "amount of damage", "repair cost", "damage cost"),
        "the estimated damage",
    ),
    "injury": SlotHint(("injur", "hurt"), "whether anyone was hurt"),
    "new_driver": SlotHint(
        ("driver", "license", "date of birth", "birth date", "relationship"),
        "the new driver's details",
    ),
    "item": SlotHint(("item", "apprais", "category", "what is it worth"), "the item and its value"),
    "amount": SlotHint(("how much would you like", "amount"), "the amount to pay"),
    "cancel_reason": SlotHint(("reason", "why"), "the reason for cancelling"),
    "claim": SlotHint(("which claim", "claim you mean"), "which claim you mean", True),
    "which_policy": SlotHint(
        ("which of your policies", "policy you mean"), "which policy you mean", True
    ),
    "storm_damage": SlotHint(
        ("what the storm", "storm damage", "damaged"), "what the storm damaged"
    ),
    "losses": SlotHint(("losses", "each loss", "what happened"), "the losses and their dates"),
    "policies": SlotHint(("which policies", "policies you mean"), "which policies you mean"),
    "storm_date": SlotHint(
        ("date of the storm", "storm date", "when the storm"), "the date of the storm"
    ),
    "drivers": SlotHint(
        ("driver", "license", "date of birth", "birth date", "relationship"),
        "the new drivers' details",
    ),
    "friend_driver": SlotHint(("friend", "coworker", "neighbor"), "the other person's details"),
    "items": SlotHint(("items", "apprais", "categor", "worth"), "the items and their values"),
    "claimed_payment": SlotHint(
        ("payment you made", "when did you pay", "paid"), "the payment you made"
    ),
}
"""The kit's standard slots plus the policies, claims, losses, drivers and items of insurance."""


def driver_text(driver: Driver) -> str:
    """A new driver as the user describes them."""
    return (
        f"my {driver.relationship} {driver.first_name} {driver.last_name}, born "
        f"{driver.birth_date}, license number {driver.license_number}"
    )


def gold_reads(identity: Identity, *policy_ids: str) -> list[Action]:
    """Authentication, the user's profile and the policies concerned."""
    return [
        *identity.actions,
        *(Action("get_policy_details", {"policy_id": p}) for p in policy_ids),
    ]
