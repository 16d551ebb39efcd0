"""Telehealth task intents: templates that sample the base database and produce grounded tasks."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from tau_sim.domains.kit.identity import EMAIL, NAME_DOB, NAME_ZIP, Identity
from tau_sim.domains.kit.lookup import pick, picker, record
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.kit.tasks import CustomerIntent, swap_last
from tau_sim.domains.telehealth.catalog import PLANS
from tau_sim.domains.telehealth.data import (
    ACTIVE,
    SCHEDULED,
    TODAY,
    Appointment,
    Patient,
    Pharmacy,
    Plan,
    Prescription,
    Provider,
    Slot,
    hours_until,
    visit_cost,
)
from tau_sim.domains.telehealth.rules import LATE_FEES
from tau_sim.domains.telehealth.scenario import (
    CONFIRM,
    UNKNOWN_IDS,
    gold_reads,
    medication_text,
    refills_text,
    time_text,
    visit_text,
)
from tau_sim.simulator.world import Action, Database, Domain, Intent, Task

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


_appointment = picker("appointments", Appointment)
_rx = picker("prescriptions", Prescription)


def _upcoming(hours_from: float, hours_to: float) -> Callable[[Appointment], bool]:
    def accept(a: Appointment) -> bool:
        return a.status == SCHEDULED and hours_from <= hours_until(a.start) < hours_to

    return accept


def _refillable(rx: Prescription) -> bool:
    return (
        rx.status == ACTIVE
        and not rx.controlled
        and rx.refills_left >= 2
        and rx.earliest_refill <= TODAY
    )


def _free_slots(db: Database, provider_id: str, day: str) -> list[Slot]:
    slots = [
        record(db, "slots", s) for s in db.find("slots_by_provider_day", f"{provider_id}|{day}")
    ]
    return sorted(
        (s for s in slots if not s.appointment_id and hours_until(s.start) > 0),
        key=lambda s: s.start,
    )


def _clashes(db: Database, patient: Patient, start: str) -> bool:
    return any(
        record(db, "appointments", a).status == SCHEDULED
        and record(db, "appointments", a).start == start
        for a in patient.appointments
    )


def _new_slot(
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
            for s in _free_slots(db, appointment.provider_id, day)
            if not _clashes(db, patient, s.start)
        ]
        if free:
            chosen: Slot = rng.choice(free)
            return chosen
    return None


def _slot_actions(provider_id: str, slot: Slot) -> Action:
    return Action("find_available_slots", {"provider_id": provider_id, "date": slot.start[:10]})


class BookAppointment(TelehealthIntent):
    """Book a free slot with a named provider; the patient learns what they will pay."""

    name = "book_appointment"
    description = "The patient books a visit with a provider at a free time and learns the cost."

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
        if _clashes(db, patient, slot.start):
            return None
        who = self.identity(db, patient.user_id, rng)
        visit_type = rng.choice(provider.visit_types)
        if plan is None:
            plan = record(db, "plans", patient.plan_id) if patient.plan_id else None
        _, cost = visit_cost(plan, provider.specialty, visit_type)
        uid, pid = patient.user_id, provider.provider_id
        actions = [
            Action("search_providers", {"specialty": provider.specialty}),
            _slot_actions(pid, slot),
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
        return self.task(
            domain,
            who,
            goal=f"I want to book {visit_text(visit_type)} with {provider.display_name} "
            f"({provider.specialty}) on {when}. I want to know how much I will pay for it. "
            f"{CONFIRM}",
            opening=rng.choice(
                [
                    f"Hi, I'd like to book an appointment with {provider.display_name}.",
                    f"Hello, I need to see a {provider.specialty} provider.",
                ]
            ),
            known={
                "specialty": provider.specialty,
                "provider": provider.display_name,
                "visit_type": visit_text(visit_type),
                "new_time": when,
            },
            actions=[*who.actions, *actions],
            outputs=[money_text(cost)],
            summary=f"book {provider.specialty} {visit_type} visit on {when}: {money_text(cost)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and another free hour of the same provider that day."""
        book = domain.write_actions(task)[-1]
        db = domain.new_database()
        slot: Slot = record(db, "slots", book.arguments["slot_id"])
        others = [
            s
            for s in _free_slots(db, slot.provider_id, slot.start[:10])
            if s.slot_id != slot.slot_id
        ]
        patient: Patient = record(db, "patients", book.arguments["user_id"])
        others = [s for s in others if not _clashes(db, patient, s.start)]
        paths = super().mistakes(domain, task)
        if others:
            paths.append(self.last_write_changed(domain, task, slot_id=others[0].slot_id))
        return paths


