"""The telehealth world's own rules: what its tools refuse, and the tasks' notice and privacy rules.

Every hard rule is checked with a real tool call that is refused (an error outcome, nothing
written) next to its allowed counterpart, on a fresh copy of the real base.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.telehealth import telehealth
from tau_sim.domains.telehealth.catalog import SPECIALTIES
from tau_sim.domains.telehealth.data import (
    CANCELLED,
    COMPLETED,
    EXPIRED,
    NOW,
    SCHEDULED,
    TODAY,
    Appointment,
    Patient,
    Prescription,
    Provider,
    Slot,
    hours_until,
)
from tau_sim.domains.telehealth.rules import LATE_FEES
from tau_sim.simulator.world.database import Database
from tau_sim.simulator.world.domain import Domain
from tests.domains.calls import call, ok, refused


@pytest.fixture(scope="module")
def domain() -> Domain:
    return telehealth()


@pytest.fixture
def db(domain: Domain) -> Database:
    return domain.new_database()


def first(db: Database, table: str, accept: Callable[[Any], bool]) -> Any:
    for _, value in db.items(table):
        if accept(value):
            return value
    raise AssertionError(f"no matching record in {table}")


def free_slot(db: Database, accept: Callable[[Slot], bool] = lambda s: True) -> Slot:
    slot: Slot = first(db, "slots", lambda s: not s.appointment_id and accept(s))
    return slot


def patient_free_at(db: Database, start: str) -> Patient:
    def free(p: Patient) -> bool:
        return all(
            db.get("appointments", a).start != start
            or db.get("appointments", a).status != SCHEDULED
            for a in p.appointments
        )

    patient: Patient = first(db, "patients", free)
    return patient


# ---- the base --------------------------------------------------------------------------------


def test_the_world_is_large_and_consistent(db: Database) -> None:
    counts = {t: sum(1 for _ in db.keys(t)) for t in db.base.tables}
    assert counts["patients"] == 400 and counts["providers"] == 32
    assert counts["slots"] > 2_000 and counts["appointments"] > 1_500
    assert counts["prescriptions"] > 400
    for _, slot in db.items("slots"):
        assert hours_until(slot.start) > 0
        if slot.appointment_id:
            booked: Appointment = db.get("appointments", slot.appointment_id)
            assert booked.status == SCHEDULED and booked.slot_id == slot.slot_id
    for _, appointment in db.items("appointments"):
        assert appointment.appointment_id in db.get("patients", appointment.user_id).appointments
        if appointment.status == COMPLETED:
            assert appointment.start < NOW.isoformat()
    assert any(r.controlled for _, r in db.items("prescriptions"))
    assert all(r.refills_left >= 0 for _, r in db.items("prescriptions"))


# ---- identity --------------------------------------------------------------------------------


def test_patients_are_found_by_name_and_birth_date(domain: Domain, db: Database) -> None:
    patient: Patient = first(db, "patients", lambda p: True)
    name = {"first_name": patient.name.first_name, "last_name": patient.name.last_name}
    assert ok(domain, db, "find_patient_id_by_name_dob", **name, dob=patient.dob) == patient.user_id
    error, content = call(domain, db, "find_patient_id_by_name_dob", **name, dob="1900-01-01")
    assert error and "no patient" in content


# ---- appointments ----------------------------------------------------------------------------


def test_a_booked_slot_cannot_be_booked_twice(domain: Domain, db: Database) -> None:
    slot = free_slot(db)
    provider: Provider = db.get("providers", slot.provider_id)
    patient = patient_free_at(db, slot.start)
    visit = provider.visit_types[0]
    shown = ok(
        domain, db, "find_available_slots", provider_id=provider.provider_id, date=slot.start[:10]
    )
    assert slot.slot_id in [s["slot_id"] for s in shown]
    booked = ok(
        domain,
        db,
        "book_appointment",
        user_id=patient.user_id,
        slot_id=slot.slot_id,
        visit_type=visit,
    )
    assert booked["status"] == SCHEDULED and booked["start"] == slot.start
    assert db.get("slots", slot.slot_id).appointment_id == booked["appointment_id"]
    assert booked["appointment_id"] in db.get("patients", patient.user_id).appointments
    shown = ok(
        domain, db, "find_available_slots", provider_id=provider.provider_id, date=slot.start[:10]
    )
    assert slot.slot_id not in [s["slot_id"] for s in shown]
    other = first(db, "patients", lambda p: p.user_id != patient.user_id)
    refused(
        domain,
        db,
        "book_appointment",
        "already booked",
        user_id=other.user_id,
        slot_id=slot.slot_id,
        visit_type=visit,
    )


def test_a_patient_cannot_be_in_two_visits_at_once(domain: Domain, db: Database) -> None:
    mine: Appointment = first(db, "appointments", lambda a: a.status == SCHEDULED)
    same_time = free_slot(db, lambda s: s.start == mine.start and s.provider_id != mine.provider_id)
    provider: Provider = db.get("providers", same_time.provider_id)
    refused(
        domain,
        db,
        "book_appointment",
        "already has appointment",
        user_id=mine.user_id,
        slot_id=same_time.slot_id,
        visit_type=provider.visit_types[0],
    )


def test_only_offered_visit_types_are_booked(domain: Domain, db: Database) -> None:
    slot = free_slot(db, lambda s: db.get("providers", s.provider_id).visit_types == ("video",))
    patient = patient_free_at(db, slot.start)
    refused(
        domain,
        db,
        "book_appointment",
        "does not offer in_person",
        user_id=patient.user_id,
        slot_id=slot.slot_id,
        visit_type="in_person",
    )
    ok(
        domain,
        db,
        "book_appointment",
        user_id=patient.user_id,
        slot_id=slot.slot_id,
        visit_type="video",
    )


def test_the_cost_is_the_copay_when_covered_else_the_self_pay_price(
    domain: Domain, db: Database
) -> None:
    patient: Patient = first(db, "patients", lambda p: p.plan_id == "PLN-BASIC")
    derm: Provider = first(db, "providers", lambda p: p.specialty == "dermatology")
    care: Provider = first(db, "providers", lambda p: p.specialty == "primary care")
    out = ok(
        domain,
        db,
        "check_coverage",
        user_id=patient.user_id,
        provider_id=derm.provider_id,
        visit_type="video",
    )
    assert out["covered"] is False and out["patient_cost"] == SPECIALTIES["dermatology"][0]
    out = ok(
        domain,
        db,
        "check_coverage",
        user_id=patient.user_id,
        provider_id=care.provider_id,
        visit_type="video",
    )
    assert out["covered"] is True and out["patient_cost"] == 20.0
    ok(
        domain,
        db,
        "update_insurance",
        user_id=patient.user_id,
        plan_id="PLN-PLUS",
        member_id="plu1234567",
    )
    assert db.get("patients", patient.user_id).member_id == "PLU1234567"
    out = ok(
        domain,
        db,
        "check_coverage",
        user_id=patient.user_id,
        provider_id=derm.provider_id,
        visit_type="video",
    )
    assert out["covered"] is True and out["patient_cost"] == 15.0
    refused(
        domain,
        db,
        "update_insurance",
        "insurance plan 'PLN-GOLD' not found",
        user_id=patient.user_id,
        plan_id="PLN-GOLD",
        member_id="X1",
    )


def test_rescheduling_stays_with_the_provider_and_frees_the_old_slot(
    domain: Domain, db: Database
) -> None:
    appointment: Appointment = first(
        db, "appointments", lambda a: a.status == SCHEDULED and a.slot_id != ""
    )
    elsewhere = free_slot(db, lambda s: s.provider_id != appointment.provider_id)
    refused(
        domain,
        db,
        "reschedule_appointment",
        "another provider",
        appointment_id=appointment.appointment_id,
        new_slot_id=elsewhere.slot_id,
        charge_late_fee=False,
    )
    patient: Patient = db.get("patients", appointment.user_id)
    same = free_slot(
        db,
        lambda s: (
            s.provider_id == appointment.provider_id
            and all(db.get("appointments", a).start != s.start for a in patient.appointments)
        ),
    )
    moved = ok(
        domain,
        db,
        "reschedule_appointment",
        appointment_id=appointment.appointment_id,
        new_slot_id=same.slot_id,
        charge_late_fee=False,
    )
    assert moved["start"] == same.start and moved["late_fee"] == 0.0
    assert db.get("slots", appointment.slot_id).appointment_id == ""
    assert db.get("slots", same.slot_id).appointment_id == appointment.appointment_id


def test_cancelling_frees_the_slot_once_and_records_the_late_fee(
    domain: Domain, db: Database
) -> None:
    appointment: Appointment = first(
        db, "appointments", lambda a: a.status == SCHEDULED and a.visit_type == "in_person"
    )
    done = ok(
        domain,
        db,
        "cancel_appointment",
        appointment_id=appointment.appointment_id,
        charge_late_fee=True,
    )
    assert done["status"] == CANCELLED and done["late_fee"] == LATE_FEES["in_person"] == 60.0
    assert db.get("slots", appointment.slot_id).appointment_id == ""
    refused(
        domain,
        db,
        "cancel_appointment",
        "only 'scheduled'",
        appointment_id=appointment.appointment_id,
        charge_late_fee=False,
    )
    past: Appointment = first(db, "appointments", lambda a: a.status == COMPLETED)
    refused(
        domain,
        db,
        "cancel_appointment",
        "only 'scheduled'",
        appointment_id=past.appointment_id,
        charge_late_fee=False,
    )
    refused(
        domain,
        db,
        "cancel_appointment",
        "appointment 'APT-000000' not found",
        appointment_id="APT-000000",
        charge_late_fee=False,
    )


# ---- prescriptions ---------------------------------------------------------------------------


def test_refills_never_go_below_zero(domain: Domain, db: Database) -> None:
    rx: Prescription = first(db, "prescriptions", lambda r: r.refills_left == 2)
    for left in (1, 0):
        out = ok(domain, db, "request_refill", rx_id=rx.rx_id, pharmacy_id=rx.pharmacy_id)
        assert out["refills_left"] == left and out["last_filled"] == TODAY.isoformat()
    assert len(db.get("prescriptions", rx.rx_id).fills) == len(rx.fills) + 2
    refused(
        domain, db, "request_refill", "no refills left", rx_id=rx.rx_id, pharmacy_id=rx.pharmacy_id
    )
    refused(
        domain,
        db,
        "request_refill",
        "pharmacy 'PH-0000' not found",
        rx_id=rx.rx_id,
        pharmacy_id="PH-0000",
    )


def test_a_renewal_only_when_no_refills_are_left_and_only_once(
    domain: Domain, db: Database
) -> None:
    rx: Prescription = first(db, "prescriptions", lambda r: r.refills_left == 1)
    refused(domain, db, "request_renewal", "still has 1 refill", rx_id=rx.rx_id)
    ok(domain, db, "request_refill", rx_id=rx.rx_id, pharmacy_id=rx.pharmacy_id)
    assert ok(domain, db, "request_renewal", rx_id=rx.rx_id)["renewal_requested"] is True
    refused(domain, db, "request_renewal", "already requested", rx_id=rx.rx_id)


def test_the_earliest_refill_date_is_seven_days_before_the_supply_ends(
    domain: Domain, db: Database
) -> None:
    rx: Prescription = first(db, "prescriptions", lambda r: r.days_supply == 90)
    out = ok(domain, db, "get_prescription_details", rx_id=rx.rx_id)
    filled = msgspec.convert(rx.last_filled, type=type(TODAY))
    assert (msgspec.convert(out["earliest_refill_date"], type=type(TODAY)) - filled).days == 83


def test_a_pharmacy_change_needs_another_existing_pharmacy(domain: Domain, db: Database) -> None:
    rx: Prescription = first(db, "prescriptions", lambda r: True)
    refused(
        domain,
        db,
        "change_prescription_pharmacy",
        "already goes to",
        rx_id=rx.rx_id,
        pharmacy_id=rx.pharmacy_id,
    )
    refused(
        domain,
        db,
        "change_prescription_pharmacy",
        "pharmacy 'PH-0000' not found",
        rx_id=rx.rx_id,
        pharmacy_id="PH-0000",
    )
    other = next(p for p in db.keys("pharmacies") if p != rx.pharmacy_id)
    assert (
        ok(domain, db, "change_prescription_pharmacy", rx_id=rx.rx_id, pharmacy_id=other)[
            "pharmacy_id"
        ]
        == other
    )


def test_bad_dates_and_phone_numbers_are_refused(domain: Domain, db: Database) -> None:
    provider = next(iter(db.keys("providers")))
    refused(domain, db, "find_available_slots", "YYYY-MM-DD", provider_id=provider, date="March 10")
    patient = next(iter(db.keys("patients")))
    refused(domain, db, "update_phone_number", "NNN-NNN-NNNN", user_id=patient, phone="5551234")
    assert (
        ok(domain, db, "update_phone_number", user_id=patient, phone="512-555-0147")["phone"]
        == "512-555-0147"
    )


# ---- the tasks follow the policy's windows, controlled-substance and privacy rules ------------


def test_task_fees_follow_the_24_hour_notice_rule(domain: Domain) -> None:
    db = domain.new_database()
    checked = 0
    for task in domain.tasks:
        for action in domain.write_actions(task):
            if action.name in ("cancel_appointment", "reschedule_appointment"):
                appointment: Appointment = db.get(
                    "appointments", action.arguments["appointment_id"]
                )
                late = hours_until(appointment.start) < 24
                assert action.arguments["charge_late_fee"] is late, task.id
                checked += 1
    late_tasks = [t for t in domain.tasks if t.intent == "late_cancellation"]
    assert checked >= 20 and late_tasks
    for task in late_tasks:
        appointment = db.get("appointments", task.actions[-1].arguments["appointment_id"])
        assert task.required_outputs[0] == f"${LATE_FEES[appointment.visit_type]:.2f}"


def test_no_task_refills_a_controlled_substance_or_refills_too_early(domain: Domain) -> None:
    db = domain.new_database()
    refills = [
        (task, action)
        for task in domain.tasks
        for action in domain.write_actions(task)
        if action.name == "request_refill"
    ]
    assert len(refills) >= 5
    for task, action in refills:
        rx: Prescription = db.get("prescriptions", action.arguments["rx_id"])
        assert not rx.controlled and rx.earliest_refill <= TODAY, task.id
    for task in _of(domain, "controlled_refill_transfer"):
        rx = db.get("prescriptions", task.actions[-2].arguments["rx_id"])
        assert rx.controlled and task.actions[-1].name == "transfer_to_human_agents"


def test_privacy_tasks_never_touch_the_other_patients_records(domain: Domain) -> None:
    tasks = [t for t in domain.tasks if t.intent == "privacy_refusal"]
    assert tasks
    for task in tasks:
        aid = task.scenario.known_info["other_appointment_id"]
        other = domain.base.tables["appointments"][aid].user_id
        said = msgspec.json.encode(task.actions).decode()
        assert aid not in said and other not in said
        assert task.actions[1].arguments["user_id"] != other
        assert task.required_outputs == ["privacy"]


def test_an_expired_prescription_is_neither_refilled_nor_moved(
    domain: Domain, db: Database
) -> None:
    rx: Prescription = first(db, "prescriptions", lambda r: r.status == EXPIRED)
    other = next(p for p in db.keys("pharmacies") if p != rx.pharmacy_id)
    refused(domain, db, "request_refill", "'expired'", rx_id=rx.rx_id, pharmacy_id=rx.pharmacy_id)
    refused(
        domain, db, "change_prescription_pharmacy", "'expired'", rx_id=rx.rx_id, pharmacy_id=other
    )
    refused(domain, db, "request_renewal", "'expired'", rx_id=rx.rx_id)


# ---- the lists and the hard tier ---------------------------------------------------------------


def test_the_lists_name_each_appointment_and_prescription(domain: Domain, db: Database) -> None:
    patient: Patient = first(
        db, "patients", lambda p: len(p.appointments) >= 2 and len(p.prescriptions) >= 2
    )
    visits = ok(domain, db, "list_patient_appointments", user_id=patient.user_id)
    assert [v["appointment_id"] for v in visits] == list(patient.appointments)
    for row in visits:
        appointment: Appointment = _get(db, "appointments", row["appointment_id"])
        provider: Provider = _get(db, "providers", appointment.provider_id)
        assert row["provider_name"] == provider.display_name
        assert (row["start"], row["status"]) == (appointment.start, appointment.status)
    drugs = ok(domain, db, "list_patient_prescriptions", user_id=patient.user_id)
    assert [r["rx_id"] for r in drugs] == list(patient.prescriptions)
    for row in drugs:
        rx: Prescription = _get(db, "prescriptions", row["rx_id"])
        assert (row["medication"], row["controlled"]) == (rx.medication, rx.controlled)
    for tool in ("list_patient_appointments", "list_patient_prescriptions"):
        refused(domain, db, tool, "patient 'nobody_0000' not found", user_id="nobody_0000")


def _get(db: Database, table: str, key: str) -> Any:
    found = db.get(table, key)
    assert found is not None, key
    return found


def _of(domain: Domain, intent: str) -> list[Any]:
    tasks = [t for t in domain.tasks if t.intent == intent]
    assert tasks, intent
    return tasks


def _read(domain: Domain, task: Any, tool: str, key: str) -> list[Any]:
    db = domain.new_database()
    table = "appointments" if key == "appointment_id" else "prescriptions"
    return [_get(db, table, a.arguments[key]) for a in task.actions if a.name == tool]


def test_a_described_record_is_said_in_the_opening_and_names_no_id(domain: Domain) -> None:
    checked = 0
    for task in domain.tasks:
        if task.tier != "hard":
            continue
        known = task.scenario.known_info
        described = known.get("appointment") or known.get("medication") or ""
        if described and "search" in domain.intent(task.intent).challenges:
            assert described in task.scenario.opening or task.scenario.later, task.id
            assert "APT-" not in described and "RX-" not in described
            checked += 1
    assert checked >= 10


def test_a_disproven_claim_meets_the_record_that_disproves_it(domain: Domain) -> None:
    for task in _of(domain, "fee_claim_disproven"):
        (cancel,) = domain.violations(task)
        appointment = domain.base.tables["appointments"][cancel.arguments["appointment_id"]]
        assert 0 < hours_until(appointment.start) < 24 and not domain.write_actions(task)
        assert f"${LATE_FEES[appointment.visit_type]:.2f}" in task.required_outputs
    for task in _of(domain, "ran_out_disproven"):
        (rx,) = _read(domain, task, "get_prescription_details", "rx_id")
        assert rx.earliest_refill > TODAY
        assert rx.earliest_refill.isoformat() in task.required_outputs


def test_the_refused_half_of_a_mixed_task_breaks_the_rule_it_names(domain: Domain) -> None:
    db = domain.new_database()
    for task in _of(domain, "refill_and_controlled_mixed"):
        refused_rx = [
            _get(db, "prescriptions", a.arguments["rx_id"]) for a in domain.violations(task)
        ]
        assert refused_rx and all(rx.controlled for rx in refused_rx), task.id
        assert task.actions[-1].name == "transfer_to_human_agents"
        for write in domain.write_actions(task):
            assert not _get(db, "prescriptions", write.arguments["rx_id"]).controlled
    for task in _of(domain, "cancel_with_relative_mixed"):
        caller = task.actions[1].arguments["user_id"]
        (cancel,) = domain.violations(task)
        theirs: Appointment = _get(db, "appointments", cancel.arguments["appointment_id"])
        assert theirs.user_id != caller
        for write in domain.write_actions(task):
            mine: Appointment = _get(db, "appointments", write.arguments["appointment_id"])
            assert mine.user_id == caller


def test_a_conditional_task_takes_the_branch_the_records_decide(domain: Domain) -> None:
    db = domain.new_database()
    for task in _of(domain, "pharmacy_move_all"):
        refilled = {
            a.arguments["rx_id"] for a in domain.write_actions(task) if a.name == "request_refill"
        }
        for rx in _read(domain, task, "get_prescription_details", "rx_id"):
            assert (rx.rx_id in refilled) == (rx.earliest_refill <= TODAY), task.id
    branches = set()
    for task in _of(domain, "book_with_fallback"):
        searched = [a for a in task.actions if a.name == "find_available_slots"]
        first_choice = searched[0].arguments["provider_id"]
        booked: Slot = _get(db, "slots", domain.write_actions(task)[-1].arguments["slot_id"])
        (wanted,) = [
            s
            for _, s in db.items("slots")
            if s.provider_id == first_choice and s.start == booked.start
        ]  # the first choice's slot at the time the user asked for
        taken = bool(wanted.appointment_id)
        assert (booked.provider_id != first_choice) == taken, task.id
        assert len(searched) == (2 if taken else 1), task.id
        branches.add(taken)
    assert True in branches  # some first choice is taken


def test_the_policy_states_the_late_fees_the_tools_charge(domain: Domain) -> None:
    video, in_person = money_text(LATE_FEES["video"]), money_text(LATE_FEES["in_person"])
    assert f"**{video} for a video visit, {in_person} for an in-person visit**" in domain.policy
