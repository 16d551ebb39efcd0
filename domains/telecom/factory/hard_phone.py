"""Hard telecom intents on the phone: two to four faults at once, fixed by the manual's steps.

Each task's phone (``devices`` table) has several faults (``faults.FAULTS``); the gold path
checks the line, then walks the troubleshooting manual with the user (``troubleshoot``):
every check of each reported symptom, each fault's fix, one restart where a fix asked for it,
and the re-checks that show service. Leaving any one fault unfixed scores 0.
"""

from __future__ import annotations

import random
from typing import ClassVar

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import can_pay, method_text, money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.domains.telecom.data import ACTIVE, Addon, Bill, Line, Subscriber
from tau_sim.domains.telecom.factory.common import (
    TelecomIntent,
    addon_known,
    addon_purchase,
    exhausted,
    pick_line,
    plan_of,
)
from tau_sim.domains.telecom.factory.troubleshoot import (
    HANDS,
    device_of,
    line_faults,
    manual_steps,
    skip_one,
    symptom_text,
    symptoms,
)
from tau_sim.domains.telecom.faults import Fault
from tau_sim.domains.telecom.scenario import line_reads
from tau_sim.simulator.world import Action, Challenge, Database, Domain, Task

OPENINGS = (
    "Hi, my phone {phone} {symptoms}.",
    "Hello, I need help: my phone {symptoms}.",
    "My phone {symptoms}. Can you sort it out?",
    "Hi there, since yesterday my phone {symptoms}, and I'm fed up.",
    "Hey, something is off with my phone {phone}: it {symptoms}.",
)


def fits_home(db: Database, line: Line, counts: tuple[int, ...]) -> bool:
    """An active line at home, data left, whose phone has a number of faults in ``counts``."""
    device = device_of(db, line)
    return (
        line.status == ACTIVE
        and not device.abroad
        and not device.data_roaming
        and not exhausted(db, line)
        and len(line_faults(db, line)) in counts
    )


NOT_OURS = "phone's own settings"
"""What the refusal of a credit for a phone's faults must say (why: not the carrier's fault)."""


def opening(
    rng: random.Random, phone: str, faults: list[Fault], extra: tuple[str, ...] = ()
) -> str:
    """One of ``OPENINGS`` for the phone ``phone`` with ``faults`` (and ``extra`` symptoms)."""
    return rng.choice(OPENINGS).format(phone=phone, symptoms=symptom_text(faults, extra))


class _Troubleshoot(TelecomIntent):
    """A phone with ``counts`` faults: the manual walked with the user until service is back."""

    tier = "hard"
    counts: ClassVar[tuple[int, ...]]

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        line = pick_line(db, rng, lambda ln: fits_home(db, ln, self.counts))
        if line is None:
            return None
        faults = line_faults(db, line)
        who = self.identity(db, line.user_id, rng)
        phone = line.phone_number
        wish, asks, demand, outputs = self.besides(rng)
        task = self.task(
            domain,
            who,
            goal=f"My phone {phone} {symptom_text(faults)}. I want all of it working "
            f"again{wish}. {HANDS}",
            opening=opening(rng, phone, faults) + asks,
            known={"phone_number": phone},
            actions=[*line_reads(who, line), *manual_steps(line, faults)],
            outputs=outputs,
            summary=f"fix {', '.join(f.name for f in faults)} on the phone of {line.line_id}",
            demand=demand,
        )
        return refusing(task, *self.refused(db, line))

    def besides(self, rng: random.Random) -> tuple[str, str, str, list[str]]:
        """What the user wants besides the fix: goal and opening words, demand, outputs."""
        return "", "", "", []

    def refused(self, db: Database, line: Line) -> list[Action]:
        """The writes the user asks for besides the fix that the policy refuses: none."""
        return []

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """Each fault left unfixed; the restart left out where one is needed."""
        no_restart = [a for a in task.actions if a.name != "restart_device"]
        return [*skip_one(domain, task), *([no_restart] if no_restart != task.actions else [])]


class TroubleshootTwo(_Troubleshoot):
    """Two faults on the phone; the agent walks the manual with the user."""

    name = "troubleshoot_two_faults"
    counts = (2,)


class TroubleshootThree(_Troubleshoot):
    """Three faults on the phone (three to four writes: a long horizon)."""

    name = "troubleshoot_three_faults"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"long"})
    counts = (3,)


class TroubleshootFour(_Troubleshoot):
    """Four faults on the phone (four to five writes: a long horizon)."""

    name = "troubleshoot_four_faults"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"long"})
    counts = (4,)


