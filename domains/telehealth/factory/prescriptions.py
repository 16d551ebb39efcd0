"""Telehealth intents about prescriptions: refills, renewals, pharmacies."""

from __future__ import annotations

import random

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swapped
from tau_sim.domains.telehealth.data import (
    ACTIVE,
    TODAY,
    Appointment,
    Patient,
    Pharmacy,
    Prescription,
    Provider,
)
from tau_sim.domains.telehealth.factory.common import (
    NOTICE_HOURS,
    TelehealthIntent,
    new_slot,
    pick_rx,
    refill,
    refill_not_due,
    rx_list,
    slot_search,
    upcoming,
)
from tau_sim.domains.telehealth.scenario import gold_reads, medication_text, refills_text, time_text
from tau_sim.simulator.world import Action, Database, Domain, Task


def _rx_reads(rx: Prescription, rng: random.Random) -> list[Action]:
    """Half the time the patient's prescription list, then the prescription the user names."""
    return [*rx_list(rx.user_id, rng), Action("get_prescription_details", {"rx_id": rx.rx_id})]


def _refillable(rx: Prescription) -> bool:
    return (
        rx.status == ACTIVE
        and not rx.controlled
        and rx.refills_left >= 2
        and rx.earliest_refill <= TODAY
    )


class RefillPrescription(TelehealthIntent):
    """Refill a prescription that is due, at the pharmacy on file."""

    name = "refill_prescription"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        rx = pick_rx(db, rng, _refillable)
        if rx is None:
            return None
        who = self.identity(db, rx.user_id, rng)
        pharmacy: Pharmacy = record(db, "pharmacies", rx.pharmacy_id)
        med = medication_text(rx)
        city = who.customer.address.city
        nearby = [p for p in db.find("pharmacies_by_city", city.lower()) if p != rx.pharmacy_id]
        known = {"medication": med}
        search: list[Action] = []
        where = f"to my usual pharmacy, {pharmacy.name}"
        if nearby and rng.random() < 0.4:
            pharmacy = record(db, "pharmacies", rng.choice(nearby))
            known["new_pharmacy"] = pharmacy.name
            search = [Action("find_pharmacies", {"city": city})]
            where = f"this once to {pharmacy.name} instead of my usual pharmacy"
        return self.task(
            domain,
            who,
            goal=f"I am running low on my {med} and want a refill sent {where}. I want to know "
            f"how many refills I will have left. {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I need a refill of my {rx.medication}.",
                "Hello, I need a prescription refill.",
                f"I'm almost out of {rx.medication}.",
                "Hey, can you send a refill to my pharmacy?",
            ),
            known=known,
            actions=[
                *who.actions,
                *_rx_reads(rx, rng),
                *search,
                refill(rx, pharmacy.pharmacy_id),
            ],
            outputs=[refills_text(rx.refills_left - 1)],
            summary=f"refill {rx.medication} ({rx.rx_id}), {rx.refills_left - 1} left",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the refill sent to another pharmacy."""
        last = domain.write_actions(task)[-1]
        other = next(
            p for p in domain.base.tables["pharmacies"] if p != last.arguments["pharmacy_id"]
        )
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, pharmacy_id=other),
        ]


class EarlyRefillRefused(Refuses, TelehealthIntent):
    """Ask for a refill before the earliest refill date: refused, the date is stated."""

    rules = ("refill-not-before-date",)
    name = "early_refill_refused"
    forbidden = True
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        rx = pick_rx(db, rng, refill_not_due)
        if rx is None:
            return None
        who = self.identity(db, rx.user_id, rng)
        med = medication_text(rx)
        date = rx.earliest_refill.isoformat()
        task = self.task(
            domain,
            who,
            goal=f"I am going on a trip and want my {med} refilled today. If the agent says it is "
            "too early, I accept that in the end and want to know the first day I can get the "
            "refill.",
            demand=f"my {med} refilled today",
            opening=one_of(
                rng,
                f"Hi, I'd like to refill my {rx.medication} today before I travel.",
                "Hello, I'm leaving on a trip and need my prescription early.",
                f"Can I get my {rx.medication} a bit early? I'm going away.",
                "Hey, I need a refill today, I'm travelling tomorrow.",
            ),
            known={"medication": med},
            actions=[
                *who.actions,
                *_rx_reads(rx, rng),
            ],
            outputs=[date],
            summary=f"refill of {rx.medication} ({rx.rx_id}) too early: not before {date}",
        )
        return refusing(task, refill(rx))  # requested before it is due


class ControlledRefillTransfer(Refuses, TelehealthIntent):
    """Ask for a refill of a controlled substance: the agent never refills it, it transfers."""

    rules = ("controlled-to-human",)
    name = "controlled_refill_transfer"
    forbidden = True
    done_at = "instead"
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        rx = pick_rx(db, rng, lambda r: r.status == ACTIVE and r.controlled and r.refills_left > 0)
        if rx is None:
            return None
        who = self.identity(db, rx.user_id, rng)
        med = medication_text(rx)
        uid = who.customer.user_id
        task = self.task(
            domain,
            who,
            goal=f"I want a refill of my {med}; my prescription still has refills. If the agent "
            "cannot do it, in the end I agree to be transferred to someone who can.",
            demand=f"my {med} refilled",
            opening=one_of(
                rng,
                f"Hi, I need my {rx.medication} refilled please.",
                "Hello, I need a refill of one of my prescriptions.",
                f"I'm running out of {rx.medication}, can you refill it?",
                "Hey, my prescription still has refills, please send one.",
            ),
            known={"medication": med},
            actions=[
                *who.actions,
                *_rx_reads(rx, rng),
                Action(
                    "transfer_to_human_agents",
                    {
                        "summary": f"Patient {uid} asks for a refill of controlled substance "
                        f"{rx.medication} ({rx.rx_id})."
                    },
                ),
            ],
            summary=f"refill of controlled {rx.medication} ({rx.rx_id}): transfer",
        )
        return refusing(task, refill(rx))  # the controlled one refilled by the agent


class RenewalRequest(TelehealthIntent):
    """A prescription with no refills left: a renewal request goes to the prescriber."""

    rules = ("renewal-when-no-refills",)
    name = "renewal_request"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        rx = pick_rx(
            db,
            rng,
            lambda r: (
                r.status == ACTIVE
                and not r.controlled
                and r.refills_left == 0
                and not r.renewal_requested
            ),
        )
        if rx is None:
            return None
        who = self.identity(db, rx.user_id, rng)
        med = medication_text(rx)
        prescriber: Provider = record(db, "providers", rx.prescriber_id)
        return self.task(
            domain,
            who,
            goal=f"I need more of my {med}. If there are no refills left, I want my prescriber "
            f"asked to renew it. {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I need more {rx.medication}.",
                "Hello, my prescription seems to have run out of refills.",
                f"The pharmacy says my {rx.medication} has no refills left.",
                "Hey, can I get my prescription renewed?",
            ),
            known={"medication": med},
            actions=[
                *who.actions,
                *_rx_reads(rx, rng),
                Action("request_renewal", {"rx_id": rx.rx_id}),
            ],
            outputs=[prescriber.display_name],
            summary=f"renewal of {rx.medication} ({rx.rx_id}) from {prescriber.display_name}",
        )


class RescheduleAndRefill(TelehealthIntent):
    """Two requests: move an appointment (no fee) and refill a due prescription."""

    name = "reschedule_and_refill"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        rx = pick_rx(db, rng, _refillable)
        if rx is None:
            return None
        patient: Patient = record(db, "patients", rx.user_id)
        mine = [record(db, "appointments", a) for a in patient.appointments]
        movable = [a for a in mine if upcoming(NOTICE_HOURS + 24, 10_000)(a)]
        if not movable:
            return None
        appointment: Appointment = rng.choice(movable)
        slot = new_slot(db, rng, appointment, patient)
        if slot is None:
            return None
        who = self.identity(db, patient.user_id, rng)
        aid, when, med = appointment.appointment_id, time_text(slot.start), medication_text(rx)
        return self.task(
            domain,
            who,
            goal=f"Two things: I want to move my appointment {aid} to {when} with the same "
            f"provider, and I want a refill of my {med} sent to my usual pharmacy. I want to know "
            f"how many refills I will have left. {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I need to reschedule appointment {aid} and also refill a prescription.",
                "Hello, two things: an appointment to move and a refill.",
                f"Can you move {aid} for me? And I need a refill too.",
                "Hey, I have a scheduling change and a prescription question.",
            ),
            known={"appointment_id": aid, "new_time": when, "medication": med},
            actions=[
                *gold_reads(who, aid),
                slot_search(appointment.provider_id, slot),
                Action(
                    "reschedule_appointment",
                    {"appointment_id": aid, "new_slot_id": slot.slot_id, "charge_late_fee": False},
                ),
                *_rx_reads(rx, rng),
                refill(rx),
            ],
            outputs=[refills_text(rx.refills_left - 1)],
            summary=f"move {aid} to {when} and refill {rx.medication}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the move charged a late fee."""
        move = next(a for a in task.actions if a.name == "reschedule_appointment")
        wrong = replaced(move, charge_late_fee=True)
        return [*super().mistakes(domain, task), swapped(task, move, wrong)]


