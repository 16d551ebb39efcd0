"""The troubleshooting manual as gold paths: the checks and fixes a phone's faults need.

``manual_steps`` walks the manual of ``policy.md`` (``faults.FAULTS`` order) for the symptoms a
phone's faults cause: every check of each reported symptom, the fix after each check that
finds a fault, one restart when a fix asked for it, then the re-check of each symptom.
``symptom_text`` is how the user says the symptoms; ``skip_one`` are the paths that leave one
fault unfixed (each scores 0: the phone's final state differs).
"""

from __future__ import annotations

from tau_sim.domains.kit.lookup import record
from tau_sim.domains.telecom.data import Device, Line
from tau_sim.domains.telecom.faults import FAULTS, FINAL_CHECKS, SYMPTOMS, Fault, faults_of
from tau_sim.domains.telecom.scenario import user_step
from tau_sim.simulator.world import Action, Database, Domain, Task

HANDS = (
    "When the agent asks you to check or change something on your phone, do it and say what "
    "you see."
)


def device_of(db: Database, line: Line) -> Device:
    """The phone of ``line``."""
    device: Device = record(db, "devices", line.phone_number)
    return device


def symptoms(faults: list[Fault], extra: tuple[str, ...] = ()) -> list[str]:
    """The symptoms ``faults`` cause and ``extra`` ones, in the manual's order."""
    return [s for s in SYMPTOMS if s in extra or any(f.symptom == s for f in faults)]


def symptom_text(faults: list[Fault], extra: tuple[str, ...] = ()) -> str:
    """The symptoms as the user lists them ("keeps losing signal and ...")."""
    said = [SYMPTOMS[s] for s in symptoms(faults, extra)]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def manual_steps(line: Line, faults: list[Fault], extra: tuple[str, ...] = ()) -> list[Action]:
    """The user steps the manual asks for to fix ``faults`` (and check ``extra`` symptoms)."""
    broken = {f.name for f in faults}
    reported = symptoms(faults, extra)
    steps: list[Action] = []
    for symptom in reported:
        for fault in (f for f in FAULTS if f.symptom == symptom):
            steps.append(user_step(fault.check, line))
            if fault.name in broken:
                steps.append(user_step(fault.fix, line))
    if any(f.restart for f in faults):
        steps.append(user_step("restart_device", line))
    finals = dict.fromkeys(FINAL_CHECKS[s] for s in reported)
    steps.extend(user_step(name, line) for name in finals)
    return steps


def line_faults(db: Database, line: Line) -> list[Fault]:
    """The faults of the phone of ``line``."""
    return faults_of(device_of(db, line))


def skip_one(domain: Domain, task: Task) -> list[list[Action]]:
    """For each fix on the gold path, the path without it (that fault left in place)."""
    fixes = {f.fix for f in FAULTS}
    return [
        [a for j, a in enumerate(task.actions) if j != i]
        for i, a in enumerate(task.actions)
        if a.name in fixes and domain.is_user_step(a)
    ]
