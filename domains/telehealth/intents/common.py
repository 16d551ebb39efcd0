"""The telehealth intents' base class and the appointment and prescription helpers they share."""

from __future__ import annotations

import random
from collections.abc import Callable

from tau_sim.domains.kit.identity import EMAIL, NAME_DOB, NAME_ZIP
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.domains.telehealth.data import SCHEDULED, Appointment, Patient, Slot, hours_until
from tau_sim.domains.telehealth.scenario import UNKNOWN_IDS
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