class SwitchPharmacyAndRefill(TelehealthIntent):
    """Two writes: send a prescription to another pharmacy in the patient's city, then refill it."""

    name = "switch_pharmacy_and_refill"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        rx = pick_rx(db, rng, _refillable)
        if rx is None:
            return None
        patient: Patient = record(db, "patients", rx.user_id)
        city = patient.address.city
        nearby = [p for p in db.find("pharmacies_by_city", city.lower()) if p != rx.pharmacy_id]
        if not nearby:
            return None
        pharmacy: Pharmacy = record(db, "pharmacies", rng.choice(nearby))
        who = self.identity(db, patient.user_id, rng)
        med = medication_text(rx)
        return self.task(
            domain,
            who,
            goal=f"I want my {med} to go to {pharmacy.name} from now on instead of my current "
            f"pharmacy, and I want a refill sent there now. I want to know how many refills I "
            f"will have left. {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I'd like to switch pharmacies for my {rx.medication} and get a refill.",
                "Hello, I want my prescription at a different pharmacy.",
                f"Can my {rx.medication} go to another pharmacy from now on?",
                "Hey, I'm changing pharmacies and need a refill there.",
            ),
            known={"medication": med, "new_pharmacy": pharmacy.name},
            actions=[
                *who.actions,
                *_rx_reads(rx, rng),
                Action("find_pharmacies", {"city": city}),
                Action(
                    "change_prescription_pharmacy",
                    {"rx_id": rx.rx_id, "pharmacy_id": pharmacy.pharmacy_id},
                ),
                refill(rx, pharmacy.pharmacy_id),
            ],
            outputs=[refills_text(rx.refills_left - 1)],
            summary=f"move {rx.medication} to {pharmacy.pharmacy_id} and refill there",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the refill sent to the old pharmacy with no change."""
        rx_id = task.actions[-1].arguments["rx_id"]
        rx: Prescription = record(domain.new_database(), "prescriptions", rx_id)
        old = refill(rx)
        return [*super().mistakes(domain, task), [*task.actions[:-3], old]]
