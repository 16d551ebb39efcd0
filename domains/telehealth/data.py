"""Telehealth records (frozen msgspec Structs) and the deterministic generator of the base database.

The world's clock is fixed: ``NOW`` (Monday 2026-03-02 09:00) is "now" for every tool and task.
Providers work three weekdays a week over the four weeks from ``NOW``, one slot an hour from
09:00 to 16:00; about half the slots are booked.
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta
from typing import Any

import msgspec

from tau_sim.domains.kit.identity import EMAIL, NAME_DOB, NAME_ZIP, identity_indexes
from tau_sim.domains.kit.people import Address, Customer, Ids, Name, customers, random_address
from tau_sim.domains.kit.vocab import FIRST_NAMES, LAST_NAMES
from tau_sim.domains.telehealth.catalog import (
    IN_PERSON,
    MEDICATIONS,
    PHARMACY_BRANDS,
    PLANS,
    SPECIALTIES,
    VIDEO,
)
from tau_sim.simulator.world import Base, Index

NOW = datetime(2026, 3, 2, 9, 0)
"""The world's fixed "now": notice windows and refill dates are counted from it."""
TODAY = NOW.date()
WEEKS = 4
HOURS = tuple(range(9, 17))
REFILL_LEAD_DAYS = 7
"""A refill may be requested at most this many days before the current supply runs out."""

SCHEDULED = "scheduled"
COMPLETED = "completed"
CANCELLED = "cancelled"
ACTIVE = "active"
EXPIRED = "expired"


class Patient(Customer, frozen=True, omit_defaults=True):
    """A patient: the kit's customer plus birth date, phone, insurance and record ids."""

    dob: str = ""
    phone: str = ""
    plan_id: str = ""
    member_id: str = ""
    appointments: tuple[str, ...] = ()
    prescriptions: tuple[str, ...] = ()


class Provider(msgspec.Struct, frozen=True, omit_defaults=True):
    """A clinician: specialty, the visit types offered and the weekdays worked (0 = Monday)."""

    provider_id: str
    name: Name
    specialty: str
    visit_types: tuple[str, ...]
    weekdays: tuple[int, ...]

    @property
    def display_name(self) -> str:
        """How patients name the provider, e.g. "Dr. Mei Kim"."""
        return f"Dr. {self.name.first_name} {self.name.last_name}"


class Slot(msgspec.Struct, frozen=True, omit_defaults=True):
    """One hour of a provider's schedule; ``appointment_id`` is set while it is booked."""

    slot_id: str
    provider_id: str
    start: str  # "2026-03-10T14:00"
    appointment_id: str = ""


class Appointment(msgspec.Struct, frozen=True, omit_defaults=True):
    """A visit: who, with whom, when, how, its status and what the patient pays."""

    appointment_id: str
    user_id: str
    provider_id: str
    specialty: str
    start: str
    visit_type: str
    status: str
    patient_cost: float
    slot_id: str = ""
    late_fee: float = 0.0


class Plan(msgspec.Struct, frozen=True, omit_defaults=True):
    """An insurance plan: the specialties it covers and its copay per visit type."""

    plan_id: str
    name: str
    covered_specialties: tuple[str, ...]
    copay_video: float
    copay_in_person: float

    def copay(self, visit_type: str) -> float:
        """The copay of a covered visit of ``visit_type``."""
        return self.copay_video if visit_type == VIDEO else self.copay_in_person


class Pharmacy(msgspec.Struct, frozen=True, omit_defaults=True):
    """A pharmacy prescriptions can be sent to."""

    pharmacy_id: str
    name: str
    address: Address


class Fill(msgspec.Struct, frozen=True, omit_defaults=True):
    """One dispensing of a prescription."""

    date: str
    pharmacy_id: str


