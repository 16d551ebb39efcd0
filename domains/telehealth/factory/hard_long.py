"""Hard telehealth intents with three to five writes.

A new plan and two visits under it, a week cleared of visits before a trip (with a refill), a
visit moved to another provider of the specialty with a new phone number on file.
"""

from __future__ import annotations

import random

from tau_sim.domains.kit.factory.chains import Chain, changed, left_out
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, sum_action
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
    HardTelehealthIntent,
    clashes,
    days_question,
    describable,
    describe_visit,
    due,
    free_slots,
    medications_text,
    refill,
    rx_reads,
    scheduled_of,
    search_path,
    slot_search,
    upcoming,
    visit_reads,
)
from tau_sim.domains.telehealth.rules import LATE_FEES
from tau_sim.domains.telehealth.scenario import refills_text, time_text, visit_text
from tau_sim.simulator.world import Action, Database, Domain, Task

_appointment = picker("appointments", Appointment)


def _visit(
    db: Database, rng: random.Random, patient: Patient, plan: Plan | None, taken: set[str]
) -> tuple[Provider, Slot, str, float] | None:
    """A free slot 48 h or more away that the patient can take, its visit type and cost."""
    for _ in range(30):
        slot: Slot = record(db, "slots", rng.choice(list(db.keys("slots"))))
        if slot.appointment_id or hours_until(slot.start) < 48 or slot.start in taken:
            continue
        if clashes(db, patient, slot.start):
            continue
        provider: Provider = record(db, "providers", slot.provider_id)
        visit_type = rng.choice(provider.visit_types)
        _, cost = visit_cost(plan, provider.specialty, visit_type)
        return provider, slot, visit_type, cost
    return None


def _booking(uid: str, provider: Provider, slot: Slot, visit_type: str) -> list[Action]:
    """Search, free slots, coverage, booking: the gold steps of one visit."""
    pid = provider.provider_id
    return [
        Action("search_providers", {"specialty": provider.specialty}),
        slot_search(pid, slot),
        Action("check_coverage", {"user_id": uid, "provider_id": pid, "visit_type": visit_type}),
        Action(
            "book_appointment", {"user_id": uid, "slot_id": slot.slot_id, "visit_type": visit_type}
        ),
    ]


class InsuranceAndTwoVisits(Chain, HardTelehealthIntent):
    """A new plan recorded, then two visits booked under it (three writes)."""

    name = "insurance_and_two_visits"
    challenges = frozenset({"long"})
    slips = (left_out("update_insurance"),)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        patient: Patient = record(db, "patients", rng.choice(list(db.keys("patients"))))
        plan_id = rng.choice([p[0] for p in PLANS if p[0] != patient.plan_id])
        plan: Plan = record(db, "plans", plan_id)
        first = _visit(db, rng, patient, plan, set())
        if first is None:
            return None
        second = _visit(db, rng, patient, plan, {first[1].start})
        if second is None or second[0].specialty == first[0].specialty:
            return None
        member = f"{plan_id[4:7]}{rng.randint(1_000_000, 9_999_999)}"
        who = self.identity(db, patient.user_id, rng)
        uid = patient.user_id
        visits = [first, second]
        wanted = " and then ".join(
            f"{visit_text(t)} with {p.display_name} ({p.specialty}) on {time_text(s.start)}"
            for p, s, t, _ in visits
        )
        costs = [c for *_, c in visits]
        return self.task(
            domain,
            who,
            goal=f"I changed insurance: I now have {plan.name}, member ID {member}. I want it on "
            f"file, and then I want to book {wanted}, both under the new plan. I want to know "
            f"what I will pay for each and in all. {CONFIRM}",
            opening=rng.choice(
                (
                    "Hi, I have new insurance and need to book two appointments.",
                    "Hello, I'd like to update my insurance and schedule a couple of visits.",
                    "New insurance card here, and I want to see two doctors.",
                    "Hey, can you put my new plan on file and book me in twice?",
                    "Good morning. Insurance update first, then two bookings please.",
                )
            ),
            known={
                "new_plan": plan.name,
                "member_id": member,
                "specialty": " and ".join(p.specialty for p, *_ in visits),
                "provider": " and ".join(p.display_name for p, *_ in visits),
                "visit_type": " and ".join(visit_text(t) for *_, t, _ in visits),
                "new_time": " and ".join(time_text(s.start) for _, s, *_ in visits),
            },
            actions=[
                *who.actions,
                Action("list_insurance_plans"),
                Action(
                    "update_insurance", {"user_id": uid, "plan_id": plan_id, "member_id": member}
                ),
                *(a for p, s, t, _ in visits for a in _booking(uid, p, s, t)),
                *sum_action(costs),
            ],
            outputs=[*(money_text(c) for c in costs), money_text(sum(costs))],
            summary=f"plan {plan_id}, book {first[1].slot_id} and {second[1].slot_id}",
        )


def _fee_flipped(cancel: Action) -> Action:
    """The cancellation with its late fee the other way."""
    return replaced(cancel, charge_late_fee=not cancel.arguments["charge_late_fee"])


_WEEK_END = 104.0
"""Hours from now to the end of this Friday's last slot: "this week"."""


