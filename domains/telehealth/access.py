"""Lookups, views and hard-rule checks shared by the telehealth tools (they raise ``ToolError``)."""

from __future__ import annotations

from typing import Any

import msgspec

from tau_sim.domains.kit.lookup import loader
from tau_sim.domains.telehealth.data import (
    ACTIVE,
    SCHEDULED,
    Appointment,
    Patient,
    Pharmacy,
    Plan,
    Prescription,
    Provider,
    Slot,
    hours_until,
)
from tau_sim.simulator.world import Database, ToolError

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


load_patient = loader("patients", "patient", Patient)
load_provider = loader("providers", "provider", Provider)
load_slot = loader("slots", "slot", Slot)
load_appointment = loader("appointments", "appointment", Appointment)
load_prescription = loader("prescriptions", "prescription", Prescription)
load_pharmacy = loader("pharmacies", "pharmacy", Pharmacy)
load_plan = loader("plans", "insurance plan", Plan)


def patient_plan(db: Database, patient: Patient) -> Plan | None:
    """The patient's insurance plan, or None for a self-pay patient."""
    return load_plan(db, patient.plan_id) if patient.plan_id else None


def free_future_slot(slot: Slot) -> None:
    """Refuse a slot that is booked or already started."""
    if slot.appointment_id:
        raise ToolError(f"slot {slot.slot_id} is already booked")
    if hours_until(slot.start) <= 0:
        raise ToolError(f"slot {slot.slot_id} ({slot.start}) is in the past")


def upcoming(appointment: Appointment) -> None:
    """Refuse an appointment that is not scheduled or has already started."""
    if appointment.status != SCHEDULED:
        raise ToolError(
            f"appointment {appointment.appointment_id} is {appointment.status!r}: only "
            "'scheduled' appointments can be changed"
        )
    if hours_until(appointment.start) <= 0:
        raise ToolError(f"appointment {appointment.appointment_id} has already started")


def no_clash(db: Database, patient: Patient, start: str, keep: str = "") -> None:
    """Refuse a second scheduled appointment of the patient at the same time."""
    for aid in patient.appointments:
        other = load_appointment(db, aid)
        if aid != keep and other.status == SCHEDULED and other.start == start:
            raise ToolError(f"the patient already has appointment {aid} at {start}")


def active(rx: Prescription) -> None:
    """Refuse a prescription that is not active."""
    if rx.status != ACTIVE:
        raise ToolError(f"prescription {rx.rx_id} is {rx.status!r}")


def provider_view(provider: Provider) -> dict[str, Any]:
    """A provider as the agent sees it (name as "Dr. …", working days by name)."""
    return {
        "provider_id": provider.provider_id,
        "name": provider.display_name,
        "specialty": provider.specialty,
        "visit_types": list(provider.visit_types),
        "working_days": [WEEKDAYS[d] for d in provider.weekdays],
    }


def appointment_view(db: Database, appointment: Appointment) -> dict[str, Any]:
    """An appointment as the agent sees it, with the provider's name and its late fee so far."""
    view: dict[str, Any] = msgspec.to_builtins(appointment)
    view["provider_name"] = load_provider(db, appointment.provider_id).display_name
    view.setdefault("late_fee", 0.0)
    return view


def prescription_view(db: Database, rx: Prescription) -> dict[str, Any]:
    """A prescription as the agent sees it, with its earliest refill date and pharmacy name."""
    view: dict[str, Any] = msgspec.to_builtins(rx)
    view["earliest_refill_date"] = rx.earliest_refill.isoformat()
    view["pharmacy_name"] = load_pharmacy(db, rx.pharmacy_id).name
    view["prescriber_name"] = load_provider(db, rx.prescriber_id).display_name
    view.setdefault("renewal_requested", False)
    return view


def appointment_summary(db: Database, appointment: Appointment) -> dict[str, Any]:
    """An appointment in a list: id, provider's name, specialty, start, visit type, status."""
    return {
        "appointment_id": appointment.appointment_id,
        "provider_name": load_provider(db, appointment.provider_id).display_name,
        "specialty": appointment.specialty,
        "start": appointment.start,
        "visit_type": appointment.visit_type,
        "status": appointment.status,
    }


def prescription_summary(rx: Prescription) -> dict[str, Any]:
    """A prescription in a list: id, medication, dose, status, controlled or not."""
    return {
        "rx_id": rx.rx_id,
        "medication": rx.medication,
        "dose": rx.dose,
        "status": rx.status,
        "controlled": rx.controlled,
    }


def relink(patient: Patient, appointment_id: str) -> Patient:
    """The patient with ``appointment_id`` added to their appointments."""
    return msgspec.structs.replace(patient, appointments=(*patient.appointments, appointment_id))
