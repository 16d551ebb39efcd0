"""Hard telehealth intents about prescriptions the patient names among several.

A refill beside a controlled one (refused, transferred), a supply the patient says has run out
(the record says when a refill is due), a refill asked for mid-conversation, and every
prescription moved to a new pharmacy with the due ones refilled there.
"""

from __future__ import annotations

import random

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.domains.telehealth.data import (
    ACTIVE,
    Appointment,
    Patient,
    Pharmacy,
    Prescription,
)
from tau_sim.domains.telehealth.factory.common import (
    NOTICE_HOURS,
    HardTelehealthIntent,
    describable,
    describe_visit,
    due,
    medications_text,
    new_slot,
    pick_rx,
    refill,
    refill_not_due,
    rx_reads,
    search_path,
    slot_search,
    upcoming,
    visit_reads,
)
from tau_sim.domains.telehealth.scenario import medication_text, refills_text, time_text
from tau_sim.simulator.world import Action, Database, Domain, Task


def _of(db: Database, patient: Patient) -> list[Prescription]:
    """The patient's prescriptions, in the profile's order."""
    return [record(db, "prescriptions", r) for r in patient.prescriptions]


class RefillAndControlledMixed(Refuses, HardTelehealthIntent):
    """Refills of due prescriptions (done) and of a controlled one (refused: to a clinician)."""

    name = "refill_and_controlled_mixed"
    challenges = frozenset({"search", "mixed"})
    rules = ("controlled-to-human",)
    done_at = "instead"
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task: one or two refills allowed, the controlled one refused."""
        controlled = pick_rx(
            db, rng, lambda r: r.status == ACTIVE and r.controlled and r.refills_left > 0
        )
        if controlled is None:
            return None
        patient: Patient = record(db, "patients", controlled.user_id)
        refillable = [
            r for r in _of(db, patient) if not r.controlled and due(r) and r.refills_left >= 2
        ]
        if not refillable:
            return None
        allowed = rng.sample(refillable, min(len(refillable), rng.choice((1, 2))))
        named = [*allowed, controlled]
        meds = medications_text(named)
        who = self.identity(db, patient.user_id, rng)
        summary = (
            f"Patient {patient.user_id} asks for a refill of controlled substance "
            f"{controlled.medication} ({controlled.rx_id})."
        )
        task = self.task(
            domain,
            who,
            goal=f"I want refills of my {meds}, sent to my usual pharmacy. I want to know how "
            f"many refills each has left. If the agent cannot refill the "
            f"{controlled.medication}, in the end I agree to be transferred for it once the "
            f"others are done. {CONFIRM}",
            demand=f"my {medication_text(controlled)} refilled too",
            opening=one_of(
                rng,
                "Hi, I need refills of my {meds}.",
                "Hello, could you refill my {meds}?",
                "I'm running low on my {meds}.",
                "Hey, refills please: {meds}.",
                "Good morning. My {meds} all need refilling.",
            ).format(meds=meds),
            known={"medication": meds},
            actions=[
                *search_path(who, rx_reads(patient, *named)),
                *(refill(r) for r in allowed),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            outputs=[
                *(refills_text(r.refills_left - 1) for r in allowed),
                "controlled",
                "cannot refill",
            ],
            summary=f"refill {len(allowed)}, controlled {controlled.rx_id}: transfer",
        )
        return refusing(task, refill(controlled))  # the controlled one refilled


class RanOutDisproven(Refuses, HardTelehealthIntent):
    """A supply the patient says has run out, that the record shows is not due: no refill."""

    name = "ran_out_disproven"
    forbidden = True
    challenges = frozenset({"search", "disproven"})
    rules = ("refill-not-before-date",)
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        rx = pick_rx(db, rng, refill_not_due)
        if rx is None:
            return None
        patient: Patient = record(db, "patients", rx.user_id)
        if len(patient.prescriptions) < 2:
            return None
        who = self.identity(db, patient.user_id, rng)
        med = medication_text(rx)
        date = rx.earliest_refill.isoformat()
        task = self.task(
            domain,
            who,
            goal=f"My {med} has run out, I took the last one yesterday, and I want a refill "
            "today. If the agent says it is too early, I want to know the first day I can get "
            "it.",
            demand=f"my {med} refilled today",
            opening=one_of(
                rng,
                "Hi, I've run out of my {med} and need a refill now.",
                "Hello, my {med} is all gone. Please refill it today.",
                "I have no {med} left at all, I need more.",
                "Hey, I'm out of {med}, can you send a refill?",
                "Good morning. I finished my {med} yesterday and need a refill.",
            ).format(med=med),
            known={"medication": med},
            actions=search_path(who, rx_reads(patient, rx)),
            outputs=[date],
            summary=f"{rx.rx_id} 'run out', refill not before {date}: refuse",
        )
        return refusing(task, refill(rx))  # the refill sent before it is due


class LaterRefill(HardTelehealthIntent):
    """Cancel or move a described visit; then, mid-conversation, refills of one or two."""

    name = "later_refill"
    challenges = frozenset({"search", "later"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        appointment = _rx_patient_visit(db, rng)
        if appointment is None:
            return None
        patient, visit, refills = appointment
        who = self.identity(db, patient.user_id, rng)
        desc = describe_visit(db, visit)
        meds = medications_text(refills)
        slot = new_slot(db, rng, visit, patient) if rng.random() < 0.4 else None
        change = (
            [
                slot_search(visit.provider_id, slot),
                Action(
                    "reschedule_appointment",
                    {
                        "appointment_id": visit.appointment_id,
                        "new_slot_id": slot.slot_id,
                        "charge_late_fee": False,
                    },
                ),
            ]
            if slot is not None
            else [
                Action(
                    "cancel_appointment",
                    {"appointment_id": visit.appointment_id, "charge_late_fee": False},
                )
            ]
        )
        wish = (
            f"move {desc} (I do not know the appointment id) to {time_text(slot.start)} with "
            "the same provider"
            if slot is not None
            else f"cancel {desc} (I do not know the appointment id); I do not want to book "
            "another one now"
        )
        known = {"appointment": desc, "medication": meds}
        if slot is not None:
            known["new_time"] = time_text(slot.start)
        actions = [*search_path(who, visit_reads(db, patient, visit)), *change]
        later_at = len(actions)
        actions += [*rx_reads(patient, *refills), *(refill(r) for r in refills)]
        return self.task(
            domain,
            who,
            goal=f"I want to {wish}. {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I need to change {desc}.",
                "Hello, I won't be able to make {desc}.",
                "I can't keep {desc}, something came up.",
                "Hey, it's about {desc}.",
                "Good morning. I'd like to sort out {desc}.",
            ).format(desc=desc),
            known=known,
            actions=actions,
            outputs=[refills_text(r.refills_left - 1) for r in refills],
            summary=f"cancel {visit.appointment_id}, later refill {len(refills)}",
            later=f"Oh, and while I have you, could you also refill my {meds}? The usual "
            "pharmacy is fine. How many refills will I have left?",
            later_at=later_at,
        )


def _rx_patient_visit(
    db: Database, rng: random.Random
) -> tuple[Patient, Appointment, list[Prescription]] | None:
    """A patient with a describable visit 48 h or more away and one or two due prescriptions."""
    for _ in range(50):
        patient: Patient = record(db, "patients", rng.choice(list(db.keys("patients"))))
        visits = [
            a
            for a in (record(db, "appointments", x) for x in patient.appointments)
            if upcoming(NOTICE_HOURS + 24, 10_000)(a) and describable(db, a)
        ]
        refillable = [
            r for r in _of(db, patient) if not r.controlled and due(r) and r.refills_left >= 2
        ]
        if visits and refillable:
            count = min(len(refillable), rng.choice((1, 2)))
            return patient, rng.choice(visits), rng.sample(refillable, count)
    return None


class PharmacyMoveAll(HardTelehealthIntent):
    """Every prescription to a new pharmacy; those due refilled there, the others only moved."""

    name = "pharmacy_move_all"
    challenges = frozenset({"search", "conditional", "long"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task: two or three prescriptions, three to five writes."""
        patient: Patient = record(db, "patients", rng.choice(list(db.keys("patients"))))
        current = [r for r in _of(db, patient) if r.status == ACTIVE]
        if not 2 <= len(current) <= 3 or any(r.controlled or r.refills_left < 2 for r in current):
            return None
        ready = [r for r in current if due(r)]
        if not ready or not 3 <= len(current) + len(ready) <= 5:
            return None
        options = [
            p
            for _, p in sorted(db.items("pharmacies"))
            if all(r.pharmacy_id != p.pharmacy_id for r in current)
        ]
        pharmacy: Pharmacy = rng.choice(options)
        city = pharmacy.address.city
        writes: list[Action] = []
        for rx in current:
            writes.append(
                Action(
                    "change_prescription_pharmacy",
                    {"rx_id": rx.rx_id, "pharmacy_id": pharmacy.pharmacy_id},
                )
            )
            if due(rx):
                writes.append(refill(rx, pharmacy.pharmacy_id))
        meds = medications_text(current)
        later = [r for r in current if not due(r)]
        who = self.identity(db, patient.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I have moved to {city}. I want all my prescriptions ({meds}) sent to "
            f"{pharmacy.name} from now on. For each one, if a refill is due now, I want it sent "
            "there today as well; if not, I want to know when it will be. I want to know how "
            f"many refills are left on the ones refilled. {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I moved and need my {meds} at a new pharmacy.",
                "Hello, please switch my {meds} to a pharmacy near my new place.",
                "I've relocated; my {meds} should go to a different pharmacy now.",
                "Hey, new city, new pharmacy: can you move my {meds}?",
                "Good morning. My {meds} need to go to my new local pharmacy.",
            ).format(meds=meds),
            known={"medication": meds, "new_pharmacy": pharmacy.name},
            actions=[
                *search_path(who, rx_reads(patient, *current)),
                Action("find_pharmacies", {"city": city}),
                *writes,
            ],
            outputs=[
                *(refills_text(r.refills_left - 1) for r in ready),
                *(r.earliest_refill.isoformat() for r in later),
            ],
            summary=f"{len(current)} to {pharmacy.pharmacy_id}, {len(ready)} refilled",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a prescription that is not due refilled too."""
        db = domain.new_database()
        reads = [a.arguments["rx_id"] for a in task.actions if a.name == "get_prescription_details"]
        waiting = [
            rx
            for rx in (record(db, "prescriptions", r) for r in reads)
            if not due(rx) and rx.refills_left > 0
        ]
        paths = super().mistakes(domain, task)
        if waiting:
            pharmacy = task.actions[-1].arguments["pharmacy_id"]
            paths.append([*task.actions, refill(waiting[0], pharmacy)])
        return paths