class Prescription(msgspec.Struct, frozen=True, omit_defaults=True):
    """A prescription: medication, refills left, fill history and the pharmacy it goes to."""

    rx_id: str
    user_id: str
    medication: str
    dose: str
    controlled: bool
    prescriber_id: str
    pharmacy_id: str
    refills_left: int
    days_supply: int
    last_filled: str
    status: str = ACTIVE
    fills: tuple[Fill, ...] = ()
    renewal_requested: bool = False

    @property
    def earliest_refill(self) -> date:
        """The first day a refill may be requested (``REFILL_LEAD_DAYS`` before supply ends)."""
        filled = date.fromisoformat(self.last_filled)
        return filled + timedelta(days=self.days_supply - REFILL_LEAD_DAYS)


Tables = dict[str, dict[str, Any]]


def visit_cost(plan: Plan | None, specialty: str, visit_type: str) -> tuple[bool, float]:
    """(covered, what the patient pays) for a visit: the copay if covered, else self-pay."""
    if plan is not None and specialty in plan.covered_specialties:
        return True, plan.copay(visit_type)
    video, in_person = SPECIALTIES[specialty]
    return False, video if visit_type == VIDEO else in_person


def slot_time(start: str) -> datetime:
    """A slot's or appointment's start as a datetime."""
    return datetime.fromisoformat(start)


def hours_until(start: str) -> float:
    """Hours from ``NOW`` until ``start`` (negative when it has passed)."""
    return (slot_time(start) - NOW).total_seconds() / 3600


def _plans() -> dict[str, Plan]:
    return {pid: Plan(pid, name, covered, v, p) for pid, name, covered, v, p in PLANS}


def _providers(rng: random.Random, ids: Ids) -> dict[str, Provider]:
    providers: dict[str, Provider] = {}
    seen: set[tuple[str, str]] = set()
    for specialty in SPECIALTIES:
        for _ in range(4):
            while True:
                name = Name(rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES))
                if (name.first_name, name.last_name) not in seen:
                    seen.add((name.first_name, name.last_name))
                    break
            types = (VIDEO, IN_PERSON) if rng.random() < 0.6 else (VIDEO,)
            weekdays = tuple(sorted(rng.sample(range(5), 3)))
            pid = f"PR-{ids.digits(5)}"
            providers[pid] = Provider(pid, name, specialty, types, weekdays)
    return providers


def _days() -> list[date]:
    days = [TODAY + timedelta(days=n) for n in range(WEEKS * 7)]
    return [d for d in days if d.weekday() < 5]


def _pharmacies(rng: random.Random, ids: Ids) -> dict[str, Pharmacy]:
    pharmacies: dict[str, Pharmacy] = {}
    while len(pharmacies) < 60:
        address = random_address(rng)
        street = address.address1.split(" ", 1)[1]
        brand = rng.choice(PHARMACY_BRANDS)
        name = f"{brand} on {street}, {address.city}"
        if any(p.name == name for p in pharmacies.values()):
            continue
        pid = f"PH-{ids.digits(4)}"
        pharmacies[pid] = Pharmacy(pid, name, address)
    return pharmacies


def _patients(rng: random.Random, ids: Ids, count: int) -> dict[str, Patient]:
    people = customers(rng, ids, count, Patient)
    plans = [p[0] for p in PLANS]
    for uid, person in people.items():
        born = date(1940, 1, 1) + timedelta(days=rng.randint(0, 365 * 64))
        plan = rng.choice(plans) if rng.random() < 0.85 else ""
        member = f"{plan[4:7]}{ids.digits(7)}" if plan else ""
        phone = f"{rng.randint(201, 989)}-555-{ids.digits(4)}"
        people[uid] = msgspec.structs.replace(
            person, dob=born.isoformat(), phone=phone, plan_id=plan, member_id=member
        )
    return people


