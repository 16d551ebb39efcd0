"""Telehealth intents about visits: book, reschedule, cancel, coverage, privacy."""

from __future__ import annotations

import random
from typing import ClassVar

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.chains import Chain, flipped, last_write, left_out
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.lookup import pick, picker, record
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.domains.kit.vocab import pronouns
from tau_sim.domains.telehealth.catalog import PLANS
from tau_sim.domains.telehealth.data import (
    Appointment,
    Patient,
    Plan,
    Provider,
    Slot,
    hours_until,
    visit_cost,
)
from tau_sim.domains.telehealth.factory.common import (
    NOTICE_HOURS,
    TelehealthIntent,
    clashes,
    days_question,
    free_slots,
    other_cancelled,
    slot_search,
    upcoming,
    visit_ref,
)
from tau_sim.domains.telehealth.rules import LATE_FEES
from tau_sim.domains.telehealth.scenario import sentence, time_text, visit_text
from tau_sim.simulator.world import Action, Database, Domain, Task

_appointment = picker("appointments", Appointment)


class BookAppointment(TelehealthIntent):
    """Book a free slot with a named provider; the patient learns what they will pay."""

    name = "book_appointment"

    def booking(
        self, db: Database, rng: random.Random, plan: Plan | None = None
    ) -> tuple[Identity, Provider, Slot, str, float, list[Action]] | None:
        """The identity, provider, slot, visit type, cost and the search-check-book actions."""
        slot: Slot | None = pick(
            db, rng, "slots", lambda s: not s.appointment_id and hours_until(s.start) >= 48
        )
        if slot is None:
            return None
        provider: Provider = record(db, "providers", slot.provider_id)
        patient: Patient = record(db, "patients", rng.choice(list(db.keys("patients"))))
        if clashes(db, patient, slot.start):
            return None
        who = self.identity(db, patient.user_id, rng)
        visit_type = rng.choice(provider.visit_types)
        if plan is None:
            plan = record(db, "plans", patient.plan_id) if patient.plan_id else None
        _, cost = visit_cost(plan, provider.specialty, visit_type)
        uid, pid = patient.user_id, provider.provider_id
        actions = [
            Action("search_providers", {"specialty": provider.specialty}),
            slot_search(pid, slot),
            Action(
                "check_coverage", {"user_id": uid, "provider_id": pid, "visit_type": visit_type}
            ),
            Action(
                "book_appointment",
                {"user_id": uid, "slot_id": slot.slot_id, "visit_type": visit_type},
            ),
        ]
        return who, provider, slot, visit_type, cost, actions

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        booked = self.booking(db, rng)
        if booked is None:
            return None
        who, provider, slot, visit_type, cost, actions = booked
        when = time_text(slot.start)
        ask, days, names = days_question(db, provider.provider_id, rng)
        actions = [*actions[:-1], *days, actions[-1]]
        return self.task(
            domain,
            who,
            goal=f"I want to book {visit_text(visit_type)} with {provider.display_name} "
            f"({provider.specialty}) on {when}. I want to know how much I will pay for it.{ask} "
            f"{CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I'd like to book an appointment with {provider.display_name}.",
                f"Hello, I need to see a {provider.specialty} provider.",
                "Can I make an appointment, please?",
                f"Hey, is {provider.display_name} taking patients?",
                "Good morning, I'd like to schedule a visit.",
            ),
            known={
                "specialty": provider.specialty,
                "provider": provider.display_name,
                "visit_type": visit_text(visit_type),
                "new_time": when,
            },
            actions=[*who.actions, *actions],
            outputs=[money_text(cost), *names],
            summary=f"book {provider.specialty} {visit_type} visit on {when}: {money_text(cost)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and another free hour of the same provider that day."""
        book = domain.write_actions(task)[-1]
        db = domain.new_database()
        slot: Slot = record(db, "slots", book.arguments["slot_id"])
        others = [
            s
            for s in free_slots(db, slot.provider_id, slot.start[:10])
            if s.slot_id != slot.slot_id
        ]
        patient: Patient = record(db, "patients", book.arguments["user_id"])
        others = [s for s in others if not clashes(db, patient, s.start)]
        paths = super().mistakes(domain, task)
        if others:
            paths.append(self.last_write_changed(domain, task, slot_id=others[0].slot_id))
        return paths


