"""How telehealth tasks talk: times, visits and medications as patients say them; slot hints."""

from __future__ import annotations

from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.tasks import HINTS as KIT_HINTS
from tau_sim.domains.telehealth.catalog import VIDEO
from tau_sim.domains.telehealth.data import Prescription
from tau_sim.simulator.world import Action, SlotHint

UNKNOWN_IDS = ["provider ids", "slot ids", "prescription ids", "pharmacy ids", "plan ids"]


def time_text(start: str) -> str:
    """A slot's start as a patient says it, e.g. "2026-03-10 at 14:00"."""
    day, _, hour = start.partition("T")
    return f"{day} at {hour}"


def visit_text(visit_type: str) -> str:
    """A visit type in words: "a video visit" or "an in-person visit"."""
    return "a video visit" if visit_type == VIDEO else "an in-person visit"


def medication_text(rx: Prescription) -> str:
    """A prescription as the patient names it, e.g. "lisinopril 10 mg tablet"."""
    return f"{rx.medication} {rx.dose}"


def refills_text(count: int) -> str:
    """What the agent says about refills left, e.g. "2 refill" (matches "2 refills" too)."""
    return f"{count} refill"


_APPOINTMENT = SlotHint(
    ("appointment id", "appointment number", "confirmation number", "which appointment"),
    "your appointment ID",
    True,
)
_TIME = SlotHint(
    (
        "what date",
        "which date",
        "preferred date",
        "what time",
        "which time",
        "preferred time",
        "which day",
        "what day",
        "when would",
    ),
    "the date and time you want",
)
_PHARMACY = SlotHint(("which pharmacy", "what pharmacy", "new pharmacy"), "the pharmacy you want")

HINTS: dict[str, SlotHint] = {
    **KIT_HINTS,
    "dob": SlotHint(("date of birth", "birth date", "birthday", "dob"), "your date of birth"),
    "appointment_id": _APPOINTMENT,
    "new_time": _TIME,
    "specialty": SlotHint(
        ("specialty", "kind of doctor", "type of doctor", "department"), "the specialty"
    ),
    "provider": SlotHint(
        ("which provider", "which doctor", "what provider", "provider's name", "doctor's name"),
        "the provider you want",
    ),
    "visit_type": SlotHint(
        ("visit type", "type of visit", "kind of visit", "video or in", "in person", "in-person"),
        "whether you want a video or an in-person visit",
    ),
    "medication": SlotHint(
        ("medication", "which prescription", "what prescription", "medicine", "which drug"),
        "the medication",
        True,
    ),
    "new_pharmacy": _PHARMACY,
    "new_plan": SlotHint(
        ("insurance plan", "new plan", "which plan", "what plan", "insurance company"),
        "your new insurance plan",
    ),
    "member_id": SlotHint(("member id", "member number", "insurance id"), "your member ID"),
    "appointment": SlotHint(
        ("which appointment", "which visit", "what appointment"),
        "which appointment you mean (the specialty, the provider, the day)",
    ),
    "new_phone": SlotHint(("phone number", "new number", "phone"), "your new phone number"),
    "other_patient": SlotHint(
        ("their name", "patient's name", "who is the patient", "whose"), "the other patient's name"
    ),
    "other_appointment_id": SlotHint(
        ("their appointment", "other appointment"), "the other patient's appointment ID"
    ),
}
"""The kit's standard slots plus the appointments, times, visits, medications and plans."""


def gold_reads(identity: Identity, *appointment_ids: str) -> list[Action]:
    """Authentication, the patient's profile and the appointments concerned."""
    return [
        *identity.actions,
        *(Action("get_appointment_details", {"appointment_id": a}) for a in appointment_ids),
    ]


def sentence(text: str) -> str:
    """``text`` with its first letter upper-cased, the rest kept (``str.capitalize`` lowers it)."""
    return text[:1].upper() + text[1:]
