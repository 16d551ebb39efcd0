"""The telehealth intents' base class and the appointment and prescription helpers they share."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from datetime import datetime

from tau_sim.domains.kit.factory.base import listing
from tau_sim.domains.kit.identity import EMAIL, NAME_DOB, NAME_ZIP, Identity
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.domains.telehealth.access import WEEKDAYS
from tau_sim.domains.telehealth.data import (
    ACTIVE,
    SCHEDULED,
    TODAY,
    Appointment,
    Patient,
    Prescription,
    Provider,
    Slot,
    hours_until,
)
from tau_sim.domains.telehealth.scenario import UNKNOWN_IDS, medication_text
from tau_sim.simulator.world import Action, Database, Domain, Task

WRONG_PHONE = "000-555-0100"
"""A number no generated patient has: the target of the unrequested write in ``mistakes``."""

NOTICE_HOURS = 24
"""Cancelling or moving a visit less than this many hours before it starts costs the late fee."""


class TelehealthIntent(CustomerIntent):
    """A patient: email (50%), name + birth date (30%) or name + zip; never knows internal ids."""

    factors = ((EMAIL, 0.5), (NAME_DOB, 0.3), (NAME_ZIP, 0.2))
    customers = "patients"
    details_tool = "get_patient_details"
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """An unrequested change of the patient's phone number; the last write left out."""
        return [
            self.stray_write(task, "update_phone_number", phone=WRONG_PHONE),
            *self.last_write_left_out(domain, task),
        ]

    def moved(
        self, db: Database, rng: random.Random, appointment: Appointment | None
    ) -> tuple[Appointment, Patient, Slot, Identity] | None:
        """``appointment`` (picked; None: no task), its patient, a new slot and the identity.

        The slot is the one ``new_slot`` draws; None when the provider has none.
        """
        if appointment is None:
            return None
        patient: Patient = record(db, "patients", appointment.user_id)
        slot = new_slot(db, rng, appointment, patient)
        if slot is None:
            return None
        return appointment, patient, slot, self.identity(db, patient.user_id, rng)


pick_rx = picker("prescriptions", Prescription)


def upcoming(hours_from: float, hours_to: float) -> Callable[[Appointment], bool]:
    """A filter of scheduled appointments starting in ``hours_from`` to ``hours_to`` hours."""

    def accept(a: Appointment) -> bool:
        return a.status == SCHEDULED and hours_from <= hours_until(a.start) < hours_to

    return accept


def free_slots(db: Database, provider_id: str, day: str) -> list[Slot]:
    """The provider's free slots of ``day`` that are still ahead, earliest first."""
    slots = [
        record(db, "slots", s) for s in db.find("slots_by_provider_day", f"{provider_id}|{day}")
    ]
    return sorted(
        (s for s in slots if not s.appointment_id and hours_until(s.start) > 0),
        key=lambda s: s.start,
    )


def clashes(db: Database, patient: Patient, start: str) -> bool:
    """Whether the patient already has a scheduled appointment starting at ``start``."""
    return any(
        record(db, "appointments", a).status == SCHEDULED
        and record(db, "appointments", a).start == start
        for a in patient.appointments
    )


def new_slot(
    db: Database, rng: random.Random, appointment: Appointment, patient: Patient
) -> Slot | None:
    """A free slot of the appointment's provider on another day, at least 48 h away."""
    days = sorted(
        {s.start[:10] for _, s in db.items("slots") if s.provider_id == appointment.provider_id}
    )
    days = [d for d in days if d != appointment.start[:10] and hours_until(f"{d}T09:00") >= 48]
    for day in rng.sample(days, len(days)):
        free = [
            s
            for s in free_slots(db, appointment.provider_id, day)
            if not clashes(db, patient, s.start)
        ]
        if free:
            chosen: Slot = rng.choice(free)
            return chosen
    return None


def slot_search(provider_id: str, slot: Slot) -> Action:
    """The ``find_available_slots`` call that lists ``slot`` (its provider, its day)."""
    return Action("find_available_slots", {"provider_id": provider_id, "date": slot.start[:10]})


# ---- records the patient describes instead of naming (the hard tier's search) -----------------


class HardTelehealthIntent(TelehealthIntent):
    """A telehealth intent of the hard tier."""

    tier = "hard"


def day_phrase(start: str) -> str:
    """When a visit is, as a patient says it: "today at 14:00", "next Tuesday at 09:00"."""
    moment = datetime.fromisoformat(start)
    days = (moment.date() - TODAY).days
    hour = f"at {moment:%H:%M}"
    if days == 0:
        return f"today {hour}"
    if days == 1:
        return f"tomorrow {hour}"
    if days < 7 - TODAY.weekday():
        return f"this {moment:%A} {hour}"
    if days < 14 - TODAY.weekday():
        return f"next {moment:%A} {hour}"
    return f"on {moment:%B} {moment.day} {hour}"


def describe_visit(db: Database, appointment: Appointment, when: bool = True) -> str:
    """A visit as its patient describes it: "my dermatology visit with Dr. Mei Kim next Tuesday".

    Without ``when`` only the specialty and the provider (a patient wrong about the day).
    """
    provider: Provider = record(db, "providers", appointment.provider_id)
    text = f"my {appointment.specialty} visit with {provider.display_name}"
    return f"{text} {day_phrase(appointment.start)}" if when else text


