"""The telehealth tools the agent calls; each enforces what the records enforce.

Tools refuse a booked or past slot, a patient booked twice at one time, a change to an
appointment that is not upcoming, a refill with no refills left and unknown records. The
policy's own rules (identity first, confirmation, notice windows and fees, refill timing,
controlled substances, privacy) are the agent's to follow.
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

import re
from typing import Any, Literal

import msgspec

from tau_sim.domains.kit import identity
from tau_sim.domains.kit import tools as kit_tools
from tau_sim.domains.telehealth.access import (
    active,
    appointment_summary,
    appointment_view,
    free_future_slot,
    load_appointment,
    load_patient,
    load_pharmacy,
    load_plan,
    load_prescription,
    load_provider,
    load_slot,
    no_clash,
    patient_plan,
    prescription_summary,
    prescription_view,
    provider_view,
    relink,
    upcoming,
)
from tau_sim.domains.telehealth.data import (
    CANCELLED,
    SCHEDULED,
    TODAY,
    Appointment,
    Fill,
    Patient,
    Plan,
    visit_cost,
)
from tau_sim.domains.telehealth.rules import LATE_FEES
from tau_sim.simulator.world import Database, ToolError, ToolKind, tool

Specialty = Literal[
    "primary care",
    "dermatology",
    "cardiology",
    "psychiatry",
    "endocrinology",
    "neurology",
    "nutrition",
    "physical therapy",
]
VisitType = Literal["video", "in_person"]

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_PHONE = re.compile(r"^\d{3}-\d{3}-\d{4}$")

# ---- read tools -------------------------------------------------------------------------------

find_user_id_by_email = identity.find_user_id_by_email
find_user_id_by_name_zip = identity.find_user_id_by_name_zip
find_patient_id_by_name_dob = identity.find_patient_id_by_name_dob


get_patient_details = kit_tools.profile_tool(
    "get_patient_details",
    "Get a patient's profile: name, birth date, contact, insurance, appointments, prescriptions.",
    load_patient,
    user_id_doc='The patient\'s user id, e.g. "ava_smith_1234".',
)


@tool(ToolKind.READ)
def get_appointment_details(db: Database, appointment_id: str) -> dict[str, Any]:
    """Get an appointment: patient, provider, start time, visit type, status, cost and late fee.

    Args:
        appointment_id: The appointment id, e.g. "APT-482910".
    """
    return appointment_view(db, load_appointment(db, appointment_id))


@tool(ToolKind.READ)
def list_patient_appointments(db: Database, user_id: str) -> list[dict[str, Any]]:
    """List a patient's appointments, past and upcoming: id, provider, specialty, start, status.

    Args:
        user_id: The patient's user id, e.g. "ava_smith_1234".
    """
    patient = load_patient(db, user_id)
    return [appointment_summary(db, load_appointment(db, a)) for a in patient.appointments]


@tool(ToolKind.READ)
def list_patient_prescriptions(db: Database, user_id: str) -> list[dict[str, Any]]:
    """List a patient's prescriptions: id, medication, dose, status, controlled or not.

    Args:
        user_id: The patient's user id, e.g. "ava_smith_1234".
    """
    patient = load_patient(db, user_id)
    return [prescription_summary(load_prescription(db, r)) for r in patient.prescriptions]


@tool(ToolKind.READ)
def search_providers(db: Database, specialty: Specialty) -> list[dict[str, Any]]:
    """List the providers of a specialty with their visit types and working days.

    Args:
        specialty: The specialty, e.g. "dermatology".
    """
    found = [load_provider(db, pid) for pid in db.find("providers_by_specialty", specialty)]
    return [provider_view(p) for p in found]


@tool(ToolKind.READ)
def get_provider_details(db: Database, provider_id: str) -> dict[str, Any]:
    """Get a provider's name, specialty, visit types and working days.

    Args:
        provider_id: The provider id, e.g. "PR-48213".
    """
    return provider_view(load_provider(db, provider_id))


@tool(ToolKind.READ)
def find_available_slots(db: Database, provider_id: str, date: str) -> list[dict[str, str]]:
    """List a provider's free slots on one day (one-hour visits), earliest first.

    Args:
        provider_id: The provider id, e.g. "PR-48213".
        date: The day as YYYY-MM-DD, e.g. "2026-03-10".
    """
    load_provider(db, provider_id)
    if not _DATE.match(date.strip()):
        raise ToolError(f"date must be YYYY-MM-DD, got {date!r}")
    slots = [
        load_slot(db, sid) for sid in db.find("slots_by_provider_day", f"{provider_id}|{date}")
    ]
    free = []
    for slot in sorted(slots, key=lambda s: s.start):
        try:
            free_future_slot(slot)
        except ToolError:
            continue
        free.append({"slot_id": slot.slot_id, "start": slot.start})
    return free


@tool(ToolKind.READ)
def get_prescription_details(db: Database, rx_id: str) -> dict[str, Any]:
    """Get a prescription: medication, dose, controlled or not, refills left, fills, pharmacy.

    The earliest refill date is the day a refill may first be requested.

    Args:
        rx_id: The prescription id, e.g. "RX-204817".
    """
    return prescription_view(db, load_prescription(db, rx_id))


@tool(ToolKind.READ)
def list_insurance_plans(db: Database) -> list[Plan]:
    """List the insurance plans accepted: ids, names, covered specialties and copays."""
    return [plan for _, plan in db.items("plans")]


@tool(ToolKind.READ)
def check_coverage(
    db: Database, user_id: str, provider_id: str, visit_type: VisitType
) -> dict[str, Any]:
    """Check whether the patient's plan covers a visit with a provider, and what the patient pays.

    A covered visit costs the plan's copay for the visit type; otherwise the self-pay price.

    Args:
        user_id: The patient's user id, e.g. "ava_smith_1234".
        provider_id: The provider id, e.g. "PR-48213".
        visit_type: "video" or "in_person".
    """
    patient = load_patient(db, user_id)
    provider = load_provider(db, provider_id)
    plan = patient_plan(db, patient)
    covered, cost = visit_cost(plan, provider.specialty, visit_type)
    return {
        "plan": plan.name if plan is not None else "self-pay (no insurance on file)",
        "specialty": provider.specialty,
        "visit_type": visit_type,
        "covered": covered,
        "patient_cost": cost,
    }


@tool(ToolKind.READ)
def find_pharmacies(db: Database, city: str) -> list[dict[str, Any]]:
    """List the pharmacies of a city.

    Args:
        city: The city, e.g. "Austin".
    """
    found = [load_pharmacy(db, pid) for pid in db.find("pharmacies_by_city", city.strip().lower())]
    return [msgspec.to_builtins(p) for p in found]


calculate = kit_tools.calculate
transfer_to_human_agents = kit_tools.transfer_to_human_agents

# ---- write tools ------------------------------------------------------------------------------


def _new_appointment_id(db: Database) -> str:
    return f"APT-N{sum(1 for _ in db.keys('appointments')) + 1}"


@tool(ToolKind.WRITE)
def book_appointment(
    db: Database, user_id: str, slot_id: str, visit_type: VisitType
) -> dict[str, Any]:
    """Book a free slot for the patient; the cost is the plan's copay or the self-pay price.

    Args:
        user_id: The patient's user id, e.g. "ava_smith_1234".
        slot_id: A free slot from find_available_slots, e.g. "SL-502913".
        visit_type: "video" or "in_person"; the provider must offer it.
    """
    patient = load_patient(db, user_id)
    slot = load_slot(db, slot_id)
    free_future_slot(slot)
    provider = load_provider(db, slot.provider_id)
    if visit_type not in provider.visit_types:
        raise ToolError(f"{provider.display_name} does not offer {visit_type} visits")
    no_clash(db, patient, slot.start)
    _, cost = visit_cost(patient_plan(db, patient), provider.specialty, visit_type)
    aid = _new_appointment_id(db)
    appointment = Appointment(
        aid,
        patient.user_id,
        provider.provider_id,
        provider.specialty,
        slot.start,
        visit_type,
        SCHEDULED,
        cost,
        slot.slot_id,
    )
    db.put("appointments", aid, appointment)
    db.put("slots", slot.slot_id, msgspec.structs.replace(slot, appointment_id=aid))
    db.put("patients", patient.user_id, relink(patient, aid))
    return appointment_view(db, appointment)


def _release(db: Database, appointment: Appointment) -> None:
    if appointment.slot_id:
        slot = load_slot(db, appointment.slot_id)
        db.put("slots", slot.slot_id, msgspec.structs.replace(slot, appointment_id=""))


def _fee(appointment: Appointment, charge_late_fee: bool) -> float:
    return LATE_FEES[appointment.visit_type] if charge_late_fee else 0.0


@tool(ToolKind.WRITE)
def reschedule_appointment(
    db: Database, appointment_id: str, new_slot_id: str, charge_late_fee: bool
) -> dict[str, Any]:
    """Move an upcoming appointment to another free slot of the same provider.

    Args:
        appointment_id: The appointment id, e.g. "APT-482910".
        new_slot_id: A free slot of the same provider, e.g. "SL-502913".
        charge_late_fee: Whether the late fee applies (video $35, in person $60).
    """
    appointment = load_appointment(db, appointment_id)
    upcoming(appointment)
    slot = load_slot(db, new_slot_id)
    free_future_slot(slot)
    if slot.provider_id != appointment.provider_id:
        raise ToolError(f"slot {slot.slot_id} belongs to another provider")
    patient = load_patient(db, appointment.user_id)
    no_clash(db, patient, slot.start, keep=appointment.appointment_id)
    _release(db, appointment)
    updated = msgspec.structs.replace(
        appointment,
        start=slot.start,
        slot_id=slot.slot_id,
        late_fee=appointment.late_fee + _fee(appointment, charge_late_fee),
    )
    db.put("slots", slot.slot_id, msgspec.structs.replace(slot, appointment_id=appointment_id))
    db.put("appointments", appointment.appointment_id, updated)
    return appointment_view(db, updated)


@tool(ToolKind.WRITE)
def cancel_appointment(db: Database, appointment_id: str, charge_late_fee: bool) -> dict[str, Any]:
    """Cancel an upcoming appointment and free its slot.

    Args:
        appointment_id: The appointment id, e.g. "APT-482910".
        charge_late_fee: Whether the late fee applies (video $35, in person $60).
    """
    appointment = load_appointment(db, appointment_id)
    upcoming(appointment)
    _release(db, appointment)
    updated = msgspec.structs.replace(
        appointment,
        status=CANCELLED,
        slot_id="",
        late_fee=appointment.late_fee + _fee(appointment, charge_late_fee),
    )
    db.put("appointments", appointment.appointment_id, updated)
    return appointment_view(db, updated)


@tool(ToolKind.WRITE)
def request_refill(db: Database, rx_id: str, pharmacy_id: str) -> dict[str, Any]:
    """Send a refill of an active prescription to a pharmacy; it uses one of the refills left.

    Args:
        rx_id: The prescription id, e.g. "RX-204817".
        pharmacy_id: The pharmacy that fills it, e.g. "PH-4821".
    """
    rx = load_prescription(db, rx_id)
    active(rx)
    pharmacy = load_pharmacy(db, pharmacy_id)
    if rx.refills_left <= 0:
        raise ToolError(f"prescription {rx.rx_id} has no refills left")
    today = TODAY.isoformat()
    updated = msgspec.structs.replace(
        rx,
        refills_left=rx.refills_left - 1,
        last_filled=today,
        fills=(*rx.fills, Fill(today, pharmacy.pharmacy_id)),
    )
    db.put("prescriptions", rx.rx_id, updated)
    return prescription_view(db, updated)


@tool(ToolKind.WRITE)
def request_renewal(db: Database, rx_id: str) -> dict[str, Any]:
    """Ask the prescriber to renew a prescription that has no refills left.

    Args:
        rx_id: The prescription id, e.g. "RX-204817".
    """
    rx = load_prescription(db, rx_id)
    active(rx)
    if rx.refills_left > 0:
        raise ToolError(f"prescription {rx.rx_id} still has {rx.refills_left} refill(s) left")
    if rx.renewal_requested:
        raise ToolError(f"a renewal of prescription {rx.rx_id} is already requested")
    updated = msgspec.structs.replace(rx, renewal_requested=True)
    db.put("prescriptions", rx.rx_id, updated)
    return prescription_view(db, updated)


@tool(ToolKind.WRITE)
def change_prescription_pharmacy(db: Database, rx_id: str, pharmacy_id: str) -> dict[str, Any]:
    """Send future fills of a prescription to another pharmacy.

    Args:
        rx_id: The prescription id, e.g. "RX-204817".
        pharmacy_id: The new pharmacy, e.g. "PH-4821"; it must differ from the current one.
    """
    rx = load_prescription(db, rx_id)
    active(rx)
    pharmacy = load_pharmacy(db, pharmacy_id)
    if pharmacy.pharmacy_id == rx.pharmacy_id:
        raise ToolError(f"prescription {rx.rx_id} already goes to {pharmacy.name}")
    updated = msgspec.structs.replace(rx, pharmacy_id=pharmacy.pharmacy_id)
    db.put("prescriptions", rx.rx_id, updated)
    return prescription_view(db, updated)


@tool(ToolKind.WRITE)
def update_insurance(db: Database, user_id: str, plan_id: str, member_id: str) -> Patient:
    """Record the patient's new insurance plan and member id (future bookings use it).

    Args:
        user_id: The patient's user id, e.g. "ava_smith_1234".
        plan_id: An accepted plan from list_insurance_plans, e.g. "PLN-PPO".
        member_id: The member id on the patient's insurance card, e.g. "PPO4820193".
    """
    patient = load_patient(db, user_id)
    plan = load_plan(db, plan_id)
    member = member_id.strip().upper()
    if not member.isalnum():
        raise ToolError("member_id must be letters and digits only")
    if plan.plan_id == patient.plan_id and member == patient.member_id:
        raise ToolError("this plan and member id are already on file")
    updated = msgspec.structs.replace(patient, plan_id=plan.plan_id, member_id=member)
    db.put("patients", patient.user_id, updated)
    return updated


@tool(ToolKind.WRITE)
def update_phone_number(db: Database, user_id: str, phone: str) -> Patient:
    """Change the patient's phone number.

    Args:
        user_id: The patient's user id, e.g. "ava_smith_1234".
        phone: The new number as NNN-NNN-NNNN, e.g. "512-555-0147".
    """
    patient = load_patient(db, user_id)
    if not _PHONE.match(phone.strip()):
        raise ToolError(f"phone must be NNN-NNN-NNNN, got {phone!r}")
    updated = msgspec.structs.replace(patient, phone=phone.strip())
    db.put("patients", patient.user_id, updated)
    return updated