class RescheduleAppointment(TelehealthIntent):
    """Move an appointment more than 24 hours away to another day: no fee."""

    name = "reschedule_appointment"
    description = "The patient moves a visit (more than 24 h away) to another free time; no fee."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        appointment = _appointment(db, rng, _upcoming(NOTICE_HOURS + 24, 10_000))
        if appointment is None:
            return None
        patient: Patient = record(db, "patients", appointment.user_id)
        slot = _new_slot(db, rng, appointment, patient)
        if slot is None:
            return None
        who = self.identity(db, patient.user_id, rng)
        aid = appointment.appointment_id
        when = time_text(slot.start)
        provider: Provider = record(db, "providers", appointment.provider_id)
        return self.task(
            domain,
            who,
            goal=f"My appointment {aid} with {provider.display_name} on "
            f"{time_text(appointment.start)} does not work for me any more. I want to move it to "
            f"{when} with the same provider. {CONFIRM}",
            opening=f"Hi, I need to reschedule my appointment {aid}.",
            known={"appointment_id": aid, "new_time": when},
            actions=[
                *gold_reads(who, aid),
                _slot_actions(appointment.provider_id, slot),
                Action(
                    "reschedule_appointment",
                    {"appointment_id": aid, "new_slot_id": slot.slot_id, "charge_late_fee": False},
                ),
            ],
            summary=f"move {aid} to {when} (no fee)",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a late fee charged although the notice was long enough."""
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, charge_late_fee=True),
        ]


class _Cancellation(TelehealthIntent):
    """Cancel an appointment starting between ``hours`` from now: late when under the notice."""

    hours: ClassVar[tuple[float, float]] = (0.0, 0.0)
    late: ClassVar[bool] = False

    def request(self, appointment: Appointment, rng: random.Random) -> tuple[str, str]:
        """The user's goal and opening."""
        raise NotImplementedError

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        appointment = _appointment(db, rng, _upcoming(*self.hours))
        if appointment is None:
            return None
        who = self.identity(db, appointment.user_id, rng)
        aid = appointment.appointment_id
        fee = LATE_FEES[appointment.visit_type]
        goal, opening = self.request(appointment, rng)
        return self.task(
            domain,
            who,
            goal=f"{goal} {CONFIRM}",
            opening=opening,
            known={"appointment_id": aid},
            actions=[
                *gold_reads(who, aid),
                Action("cancel_appointment", {"appointment_id": aid, "charge_late_fee": self.late}),
            ],
            outputs=[money_text(fee)] if self.late else [],
            summary=f"late cancellation of {aid}: fee {money_text(fee)}"
            if self.late
            else f"cancel {aid} with enough notice (no fee)",
        )


class CancelAppointment(_Cancellation):
    """Cancel an appointment more than 24 hours away: no fee."""

    name = "cancel_appointment"
    description = "The patient cancels a visit more than 24 h away; no fee."
    hours = (NOTICE_HOURS + 24, 10_000)

    def request(self, appointment: Appointment, rng: random.Random) -> tuple[str, str]:
        """A cancellation with notice, nothing rebooked."""
        aid = appointment.appointment_id
        goal = (
            f"I want to cancel my appointment {aid} on {time_text(appointment.start)}; I do "
            "not want to book another one now."
        )
        opening = rng.choice(
            [f"Hi, please cancel my appointment {aid}.", "Hello, I need to cancel an appointment."]
        )
        return goal, opening

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a late fee charged although the notice was long enough."""
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, charge_late_fee=True),
        ]


class LateCancellation(_Cancellation):
    """Cancel an appointment less than 24 hours away: the late fee applies and is stated."""

    name = "late_cancellation"
    description = "The patient cancels a visit less than 24 h away; the late fee applies."
    hours = (0.5, NOTICE_HOURS)
    late = True

    def request(self, appointment: Appointment, rng: random.Random) -> tuple[str, str]:
        """A cancellation today, the fee accepted."""
        aid = appointment.appointment_id
        goal = (
            f"Something came up and I must cancel my appointment {aid} today at "
            f"{appointment.start[11:]}. If there is a fee I accept it, but I want to know how "
            "much it is."
        )
        return goal, f"Hi, I can't make my appointment {aid} later today, please cancel it."

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the late fee waived."""
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, charge_late_fee=False),
        ]