class RescheduleAppointment(Chain, TelehealthIntent):
    """Move an appointment more than 24 hours away to another day: no fee."""

    name = "reschedule_appointment"
    slips = (last_write(flipped("charge_late_fee")),)  # the late fee the other way

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        moved = self.moved(db, rng, _appointment(db, rng, upcoming(NOTICE_HOURS + 24, 10_000)))
        if moved is None:
            return None
        appointment, _patient, slot, who = moved
        aid = appointment.appointment_id
        when = time_text(slot.start)
        provider: Provider = record(db, "providers", appointment.provider_id)
        ask, days, names = days_question(db, provider.provider_id, rng)
        ref, known, reads = visit_ref(db, who, appointment, rng)
        return self.task(
            domain,
            who,
            goal=f"{sentence(ref)} (with {provider.display_name} on "
            f"{time_text(appointment.start)}) does not work for me any more. I want to move it to "
            f"{when} with the same provider.{ask} {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I need to reschedule {ref}.",
                "Hello, can {ref} be moved?",
                "I'd like to change the time of {ref}.",
                "Hey, {ref} doesn't suit me anymore, can we pick another time?",
            ).format(ref=ref),
            known={**known, "new_time": when},
            actions=[
                *reads,
                slot_search(appointment.provider_id, slot),
                *days,
                Action(
                    "reschedule_appointment",
                    {"appointment_id": aid, "new_slot_id": slot.slot_id, "charge_late_fee": False},
                ),
            ],
            outputs=names,
            summary=f"move {aid} to {when} (no fee)",
        )


class _Cancellation(Chain, TelehealthIntent):
    """Cancel an appointment starting between ``hours`` from now: late when under the notice."""

    hours: ClassVar[tuple[float, float]] = (0.0, 0.0)
    late: ClassVar[bool] = False
    slips = (last_write(flipped("charge_late_fee")),)  # the late fee the other way

    def request(self, appointment: Appointment, ref: str, rng: random.Random) -> tuple[str, str]:
        """The user's goal and opening; ``ref`` is how the user names the visit."""
        raise NotImplementedError

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        appointment = _appointment(db, rng, upcoming(*self.hours))
        if appointment is None:
            return None
        who = self.identity(db, appointment.user_id, rng)
        aid = appointment.appointment_id
        fee = LATE_FEES[appointment.visit_type]
        ref, known, reads = visit_ref(db, who, appointment, rng)
        goal, opening = self.request(appointment, ref, rng)
        ask, days, names = days_question(db, appointment.provider_id, rng)
        return self.task(
            domain,
            who,
            goal=f"{goal}{ask} {CONFIRM}",
            opening=opening,
            known=known,
            actions=[
                *reads,
                *days,
                Action("cancel_appointment", {"appointment_id": aid, "charge_late_fee": self.late}),
            ],
            outputs=[*([money_text(fee)] if self.late else []), *names],
            summary=f"late cancellation of {aid}: fee {money_text(fee)}"
            if self.late
            else f"cancel {aid} with enough notice (no fee)",
        )


class CancelAppointment(_Cancellation):
    """Cancel an appointment more than 24 hours away: no fee."""

    name = "cancel_appointment"
    hours = (NOTICE_HOURS + 24, 10_000)

    def request(self, appointment: Appointment, ref: str, rng: random.Random) -> tuple[str, str]:
        """A cancellation with notice, nothing rebooked."""
        goal = (
            f"I want to cancel {ref} (on {time_text(appointment.start)}); I do not want to "
            "book another one now."
        )
        opening = one_of(
            rng,
            "Hi, please cancel {ref}.",
            "Hello, I need to cancel {ref}.",
            "I won't need {ref} after all.",
            "Hey, can you take {ref} off my schedule?",
        ).format(ref=ref)
        return goal, opening


class LateCancellation(_Cancellation):
    """Cancel an appointment less than 24 hours away: the late fee applies and is stated."""

    name = "late_cancellation"
    hours = (0.5, NOTICE_HOURS)
    late = True

    def request(self, appointment: Appointment, ref: str, rng: random.Random) -> tuple[str, str]:
        """A cancellation within the day, the fee accepted."""
        goal = (
            f"Something came up and I must cancel {ref} (at {appointment.start[11:]}). If "
            "there is a fee I accept it, but I want to know how much it is."
        )
        opening = one_of(
            rng,
            "Hi, I can't make {ref}, please cancel it.",
            "Hello, something urgent came up and I have to cancel {ref}.",
            "I need to cancel {ref}, sorry for the short notice.",
            "Hey, cancel {ref} please, I can't come.",
        ).format(ref=ref)
        return goal, opening