class TroubleshootLater(_Troubleshoot):
    """Faults of two or more symptoms; the user raises the last symptom only later."""

    name = "troubleshoot_later_symptom"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"later"})
    counts = (2, 3)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(ln: Line) -> bool:
            return fits_home(db, ln, self.counts) and len(symptoms(line_faults(db, ln))) >= 2

        line = pick_line(db, rng, fits)
        if line is None:
            return None
        faults = line_faults(db, line)
        last = symptoms(faults)[-1]
        first = [f for f in faults if f.symptom != last]
        who = self.identity(db, line.user_id, rng)
        phone = line.phone_number
        reads = line_reads(who, line)
        steps = manual_steps(line, faults)
        first_steps = manual_steps(line, first)
        at = next(i for i, (a, b) in enumerate(zip(steps, first_steps, strict=False)) if a != b)
        later = [f for f in faults if f.symptom == last]
        return self.task(
            domain,
            who,
            goal=f"My phone {phone} {symptom_text(first)}. I want it working again. {HANDS}",
            opening=opening(rng, phone, first),
            known={"phone_number": phone},
            actions=[*reads, *steps],
            summary=f"fix {', '.join(f.name for f in faults)} on the phone of {line.line_id}",
            later=one_of(
                rng,
                "Oh, and while I have you: my phone also {s}. Can you fix that too?",
                "One more thing, my phone also {s}. Could you help with that as well?",
            ).format(s=symptom_text(later)),
            later_at=len(reads) + at,
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The later symptom left out (its checks and fixes), and each fault left unfixed."""
        at = task.later_at or 0
        later_names = {
            a.name
            for a in task.actions[at:]
            if domain.is_user_step(a) and a.name != "restart_device"
        }
        early = {a.name for a in task.actions[:at]}
        left_out = [a for a in task.actions if a.name not in later_names - early]
        return [left_out, *super().mistakes(domain, task)]


class TroubleshootWithCredit(Refuses, _Troubleshoot):
    """Two or three faults, and a credit for the days without service that policy forbids."""

    name = "troubleshoot_and_refuse_credit"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"mixed"})
    rules = ("no-credit-for-phone-settings",)
    counts = (2, 3)

    def besides(self, rng: random.Random) -> tuple[str, str, str, list[str]]:
        """A credit of the June bill for the days without service (refused: the phone's fault)."""
        demand = "a credit on my June bill for the days my phone did not work"
        asks = one_of(
            rng,
            " And I want money back for the days it didn't work.",
            " I also expect a credit on my bill for this.",
        )
        return f", and {demand}", asks, demand, [NOT_OURS]

    def refused(self, db: Database, line: Line) -> list[Action]:
        """A credit of the line's June plan charge for service not received."""
        user: Subscriber = record(db, "users", line.user_id)
        bills: list[Bill] = [record(db, "bills", b) for b in user.bills]
        june = next(b for b in bills if b.period == "2025-06")
        plan = f"plan, {line.phone_number}"
        charge = next(c for c in june.charges if c.description.endswith(plan))
        arguments = {
            "bill_id": june.bill_id,
            "charge_id": charge.charge_id,
            "amount": charge.amount,
            "reason": "service_not_received",
        }
        return [Action("apply_bill_credit", arguments)]


class TroubleshootIfUsedUp(_Troubleshoot):
    """No mobile internet: a data add-on only if the line used up its data, then the phone."""

    name = "troubleshoot_if_data_used_up"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"conditional"})
    counts = (2, 3)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        used_up = rng.random() < 0.5

        def fits(ln: Line) -> bool:
            device = device_of(db, ln)
            return (
                ln.status == ACTIVE
                and not device.abroad
                and not device.data_roaming
                and plan_of(db, ln).data_gb > 0
                and exhausted(db, ln) == used_up
                and len(line_faults(db, ln)) in self.counts
            )

        line = pick_line(db, rng, fits)
        if line is None:
            return None
        user: Subscriber = record(db, "users", line.user_id)
        addon: Addon = record(db, "addons", "data_1gb")
        methods = [m for m in user.payment_methods if can_pay(m, addon.price)]
        if not methods:
            return None
        method = rng.choice(methods)
        faults = line_faults(db, line)
        who = self.identity(db, line.user_id, rng)
        phone = line.phone_number
        buy = addon_purchase(line, addon, method)
        reported = symptom_text(faults, ("data",))
        return self.task(
            domain,
            who,
            goal=f"My phone {phone} {reported}. If my line has used up this month's data, I "
            f"want the {addon.name}, paid with {method_text(method)}; if it still has data "
            f"left, I do not want to buy anything. I want the phone working again. {CONFIRM} "
            f"{HANDS}",
            opening=opening(rng, phone, faults, ("data",)),
            known=addon_known(phone, addon, method),
            actions=[
                *line_reads(who, line),
                *(buy if used_up else []),
                *manual_steps(line, faults, ("data",)),
            ],
            outputs=[money_text(addon.price)] if used_up else [],
            summary=f"{'add-on and ' if used_up else ''}fix "
            f"{', '.join(f.name for f in faults)} on the phone of {line.line_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The condition ignored (the add-on left out, or bought unneeded); a fault unfixed."""
        bought = [a for a in task.actions if a.name == "add_data_addon"]
        if bought:
            ignored = [
                a for a in task.actions if a.name not in ("add_data_addon", "list_data_addons")
            ]
        else:
            line_id = next(
                a.arguments["line_id"] for a in task.actions if a.name == "get_line_details"
            )
            user = domain.base.tables["users"][domain.base.tables["lines"][line_id].user_id]
            method = next(m for m in user.payment_methods if can_pay(m, 10.0))
            purchase = Action(
                "add_data_addon",
                {"line_id": line_id, "addon_id": "data_1gb", "payment_method_id": method.id},
            )
            ignored = [*task.actions, purchase]
        return [ignored, *super().mistakes(domain, task)]
