"""Telecom intents with the user's hands on the phone: roaming, no service, no data."""

from __future__ import annotations

import random
from typing import ClassVar

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.domains.telecom.data import ACTIVE, Device, Line
from tau_sim.domains.telecom.factory.common import TelecomIntent, exhausted, pick_line
from tau_sim.domains.telecom.factory.troubleshoot import manual_steps, skip_one
from tau_sim.domains.telecom.faults import faults_of
from tau_sim.domains.telecom.rules import ROAMING_DAY_FEE
from tau_sim.domains.telecom.scenario import line_reads, user_step
from tau_sim.simulator.world import Action, Database, Domain, Task

_HANDS = (
    "When the agent asks you to check or change something on your phone, do it and say what "
    "you see."
)


COUNTRIES = ("Mexico", "Canada", "France", "Japan", "Spain", "Italy", "Brazil", "Germany")


def _healthy(device: Device) -> bool:
    """A phone with no problem of its own."""
    return not faults_of(device) and not device.restart_pending


def _device(db: Database, line: Line) -> Device:
    device: Device = record(db, "devices", line.phone_number)
    return device


class RoamingAbroad(TelecomIntent):
    """Abroad without data: roaming on the line (agent) and data roaming on the phone (user)."""

    name = "roaming_abroad"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(ln: Line) -> bool:
            device = _device(db, ln)
            return (
                ln.status == ACTIVE
                and not ln.roaming_enabled
                and device.abroad
                and _healthy(device)
                and not device.data_roaming
                and not exhausted(db, ln)
            )

        line = pick_line(db, rng, fits)
        if line is None:
            return None
        who = self.identity(db, line.user_id, rng)
        phone = line.phone_number
        country = rng.choice(COUNTRIES)
        return self.task(
            domain,
            who,
            goal=f"I am travelling in {country} and my phone {phone} has no data here. I want "
            f"it working and to know what roaming costs. {CONFIRM} {_HANDS}",
            opening=one_of(
                rng,
                f"Hi, I'm in {country} and my phone {phone} has no internet at all.",
                "Hello, I'm abroad and my mobile data doesn't work.",
                f"I just landed in {country} and my phone shows no data.",
                "Hi, I'm travelling and can't get online with my phone.",
            ),
            known={"phone_number": phone, "country": country},
            actions=[
                *line_reads(who, line),
                user_step("check_status_bar", line),
                Action("enable_roaming", {"line_id": line.line_id}),
                user_step("toggle_data_roaming", line),
                user_step("run_speed_test", line),
            ],
            outputs=[f"{money_text(ROAMING_DAY_FEE)} per day"],
            summary=f"enable roaming on {line.line_id} and data roaming on its phone",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """Only the account fixed (the phone left alone); only the phone fixed."""
        account_only = [a for a in task.actions if not domain.is_user_step(a)]
        phone_only = [a for a in task.actions if a.name != "enable_roaming"]
        return [account_only, phone_only]


class _PhoneFix(TelecomIntent):
    """One fault on the phone itself, fixed by the manual's user steps the agent asks for."""

    causes: ClassVar[dict[str, str]]
    wrong: ClassVar[str]
    symptom: ClassVar[str]

    def cause(self, device: Device) -> str | None:
        """Which of ``causes`` (a label for a fault name) the phone has, if it has that only."""
        faults = faults_of(device)
        if len(faults) != 1 or device.restart_pending:
            return None
        return next((label for label, f in self.causes.items() if f == faults[0].name), None)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(ln: Line) -> bool:
            device = _device(db, ln)
            return (
                ln.status == ACTIVE
                and not device.abroad
                and not exhausted(db, ln)
                and self.cause(device) is not None
            )

        line = pick_line(db, rng, fits)
        if line is None:
            return None
        cause = self.cause(_device(db, line))
        assert cause is not None
        who = self.identity(db, line.user_id, rng)
        phone = line.phone_number
        steps = manual_steps(line, faults_of(_device(db, line)))
        return self.task(
            domain,
            who,
            goal=f"My phone {phone} {self.symptom} and I want it fixed. {_HANDS}",
            opening=one_of(
                rng,
                f"Hi, my phone {phone} {self.symptom}.",
                f"Hello, something is wrong with my phone: it {self.symptom}.",
                f"My phone {self.symptom}. Can you help?",
                f"Hey, since this morning my phone {phone} {self.symptom}.",
            ),
            known={"phone_number": phone},
            actions=[*line_reads(who, line), *steps],
            summary=f"{cause} on the phone of {line.line_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """Nothing fixed (reads only); the wrong setting changed instead; the generic one."""
        reads = [a for a in task.actions if not domain.is_user_step(a)]
        phone = task.actions[-1].arguments["phone_number"]
        wrong = [*reads, Action(self.wrong, {"phone_number": phone})]
        return [reads, wrong, *skip_one(domain, task)]


class FixNoService(_PhoneFix):
    """No signal: airplane mode left on, or a loose SIM card (reseat it, then restart)."""

    name = "fix_no_service"
    causes = {"airplane mode on": "airplane_mode", "loose SIM card": "sim_loose"}
    wrong = "toggle_mobile_data"
    symptom = "has no signal, I can't call anyone"


class FixMobileData(_PhoneFix):
    """Calls work but no data: mobile data switched off, or a wrong APN (reset it, restart)."""

    name = "fix_mobile_data"
    causes = {"mobile data off": "mobile_data_off", "wrong APN": "wrong_apn"}
    wrong = "toggle_airplane_mode"
    symptom = "has signal but the internet doesn't work"