class PrivacyRefusal(Refuses, TelehealthIntent):
    """Ask about and cancel another patient's appointment: refused for privacy, nothing changes."""

    rules = ("privacy-other-patient",)
    name = "privacy_refusal"
    forbidden = True
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        theirs = _appointment(db, rng, upcoming(NOTICE_HOURS + 24, 10_000))
        if theirs is None:
            return None
        caller: Patient = record(db, "patients", rng.choice(list(db.keys("patients"))))
        if caller.user_id == theirs.user_id:
            return None
        other: Patient = record(db, "patients", theirs.user_id)
        who = self.identity(db, caller.user_id, rng)
        relative = rng.choice(("mother", "father", "brother", "sister", "husband", "wife"))
        their, them, _ = pronouns(relative)
        aid = theirs.appointment_id
        task = self.task(
            domain,
            who,
            goal=f"My {relative} {other.full_name} is also a patient here and asked me to check "
            f"when appointment {aid} is and to cancel it. I do not have {their} login. If the "
            "agent refuses because of privacy, I accept it in the end.",
            demand=f"appointment {aid} looked up and cancelled for my {relative}",
            opening=one_of(
                rng,
                f"Hi, I'm calling about my {relative}'s appointment {aid}.",
                f"Hello, my {relative} asked me to sort out {their} appointment.",
                f"I need to check on my {relative}'s visit, {aid}.",
                f"Hey, can you cancel my {relative}'s appointment for {them}?",
            ),
            known={"other_patient": other.full_name, "other_appointment_id": aid},
            actions=list(who.actions),
            outputs=["privacy"],
            summary=f"caller asks about {other.user_id}'s appointment {aid}: refused",
        )
        return refusing(task, other_cancelled(aid))


class CoverageInquiry(TelehealthIntent):
    """Ask whether the plan covers a visit with a provider and what it would cost."""

    name = "coverage_inquiry"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        provider: Provider = record(db, "providers", rng.choice(list(db.keys("providers"))))
        patient: Patient = record(db, "patients", rng.choice(list(db.keys("patients"))))
        who = self.identity(db, patient.user_id, rng)
        plan = record(db, "plans", patient.plan_id) if patient.plan_id else None
        both = len(provider.visit_types) == 2 and rng.random() < 0.5
        types = list(provider.visit_types) if both else [rng.choice(provider.visit_types)]
        visit_type = types[0]
        covered, cost = visit_cost(plan, provider.specialty, visit_type)
        costs = [visit_cost(plan, provider.specialty, t)[1] for t in types]
        uid, pid = patient.user_id, provider.provider_id
        visits = " and ".join(visit_text(t) for t in types)
        return self.task(
            domain,
            who,
            goal=f"I am thinking about {visits} with {provider.display_name} "
            f"({provider.specialty}). I want to know whether my insurance covers it and how much I "
            f"would pay{' for each' if both else ''}. I do not want to book anything today.",
            opening=one_of(
                rng,
                f"Hi, would my insurance cover a visit with {provider.display_name}?",
                f"Hello, how much would it cost me to see a {provider.specialty} provider?",
                "I'd like to know what a visit would cost me before I book.",
                f"Hey, is {provider.display_name} covered by my plan?",
            ),
            known={
                "specialty": provider.specialty,
                "provider": provider.display_name,
                "visit_type": visits,
            },
            actions=[
                *who.actions,
                Action("search_providers", {"specialty": provider.specialty}),
                *(
                    Action("check_coverage", {"user_id": uid, "provider_id": pid, "visit_type": t})
                    for t in types
                ),
            ],
            outputs=[money_text(c) for c in costs],
            summary=f"{'covered' if covered else 'not covered'} {provider.specialty} {visit_type}: "
            f"{money_text(cost)}",
        )


class NewInsuranceAndBook(Chain, BookAppointment):
    """Record a new insurance plan, then book a visit that the new plan prices."""

    name = "new_insurance_and_book"
    slips = (left_out("update_insurance"),)  # booked without recording the new plan

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        plan_id = rng.choice([p[0] for p in PLANS])
        plan: Plan = record(db, "plans", plan_id)
        booked = self.booking(db, rng, plan)
        if booked is None:
            return None
        who, provider, slot, visit_type, cost, actions = booked
        patient: Patient = record(db, "patients", who.customer.user_id)
        if patient.plan_id == plan_id:
            return None
        member = f"{plan_id[4:7]}{rng.randint(1_000_000, 9_999_999)}"
        when = time_text(slot.start)
        update = Action(
            "update_insurance",
            {"user_id": patient.user_id, "plan_id": plan_id, "member_id": member},
        )
        return self.task(
            domain,
            who,
            goal=f"I changed insurance: I now have {plan.name}, member ID {member}. I want it on "
            f"file, and then I want to book {visit_text(visit_type)} with "
            f"{provider.display_name} ({provider.specialty}) on {when} under the new plan. I want "
            f"to know what I will pay. {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I have new insurance and I'd like to book an appointment.",
                "Hello, my insurance changed and I need a visit.",
                f"I want to see {provider.display_name}, and I have a new plan now.",
                "Hey, new insurance card: can you update it and book me in?",
            ),
            known={
                "new_plan": plan.name,
                "member_id": member,
                "specialty": provider.specialty,
                "provider": provider.display_name,
                "visit_type": visit_text(visit_type),
                "new_time": when,
            },
            actions=[*who.actions, Action("list_insurance_plans"), update, *actions],
            outputs=[money_text(cost)],
            summary=f"new plan {plan.name}, then book on {when}: {money_text(cost)}",
        )
