"""Hard telehealth intents about visits the patient describes, a fee claim, a fallback provider.

The patient names no appointment id: it describes the visit (specialty, provider, day), and the
gold path lists the patient's appointments and reads the one described.
"""

from __future__ import annotations

import random

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.chains import Chain, flipped, last_write
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.domains.kit.vocab import pronouns
from tau_sim.domains.telehealth.data import (
    Appointment,
    Patient,
    Provider,
    Slot,
    hours_until,
    visit_cost,
)
from tau_sim.domains.telehealth.factory.common import (
    NOTICE_HOURS,
    HardTelehealthIntent,
    clashes,
    days_question,
    describable,
    describe_visit,
    free_slots,
    other_cancelled,
    search_path,
    slot_search,
    upcoming,
    visit_reads,
)
from tau_sim.domains.telehealth.rules import LATE_FEES
from tau_sim.domains.telehealth.scenario import time_text, visit_text
from tau_sim.simulator.world import Action, Database, Domain, Task

_appointment = picker("appointments", Appointment)


class DescribedReschedule(Chain, HardTelehealthIntent):
    """Move a visit the patient describes to another day; the late fee when under 24 hours."""

    name = "described_reschedule"
    challenges = frozenset({"search"})
    slips = (last_write(flipped("charge_late_fee")),)  # the late fee the other way

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task: mostly with notice, sometimes late (the fee accepted)."""
        late = rng.random() < 0.3
        window = (1.0, NOTICE_HOURS) if late else (NOTICE_HOURS + 24, 10_000)
        picked = _appointment(db, rng, lambda a: upcoming(*window)(a) and describable(db, a))
        moved = self.moved(db, rng, picked)
        if moved is None:
            return None
        appointment, patient, slot, who = moved
        desc = describe_visit(db, appointment)
        when = time_text(slot.start)
        fee = LATE_FEES[appointment.visit_type]
        accepts = " If there is a fee, I accept it, but I want to know how much." if late else ""
        ask, days, names = days_question(db, appointment.provider_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to move {desc} (I do not know the appointment id) to {when} with the "
            f"same provider.{accepts}{ask} {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I need to reschedule {desc}.",
                "Hello, can you move {desc}?",
                "I can't make {desc}, I'd like another time.",
                "Hey, {desc} doesn't work for me anymore.",
                "Good morning. I'd like a different time for {desc}.",
            ).format(desc=desc),
            known={"appointment": desc, "new_time": when},
            actions=[
                *search_path(who, visit_reads(db, patient, appointment)),
                slot_search(appointment.provider_id, slot),
                *days,
                Action(
                    "reschedule_appointment",
                    {
                        "appointment_id": appointment.appointment_id,
                        "new_slot_id": slot.slot_id,
                        "charge_late_fee": late,
                    },
                ),
            ],
            outputs=[*([money_text(fee)] if late else []), *names],
            summary=f"move described {appointment.appointment_id} to {when} (late: {late})",
        )


class FeeClaimDisproven(Refuses, HardTelehealthIntent):
    """A visit the patient says is days away, that starts within 24 hours: no free cancellation."""

    name = "fee_claim_disproven"
    forbidden = True
    challenges = frozenset({"search", "disproven", "conditional"})
    rules = ("no-fee-waiver",)
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        appointment = _appointment(
            db, rng, lambda a: upcoming(1.0, NOTICE_HOURS)(a) and describable(db, a)
        )
        if appointment is None:
            return None
        patient: Patient = record(db, "patients", appointment.user_id)
        who = self.identity(db, patient.user_id, rng)
        desc = describe_visit(db, appointment, when=False)
        fee = LATE_FEES[appointment.visit_type]
        believed = rng.choice(("the day after tomorrow", "later this week", "next week"))
        ask, days, names = days_question(db, appointment.provider_id, rng)
        task = self.task(
            domain,
            who,
            goal=f"I want to cancel {desc} (I do not know the appointment id). I am sure it is "
            f"{believed}, so there should be no fee. If the agent says a fee applies, I do not "
            f"want to pay it: then I keep the appointment, and I want to know when it is.{ask}",
            demand=f"{desc} cancelled without the late fee",
            opening=one_of(
                rng,
                "Hi, I'd like to cancel {desc}; it's " + believed + ", so no fee.",
                "Hello, please cancel {desc}. There's plenty of notice.",
                "I need to cancel {desc}, free of charge since it's " + believed + ".",
                "Hey, cancel {desc} please, it's not for days.",
                "Good morning. I won't need {desc} after all.",
            ).format(desc=desc),
            known={"appointment": desc},
            actions=search_path(who, visit_reads(db, patient, appointment), *days),
            outputs=[money_text(fee), appointment.start[11:16], *names],
            summary=f"{appointment.appointment_id} within 24 h, free cancel wanted: refuse",
        )
        waived = {"appointment_id": appointment.appointment_id, "charge_late_fee": False}
        return refusing(task, Action("cancel_appointment", waived))  # the fee waived


class CancelWithRelativeMixed(Refuses, HardTelehealthIntent):
    """Cancel the patient's own described visit (allowed) and a relative's (refused: privacy)."""

    name = "cancel_with_relative_mixed"
    challenges = frozenset({"search", "mixed"})
    rules = ("privacy-other-patient",)
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        mine = _appointment(
            db, rng, lambda a: upcoming(NOTICE_HOURS + 24, 10_000)(a) and describable(db, a)
        )
        theirs = _appointment(db, rng, upcoming(NOTICE_HOURS + 24, 10_000))
        if mine is None or theirs is None or theirs.user_id == mine.user_id:
            return None
        patient: Patient = record(db, "patients", mine.user_id)
        other: Patient = record(db, "patients", theirs.user_id)
        if other.name.first_name == patient.name.first_name:  # two people, one first name
            return None
        who = self.identity(db, patient.user_id, rng)
        relative = rng.choice(("mother", "father", "son", "daughter", "husband", "wife"))
        their, _, their_own = pronouns(relative)
        desc = describe_visit(db, mine)
        aid = theirs.appointment_id
        task = self.task(
            domain,
            who,
            goal=f"I want to cancel {desc} (I do not know its id). My {relative} "
            f"{other.full_name} also can't make {their} appointment {aid}, and I want that "
            "cancelled too. If the agent refuses the second one for privacy, I accept that in "
            f"the end and keep my own cancellation. {CONFIRM}",
            demand=f"my {relative}'s appointment {aid} cancelled too",
            opening=one_of(
                rng,
                "Hi, please cancel {desc}, and my " + relative + "'s appointment too.",
                "Hello, two cancellations: {desc} and one for my " + relative + ".",
                f"I need to cancel {{desc}}. My {relative} can't go to {their_own} either.",
                "Hey, cancel {desc}, and while you're at it my " + relative + "'s visit.",
                "Good morning. {desc} is off, and so is my " + relative + "'s appointment.",
            ).format(desc=desc),
            known={
                "appointment": desc,
                "other_patient": other.full_name,
                "other_appointment_id": aid,
            },
            actions=[
                *search_path(who, visit_reads(db, patient, mine)),
                Action(
                    "cancel_appointment",
                    {"appointment_id": mine.appointment_id, "charge_late_fee": False},
                ),
            ],
            outputs=["privacy", "cannot"],
            summary=f"cancel own {mine.appointment_id}; {other.user_id}'s {aid} refused",
        )
        return refusing(task, other_cancelled(aid))  # the relative's, as asked


class BookWithFallback(HardTelehealthIntent):
    """Book a named provider at an hour; if it is taken, another provider of the specialty then."""

    name = "book_with_fallback"
    challenges = frozenset({"conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task: the first choice's hour is taken (mostly) or free."""
        taken = rng.random() < 0.7
        slot: Slot = record(db, "slots", rng.choice(list(db.keys("slots"))))
        if bool(slot.appointment_id) != taken or hours_until(slot.start) < NOTICE_HOURS:
            return None
        first: Provider = record(db, "providers", slot.provider_id)
        peers = [
            p
            for p in (
                record(db, "providers", x)
                for x in db.find("providers_by_specialty", first.specialty)
            )
            if p.provider_id != first.provider_id
        ]
        day, start = slot.start[:10], slot.start
        backups = [
            (p, s) for p in peers for s in free_slots(db, p.provider_id, day) if s.start == start
        ]
        if not peers or (taken and not backups):
            return None
        second, backup = rng.choice(backups) if backups else (rng.choice(peers), None)
        booked = backup if taken else slot
        assert booked is not None
        provider = second if taken else first
        common = [t for t in first.visit_types if t in second.visit_types]
        patient: Patient = record(db, "patients", rng.choice(list(db.keys("patients"))))
        if not common or clashes(db, patient, start):
            return None
        visit_type = rng.choice(common)
        plan = record(db, "plans", patient.plan_id) if patient.plan_id else None
        _, cost = visit_cost(plan, provider.specialty, visit_type)
        who = self.identity(db, patient.user_id, rng)
        uid, when = patient.user_id, time_text(start)
        searches = [slot_search(first.provider_id, slot)]
        if taken:
            searches.append(slot_search(second.provider_id, booked))
        return self.task(
            domain,
            who,
            goal=f"I want to book {visit_text(visit_type)} with {first.display_name} "
            f"({first.specialty}) on {when}. If {first.display_name} is not free then, I want "
            f"{second.display_name} at the same time instead. I want to know what I will pay. "
            f"{CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I'd like to see {first.display_name} on {when}.",
                f"Hello, I need a {first.specialty} appointment on {when}.",
                f"Can I book {first.display_name}? If not, {second.display_name} is fine.",
                f"Hey, I'm looking for a {first.specialty} visit, {when} ideally.",
                "Good morning. I'd like to book a visit, I have two doctors in mind.",
            ),
            known={
                "specialty": first.specialty,
                "provider": f"{first.display_name}, or else {second.display_name}",
                "visit_type": visit_text(visit_type),
                "new_time": when,
            },
            actions=[
                *who.actions,
                Action("search_providers", {"specialty": first.specialty}),
                *searches,
                Action(
                    "check_coverage",
                    {"user_id": uid, "provider_id": provider.provider_id, "visit_type": visit_type},
                ),
                Action(
                    "book_appointment",
                    {"user_id": uid, "slot_id": booked.slot_id, "visit_type": visit_type},
                ),
            ],
            outputs=[money_text(cost)],
            summary=f"{first.display_name} {'taken' if taken else 'free'} at {when}: book",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and another free hour of the booked provider that day."""
        book = domain.write_actions(task)[-1]
        db = domain.new_database()
        slot: Slot = record(db, "slots", book.arguments["slot_id"])
        patient: Patient = record(db, "patients", book.arguments["user_id"])
        others = [
            s
            for s in free_slots(db, slot.provider_id, slot.start[:10])
            if s.slot_id != slot.slot_id and not clashes(db, patient, s.start)
        ]
        paths = super().mistakes(domain, task)
        if others:
            paths.append(self.last_write_changed(domain, task, slot_id=others[0].slot_id))
        return paths