class WeekCleared(Chain, HardTelehealthIntent):
    """Every visit of this week cancelled before a trip (fees where late), a refill sent."""

    name = "week_cleared"
    challenges = frozenset({"search", "long"})
    slips = (changed("cancel_appointment", lambda a: replaced(a, charge_late_fee=False), None),)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task: two to four cancellations and a refill when one is due."""
        patient: Patient = record(db, "patients", rng.choice(list(db.keys("patients"))))
        week = [a for a in scheduled_of(db, patient) if hours_until(a.start) < _WEEK_END]
        if not 2 <= len(week) <= 4:
            return None
        ready = [
            r
            for r in (record(db, "prescriptions", x) for x in patient.prescriptions)
            if not r.controlled and due(r) and r.refills_left >= 2
        ]
        refills = ready[:1]
        if not 3 <= len(week) + len(refills) <= 5:
            return None
        week.sort(key=lambda a: a.start)
        late = [a for a in week if hours_until(a.start) < NOTICE_HOURS]
        fees = [LATE_FEES[a.visit_type] for a in late]
        desc = "; ".join(describe_visit(db, a) for a in week)
        who = self.identity(db, patient.user_id, rng)
        wants_refill = (
            f" Before I go I also want a refill of my {medications_text(refills)} at my usual "
            "pharmacy, and to know how many refills are left."
            if refills
            else ""
        )
        cancels = [
            Action(
                "cancel_appointment",
                {"appointment_id": a.appointment_id, "charge_late_fee": a in late},
            )
            for a in week
        ]
        return self.task(
            domain,
            who,
            goal=f"I am travelling from tomorrow until next week, so I want every appointment I "
            f"have this week cancelled: {desc}. I do not know their ids. If a fee applies, I "
            f"accept it but want to know how much.{wants_refill} {CONFIRM}",
            opening=rng.choice(
                (
                    "Hi, I'm going away and need to cancel this week's appointments: {desc}.",
                    "Hello, please clear my week, I'm travelling. I have {desc}.",
                    "I have to cancel everything this week ({desc}).",
                    "Hey, I'm out of town this week: {desc}, all cancelled please.",
                    "Good morning. I can't make any of this week's visits: {desc}.",
                )
            ).format(desc=desc),
            known={
                "appointment": desc,
                **({"medication": medications_text(refills)} if refills else {}),
            },
            actions=[
                *search_path(who, [*visit_reads(db, patient, *week), *rx_reads(patient, *refills)]),
                *sum_action(fees),
                *cancels,
                *(refill(r) for r in refills),
            ],
            outputs=[
                *(money_text(f) for f in fees),
                *([money_text(sum(fees))] if len(fees) > 1 else []),
                *(refills_text(r.refills_left - 1) for r in refills),
            ],
            summary=f"cancel {len(week)} this week ({len(late)} late), refill {len(refills)}",
        )


class RebookElsewhere(Chain, HardTelehealthIntent):
    """A described visit cancelled, the specialty booked with another provider, a new phone."""

    name = "rebook_elsewhere"
    challenges = frozenset({"search", "long"})
    slips = (changed("cancel_appointment", _fee_flipped),)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task (the cancellation late, fee accepted, a third of the time)."""
        late = rng.random() < 0.3
        window = (1.0, NOTICE_HOURS) if late else (NOTICE_HOURS + 24, 10_000)
        old = _appointment(db, rng, lambda a: upcoming(*window)(a) and describable(db, a))
        if old is None:
            return None
        patient: Patient = record(db, "patients", old.user_id)
        peers = [
            p
            for p in (
                record(db, "providers", x) for x in db.find("providers_by_specialty", old.specialty)
            )
            if p.provider_id != old.provider_id
        ]
        choices = [
            (p, s)
            for p in peers
            for day in sorted(
                {s.start[:10] for _, s in db.items("slots") if s.provider_id == p.provider_id}
            )
            for s in free_slots(db, p.provider_id, day)
            if hours_until(s.start) >= 48 and not clashes(db, patient, s.start)
        ]
        if not choices:
            return None
        provider, slot = rng.choice(choices)
        visit_type = rng.choice(provider.visit_types)
        plan = record(db, "plans", patient.plan_id) if patient.plan_id else None
        _, cost = visit_cost(plan, provider.specialty, visit_type)
        phone = f"{rng.randint(201, 989)}-555-{rng.randint(1000, 9999)}"
        who = self.identity(db, patient.user_id, rng)
        desc = describe_visit(db, old)
        when = time_text(slot.start)
        fee = LATE_FEES[old.visit_type]
        accepts = (
            " If cancelling costs a fee, I accept it, but I want to know how much." if late else ""
        )
        ask, days, names = days_question(db, provider.provider_id, rng)
        booking = _booking(patient.user_id, provider, slot, visit_type)
        return self.task(
            domain,
            who,
            goal=f"I want to stop seeing the provider of {desc} (I do not know the appointment "
            f"id): cancel it and book {visit_text(visit_type)} with {provider.display_name} "
            f"instead, on {when}.{accepts} I also have a new phone number, {phone}, to put on "
            f"file. I want to know what the new visit costs me.{ask} {CONFIRM}",
            opening=rng.choice(
                (
                    "Hi, I'd like to switch doctors for {desc}.",
                    "Hello, can I see someone else instead of {desc}?",
                    "I want a different provider than the one for {desc}.",
                    "Hey, cancel {desc} and get me another doctor, please.",
                    "Good morning. About {desc}: I'd rather see another provider.",
                )
            ).format(desc=desc),
            known={
                "appointment": desc,
                "provider": provider.display_name,
                "visit_type": visit_text(visit_type),
                "new_time": when,
                "new_phone": phone,
            },
            actions=[
                *search_path(who, visit_reads(db, patient, old, compare=False)),
                *booking[:1],
                *days,
                *booking[1:-1],
                Action(
                    "cancel_appointment",
                    {"appointment_id": old.appointment_id, "charge_late_fee": late},
                ),
                booking[-1],
                Action("update_phone_number", {"user_id": patient.user_id, "phone": phone}),
            ],
            outputs=[*([money_text(fee)] if late else []), money_text(cost), *names],
            summary=f"cancel {old.appointment_id}, book {slot.slot_id}, phone {phone}",
        )