class RefillPrescription(TelehealthIntent):
    """Refill a prescription that is due, at the pharmacy on file."""

    name = "refill_prescription"
    description = "The patient refills a due, non-controlled prescription and learns refills left."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        rx = _rx(db, rng, _refillable)
        if rx is None:
            return None
        who = self.identity(db, rx.user_id, rng)
        pharmacy: Pharmacy = record(db, "pharmacies", rx.pharmacy_id)
        med = medication_text(rx)
        return self.task(
            domain,
            who,
            goal=f"I am running low on my {med} and want a refill sent to my usual pharmacy, "
            f"{pharmacy.name}. I want to know how many refills I will have left. {CONFIRM}",
            opening=rng.choice(
                [
                    f"Hi, I need a refill of my {rx.medication}.",
                    "Hello, I need a prescription refill.",
                ]
            ),
            known={"medication": med},
            actions=[
                *who.actions,
                Action("get_prescription_details", {"rx_id": rx.rx_id}),
                Action("request_refill", {"rx_id": rx.rx_id, "pharmacy_id": rx.pharmacy_id}),
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


class EarlyRefillRefused(TelehealthIntent):
    """Ask for a refill before the earliest refill date: refused, the date is stated."""

    name = "early_refill_refused"
    description = "The patient wants a refill too early; the agent refuses and gives the date."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        rx = _rx(
            db,
            rng,
            lambda r: (
                r.status == ACTIVE
                and not r.controlled
                and r.refills_left > 0
                and r.earliest_refill > TODAY
            ),
        )
        if rx is None:
            return None
        who = self.identity(db, rx.user_id, rng)
        med = medication_text(rx)
        date = rx.earliest_refill.isoformat()
        return self.task(
            domain,
            who,
            goal=f"I am going on a trip and want my {med} refilled today. If the agent says it is "
            "too early, I accept that and want to know the first day I can get the refill.",
            opening=f"Hi, I'd like to refill my {rx.medication} today before I travel.",
            known={"medication": med},
            actions=[*who.actions, Action("get_prescription_details", {"rx_id": rx.rx_id})],
            outputs=[date],
            summary=f"refill of {rx.medication} ({rx.rx_id}) too early: not before {date}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the early refill done anyway."""
        rx: Prescription = record(
            domain.new_database(), "prescriptions", task.actions[-1].arguments["rx_id"]
        )
        refill = Action("request_refill", {"rx_id": rx.rx_id, "pharmacy_id": rx.pharmacy_id})
        return [*super().mistakes(domain, task), [*task.actions, refill]]


class ControlledRefillTransfer(TelehealthIntent):
    """Ask for a refill of a controlled substance: the agent never refills it, it transfers."""

    name = "controlled_refill_transfer"
    description = "The patient asks to refill a controlled substance; the agent transfers."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        rx = _rx(db, rng, lambda r: r.status == ACTIVE and r.controlled and r.refills_left > 0)
        if rx is None:
            return None
        who = self.identity(db, rx.user_id, rng)
        med = medication_text(rx)
        uid = who.customer.user_id
        return self.task(
            domain,
            who,
            goal=f"I want a refill of my {med}; my prescription still has refills. If the agent "
            "cannot do it, I agree to be transferred to someone who can.",
            opening=f"Hi, I need my {rx.medication} refilled please.",
            known={"medication": med},
            actions=[
                *who.actions,
                Action("get_prescription_details", {"rx_id": rx.rx_id}),
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

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic one, and the controlled substance refilled by the agent."""
        rx_id = task.actions[-2].arguments["rx_id"]
        rx: Prescription = record(domain.new_database(), "prescriptions", rx_id)
        refill = Action("request_refill", {"rx_id": rx_id, "pharmacy_id": rx.pharmacy_id})
        return [*super().mistakes(domain, task), swap_last(task, refill)]


class PrivacyRefusal(TelehealthIntent):
    """Ask about and cancel another patient's appointment: refused for privacy, nothing changes."""

    name = "privacy_refusal"
    description = "The caller asks about a relative's appointment; refused for privacy."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        theirs = _appointment(db, rng, _upcoming(NOTICE_HOURS + 24, 10_000))
        if theirs is None:
            return None
        caller: Patient = record(db, "patients", rng.choice(list(db.keys("patients"))))
        if caller.user_id == theirs.user_id:
            return None
        other: Patient = record(db, "patients", theirs.user_id)
        who = self.identity(db, caller.user_id, rng)
        relative = rng.choice(("mother", "father", "brother", "sister", "husband", "wife"))
        aid = theirs.appointment_id
        return self.task(
            domain,
            who,
            goal=f"My {relative} {other.full_name} is also a patient here and asked me to check "
            f"when appointment {aid} is and to cancel it. I do not have their login. If the agent "
            "refuses because of privacy, I accept it.",
            opening=f"Hi, I'm calling about my {relative}'s appointment {aid}.",
            known={"other_patient": other.full_name, "other_appointment_id": aid},
            actions=list(who.actions),
            outputs=["privacy"],
            summary=f"caller asks about {other.user_id}'s appointment {aid}: refused",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic one, and the other patient's appointment cancelled."""
        aid = task.scenario.known_info["other_appointment_id"]
        cancel = Action("cancel_appointment", {"appointment_id": aid, "charge_late_fee": False})
        return [*super().mistakes(domain, task), [*task.actions, cancel]]


class RenewalRequest(TelehealthIntent):
    """A prescription with no refills left: a renewal request goes to the prescriber."""

    name = "renewal_request"
    description = "The patient wants a refill but none are left; the agent requests a renewal."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        rx = _rx(
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
            opening=f"Hi, I need more {rx.medication}.",
            known={"medication": med},
            actions=[
                *who.actions,
                Action("get_prescription_details", {"rx_id": rx.rx_id}),
                Action("request_renewal", {"rx_id": rx.rx_id}),
            ],
            outputs=[prescriber.display_name],
            summary=f"renewal of {rx.medication} ({rx.rx_id}) from {prescriber.display_name}",
        )


class CoverageInquiry(TelehealthIntent):
    """Ask whether the plan covers a visit with a provider and what it would cost."""

    name = "coverage_inquiry"
    description = (
        "The patient asks what a visit with a provider would cost them (information only)."
    )

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        provider: Provider = record(db, "providers", rng.choice(list(db.keys("providers"))))
        patient: Patient = record(db, "patients", rng.choice(list(db.keys("patients"))))
        who = self.identity(db, patient.user_id, rng)
        visit_type = rng.choice(provider.visit_types)
        plan = record(db, "plans", patient.plan_id) if patient.plan_id else None
        covered, cost = visit_cost(plan, provider.specialty, visit_type)
        uid, pid = patient.user_id, provider.provider_id
        return self.task(
            domain,
            who,
            goal=f"I am thinking about {visit_text(visit_type)} with {provider.display_name} "
            f"({provider.specialty}). I want to know whether my insurance covers it and how much I "
            "would pay. I do not want to book anything today.",
            opening=f"Hi, would my insurance cover a visit with {provider.display_name}?",
            known={
                "specialty": provider.specialty,
                "provider": provider.display_name,
                "visit_type": visit_text(visit_type),
            },
            actions=[
                *who.actions,
                Action("search_providers", {"specialty": provider.specialty}),
                Action(
                    "check_coverage", {"user_id": uid, "provider_id": pid, "visit_type": visit_type}
                ),
            ],
            outputs=[money_text(cost)],
            summary=f"{'covered' if covered else 'not covered'} {provider.specialty} {visit_type}: "
            f"{money_text(cost)}",
        )


class NewInsuranceAndBook(BookAppointment):
    """Record a new insurance plan, then book a visit that the new plan prices."""

    name = "new_insurance_and_book"
    description = "The patient records a new insurance plan, then books a visit under it."

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
            opening="Hi, I have new insurance and I'd like to book an appointment.",
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

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the visit booked without recording the new plan."""
        update = next(a for a in task.actions if a.name == "update_insurance")
        return [*super().mistakes(domain, task), [a for a in task.actions if a is not update]]


class RescheduleAndRefill(TelehealthIntent):
    """Two requests: move an appointment (no fee) and refill a due prescription."""

    name = "reschedule_and_refill"
    description = "The patient moves a visit more than 24 h away and refills a due prescription."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        rx = _rx(db, rng, _refillable)
        if rx is None:
            return None
        patient: Patient = record(db, "patients", rx.user_id)
        mine = [record(db, "appointments", a) for a in patient.appointments]
        movable = [a for a in mine if _upcoming(NOTICE_HOURS + 24, 10_000)(a)]
        if not movable:
            return None
        appointment: Appointment = rng.choice(movable)
        slot = _new_slot(db, rng, appointment, patient)
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
            opening=f"Hi, I need to reschedule appointment {aid} and also refill a prescription.",
            known={"appointment_id": aid, "new_time": when, "medication": med},
            actions=[
                *gold_reads(who, aid),
                _slot_actions(appointment.provider_id, slot),
                Action(
                    "reschedule_appointment",
                    {"appointment_id": aid, "new_slot_id": slot.slot_id, "charge_late_fee": False},
                ),
                Action("get_prescription_details", {"rx_id": rx.rx_id}),
                Action("request_refill", {"rx_id": rx.rx_id, "pharmacy_id": rx.pharmacy_id}),
            ],
            outputs=[refills_text(rx.refills_left - 1)],
            summary=f"move {aid} to {when} and refill {rx.medication}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the move charged a late fee."""
        move = next(a for a in task.actions if a.name == "reschedule_appointment")
        wrong = Action(move.name, {**move.arguments, "charge_late_fee": True})
        return [*super().mistakes(domain, task), [wrong if a is move else a for a in task.actions]]


class SwitchPharmacyAndRefill(TelehealthIntent):
    """Two writes: send a prescription to another pharmacy in the patient's city, then refill it."""

    name = "switch_pharmacy_and_refill"
    description = "The patient moves a prescription to another pharmacy and refills it there."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        rx = _rx(db, rng, _refillable)
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
            opening=f"Hi, I'd like to switch pharmacies for my {rx.medication} and get a refill.",
            known={"medication": med, "new_pharmacy": pharmacy.name},
            actions=[
                *who.actions,
                Action("get_prescription_details", {"rx_id": rx.rx_id}),
                Action("find_pharmacies", {"city": city}),
                Action(
                    "change_prescription_pharmacy",
                    {"rx_id": rx.rx_id, "pharmacy_id": pharmacy.pharmacy_id},
                ),
                Action("request_refill", {"rx_id": rx.rx_id, "pharmacy_id": pharmacy.pharmacy_id}),
            ],
            outputs=[refills_text(rx.refills_left - 1)],
            summary=f"move {rx.medication} to {pharmacy.pharmacy_id} and refill there",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the refill sent to the old pharmacy with no change."""
        rx_id = task.actions[-1].arguments["rx_id"]
        rx: Prescription = record(domain.new_database(), "prescriptions", rx_id)
        old = Action("request_refill", {"rx_id": rx_id, "pharmacy_id": rx.pharmacy_id})
        return [*super().mistakes(domain, task), [*task.actions[:-3], old]]


INTENTS: list[Intent] = [
    BookAppointment(),
    RescheduleAppointment(),
    CancelAppointment(),
    LateCancellation(),
    RefillPrescription(),
    EarlyRefillRefused(),
    ControlledRefillTransfer(),
    PrivacyRefusal(),
    RenewalRequest(),
    CoverageInquiry(),
    NewInsuranceAndBook(),
    RescheduleAndRefill(),
    SwitchPharmacyAndRefill(),
]