def scheduled_of(db: Database, patient: Patient) -> list[Appointment]:
    """The patient's scheduled appointments still ahead, in the profile's order."""
    mine = [record(db, "appointments", a) for a in patient.appointments]
    return [a for a in mine if a.status == SCHEDULED and hours_until(a.start) > 0]


def describable(db: Database, appointment: Appointment) -> bool:
    """Whether the patient has another appointment and no other scheduled one with the provider."""
    patient: Patient = record(db, "patients", appointment.user_id)
    others = [
        a for a in scheduled_of(db, patient) if a.appointment_id != appointment.appointment_id
    ]
    return len(patient.appointments) >= 2 and all(
        a.provider_id != appointment.provider_id for a in others
    )


def visit_reads(
    db: Database, patient: Patient, *targets: Appointment, compare: bool = True
) -> list[Action]:
    """The gold search of visits: the patient's list, then the candidates compared.

    Those are the upcoming scheduled appointments of the described ones' specialties (the
    described ones among them), in the profile's order; only the described ones without
    ``compare``.
    """
    specialties = {a.specialty for a in targets} if compare else set()
    ids = {a.appointment_id for a in targets}
    candidates = [
        a.appointment_id
        for a in scheduled_of(db, patient)
        if a.specialty in specialties or a.appointment_id in ids
    ]
    return [
        Action("list_patient_appointments", {"user_id": patient.user_id}),
        *(Action("get_appointment_details", {"appointment_id": a}) for a in candidates),
    ]


def rx_reads(patient: Patient, *targets: Prescription) -> list[Action]:
    """The gold search of prescriptions: the patient's list, then each one named."""
    return [
        Action("list_patient_prescriptions", {"user_id": patient.user_id}),
        *(Action("get_prescription_details", {"rx_id": r.rx_id}) for r in targets),
    ]


def search_path(who: Identity, searched: list[Action], *reads: Action) -> list[Action]:
    """The lookup, ``searched`` (``visit_reads``, ``rx_reads``), the profile, then ``reads``.

    The profile is read once the records are found: the ids then come from the lists, which
    tell the records apart, not from the profile's bare ids.
    """
    lookup, *profile = who.actions
    return [lookup, *searched, *profile, *reads]


def medications_text(prescriptions: Sequence[Prescription]) -> str:
    """Medications as a patient lists them: "lisinopril 10 mg tablet and metformin 500 mg"."""
    return listing([medication_text(r) for r in prescriptions])


def due(rx: Prescription) -> bool:
    """A prescription a refill may be sent for today (active, refills left, date reached).

    The intents refill only those with two refills or more, so one is left to tell about.
    """
    return rx.status == ACTIVE and rx.refills_left > 0 and rx.earliest_refill <= TODAY


def refill_not_due(rx: Prescription) -> bool:
    """An active, not controlled prescription with refills left, whose refill date is to come."""
    return (
        rx.status == ACTIVE
        and not rx.controlled
        and rx.refills_left > 0
        and rx.earliest_refill > TODAY
    )


def other_cancelled(appointment_id: str) -> Action:
    """The cancel of another patient's appointment ``appointment_id``, as the user asks."""
    return Action(
        "cancel_appointment", {"appointment_id": appointment_id, "charge_late_fee": False}
    )


def refill(rx: Prescription, pharmacy_id: str = "") -> Action:
    """The refill of ``rx`` sent to ``pharmacy_id``, or to its own pharmacy."""
    return Action(
        "request_refill", {"rx_id": rx.rx_id, "pharmacy_id": pharmacy_id or rx.pharmacy_id}
    )


def days_question(
    db: Database, provider_id: str, rng: random.Random
) -> tuple[str, list[Action], list[str]]:
    """Half the time, the patient also asks which days a provider works (for a later visit).

    The goal's extra sentence, the provider read and the day names the agent must say; all
    empty the other half.
    """
    if rng.random() < 0.5:
        return "", [], []
    provider: Provider = record(db, "providers", provider_id)
    days = [WEEKDAYS[d] for d in provider.weekdays]
    ask = f" I also want to know which days {provider.display_name} works."
    return ask, [Action("get_provider_details", {"provider_id": provider_id})], days


def rx_list(user_id: str, rng: random.Random) -> list[Action]:
    """Half the time, the read of the patient's prescription list before the one named."""
    if rng.random() < 0.5:
        return []
    return [Action("list_patient_prescriptions", {"user_id": user_id})]


def visit_ref(
    db: Database, who: Identity, appointment: Appointment, rng: random.Random
) -> tuple[str, dict[str, str], list[Action]]:
    """How a base task's patient names a visit: its id, or half the time a description.

    The words ("my appointment APT-482910", "my dermatology visit with Dr. Mei Kim next
    Tuesday at 14:00"), the slot that holds them and the gold reads that find the visit.
    """
    aid = appointment.appointment_id
    if rng.random() < 0.5 or not describable(db, appointment):
        reads = [*who.actions, Action("get_appointment_details", {"appointment_id": aid})]
        return f"my appointment {aid}", {"appointment_id": aid}, reads
    patient: Patient = record(db, "patients", appointment.user_id)
    desc = describe_visit(db, appointment)
    return desc, {"appointment": desc}, search_path(who, visit_reads(db, patient, appointment))