def generate(seed: int, patients: int = 400) -> Tables:
    """Generate the telehealth tables deterministically from ``seed``."""
    rng = random.Random(seed)
    ids = Ids(rng)
    plans = _plans()
    providers = _providers(rng, ids)
    pharmacies = _pharmacies(rng, ids)
    people = _patients(rng, ids, patients)
    people_list = list(people)
    slots: dict[str, Slot] = {}
    appointments: dict[str, Appointment] = {}
    owned: dict[str, list[str]] = {uid: [] for uid in people}

    def appoint(uid: str, prov: Provider, start: str, status: str, slot_id: str) -> str:
        visit_type = rng.choice(prov.visit_types)
        plan = plans.get(people[uid].plan_id)
        _, cost = visit_cost(plan, prov.specialty, visit_type)
        aid = f"APT-{ids.digits(6)}"
        appointments[aid] = Appointment(
            aid, uid, prov.provider_id, prov.specialty, start, visit_type, status, cost, slot_id
        )
        owned[uid].append(aid)
        return aid

    for prov in providers.values():
        for day in _days():
            if day.weekday() not in prov.weekdays:
                continue
            for hour in HOURS:
                start = datetime(day.year, day.month, day.day, hour)
                if start <= NOW:
                    continue
                sid = f"SL-{ids.digits(6)}"
                text = start.isoformat(timespec="minutes")
                booked = ""
                roll = rng.random()
                if roll < 0.45:
                    booked = appoint(rng.choice(people_list), prov, text, SCHEDULED, sid)
                elif roll < 0.5:
                    appoint(rng.choice(people_list), prov, text, CANCELLED, "")
                slots[sid] = Slot(sid, prov.provider_id, text, booked)
        for _ in range(25):
            day = TODAY - timedelta(days=rng.randint(3, 120))
            start = datetime(day.year, day.month, day.day, rng.choice(HOURS))
            appoint(
                rng.choice(people_list), prov, start.isoformat(timespec="minutes"), COMPLETED, ""
            )

    prescriptions = _prescriptions(rng, ids, people, providers, pharmacies)
    for uid in people:
        rx_ids = tuple(r.rx_id for r in prescriptions.values() if r.user_id == uid)
        people[uid] = msgspec.structs.replace(
            people[uid], appointments=tuple(owned[uid]), prescriptions=rx_ids
        )
    return {
        "patients": dict(people),
        "providers": dict(providers),
        "slots": slots,
        "appointments": appointments,
        "plans": dict(plans),
        "pharmacies": dict(pharmacies),
        "prescriptions": prescriptions,
    }


def _prescriptions(
    rng: random.Random,
    ids: Ids,
    people: dict[str, Patient],
    providers: dict[str, Provider],
    pharmacies: dict[str, Pharmacy],
) -> dict[str, Prescription]:
    prescribers = [p.provider_id for p in providers.values() if p.specialty != "physical therapy"]
    pharmacy_ids = list(pharmacies)
    table: dict[str, Prescription] = {}
    for uid in people:
        pharmacy = rng.choice(pharmacy_ids)
        count = rng.choices((0, 1, 2, 3), (15, 35, 30, 20))[0]
        for medication, dose, controlled, supply in rng.sample(MEDICATIONS, count):
            weights = (30, 40, 30, 0, 0, 0) if controlled else (15, 20, 20, 20, 15, 10)
            refills = rng.choices(range(6), weights)[0]
            filled = TODAY - timedelta(days=rng.randint(0, supply + 10))
            status = EXPIRED if rng.random() < 0.08 else ACTIVE
            rid = f"RX-{ids.digits(6)}"
            table[rid] = Prescription(
                rid,
                uid,
                medication,
                dose,
                controlled,
                rng.choice(prescribers),
                pharmacy,
                refills,
                supply,
                filled.isoformat(),
                status,
                (Fill(filled.isoformat(), pharmacy),),
            )
    return table


INDEXES: dict[str, Index] = {
    **identity_indexes([EMAIL, NAME_ZIP, NAME_DOB], table="patients"),
    "providers_by_specialty": Index("providers", lambda p: (p.specialty,)),
    "slots_by_provider_day": Index("slots", lambda s: (f"{s.provider_id}|{s.start[:10]}",)),
    "pharmacies_by_city": Index("pharmacies", lambda p: (p.address.city.lower(),)),
}
"""Patients by email, name + zip and name + birth date; providers by specialty; slots by
provider and day; pharmacies by city."""


def build_base(seed: int) -> Base:
    """The telehealth base: the tables generated from ``seed`` and their indexes."""
    return Base(generate(seed), INDEXES)
