"""Utilities intents about payment plans: within the limits, after a reading, past 12 months."""

from __future__ import annotations

import random
from typing import ClassVar

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import method_text, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, replay_actions
from tau_sim.domains.utilities.data import ELECTRICITY
from tau_sim.domains.utilities.factory.common import (
    UtilitiesIntent,
    new_value,
    pick_supply,
    plannable,
)
from tau_sim.domains.utilities.rules import PLAN_MAX_MONTHS, PLAN_MIN_INSTALMENT, PLAN_MIN_MONTHS
from tau_sim.domains.utilities.scenario import account_text, gold_reads, meter_text
from tau_sim.simulator.world import Action, Database, Domain, Task


def plan_months(rng: random.Random, balance: float) -> int | None:
    """A number of months the policy allows for ``balance``, or None."""
    allowed = [
        m for m in range(PLAN_MIN_MONTHS, PLAN_MAX_MONTHS + 1) if balance / m >= PLAN_MIN_INSTALMENT
    ]
    return rng.choice(allowed) if allowed else None


class _Plan(UtilitiesIntent):
    """A payment plan over the current balance; ``with_reading`` submits a reading first."""

    with_reading: ClassVar[bool] = False

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, plannable)
        if supply is None:
            return None
        months = plan_months(rng, supply.account.balance)
        if months is None or not supply.user.payment_methods:
            return None
        method = rng.choice(supply.user.payment_methods)
        writes: list[Action] = []
        known = {**supply.known, "months": str(months), "payment_method": method_text(method)}
        reading = ""
        meter = supply.meter(ELECTRICITY)
        if self.with_reading and meter is not None:
            value = new_value(rng, meter, supply.last[meter.meter_id])
            writes.append(
                Action("submit_meter_reading", {"meter_id": meter.meter_id, "value": value})
            )
            known["meter"] = meter_text(meter)
            known["reading"] = str(value)
            reading = f" First, I read my electricity meter today: it shows {value}; record it."
        writes.append(
            Action(
                "create_payment_plan",
                {
                    "account_id": supply.account.account_id,
                    "months": months,
                    "payment_method_id": method.id,
                },
            )
        )
        results = replay_actions(domain, db, writes)
        if results is None:
            return None
        instalment = results[-1]["instalment"]
        reads = [supply.read()]
        outputs = [money_text(instalment)]
        first_bill = ""
        if supply.account.bill_count and rng.random() < 0.5:
            latest = f"{supply.account.account_id}-B{supply.account.bill_count:02d}"
            reads.append(Action("get_bill_details", {"bill_id": latest}))
            outputs.append(money_text(record(db, "bills", latest).total))
            first_bill = " Before that I want to know the total of my latest bill."
        if rng.random() < 0.5:
            expression = f"{supply.account.balance} / {months}"
            reads.append(Action("calculate", {"expression": expression}))
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I can't pay the {money_text(supply.account.balance)} I owe on "
            f"{account_text(supply.premise.address)} in one go.{first_bill}{reading} I want a "
            f"payment plan over {months} months, paid from {method_text(method)}, and I want to "
            f"know the monthly instalment. {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I'm struggling to pay my balance at once. Can I pay in instalments?",
                "Hello, I'd like to set up a payment plan for my energy bill.",
                "Hi, can I split what I owe into monthly payments?",
                "Hello, I can't clear my balance in one go, what are my options?",
                "Good morning, I'd like to pay my energy debt off monthly.",
                "Hi, is a payment plan possible on my account?",
            ),
            known=known,
            actions=[*gold_reads(who, *reads), *writes],
            outputs=outputs,
            summary=f"{months}-month plan on {supply.account.account_id}"
            + (" after a reading" if reading else ""),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and one month more than asked."""
        writes = domain.write_actions(task)
        reads = [a for a in task.actions if a not in writes]
        plan = writes[-1]
        longer = self.last_write_changed(domain, task, months=plan.arguments["months"] + 1)
        paths = [*super().mistakes(domain, task), longer]
        if len(writes) > 1:
            paths.append([*reads, plan])  # the reading left out
        return paths


class PaymentPlanSetup(_Plan):
    """A payment plan within the policy's limits: 3 to 12 monthly instalments of at least $25."""

    name = "payment_plan"


class ReadingAndPlan(_Plan):
    """Submit an electricity reading, then set up a payment plan (two writes)."""

    name = "reading_and_plan"
    with_reading = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task (always with a reading)."""
        task = super().sample(domain, db, rng)
        if task is None or len(domain.write_actions(task)) < 2:
            return None
        return task


class PlanOverLimit(Refuses, UtilitiesIntent):
    """Forbidden: a payment plan longer than 12 months; refuse and say the limit."""

    name = "plan_over_limit"
    forbidden = True
    rules = ("plan-max-12-months",)
    own_mistakes = "before"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, plannable)
        if supply is None or not supply.user.payment_methods:
            return None
        months = rng.choice((18, 24))
        method = rng.choice(supply.user.payment_methods)
        reads = [supply.read()]
        outputs = [f"{PLAN_MAX_MONTHS} months"]
        twelve = ""
        with_bill = supply.account.bill_count and rng.random() < 0.4
        if with_bill or rng.random() < 0.5:
            balance = supply.account.balance
            reads.append(Action("calculate", {"expression": f"{balance} / {PLAN_MAX_MONTHS}"}))
            outputs.append(money_text(round(balance / PLAN_MAX_MONTHS, 2)))
            twelve = " I want to know what the instalment of the longest plan would be."
        if with_bill:
            latest = f"{supply.account.account_id}-B{supply.account.bill_count:02d}"
            reads.insert(1, Action("get_bill_details", {"bill_id": latest}))
            outputs.append(money_text(record(db, "bills", latest).total))
            twelve += " I also want to know the total of my latest bill."
        who = self.identity(db, supply.user.user_id, rng)
        task = self.task(
            domain,
            who,
            goal=f"I owe {money_text(supply.account.balance)} on "
            f"{account_text(supply.premise.address)} and want to spread it over {months} months, "
            f"paid from {method_text(method)}; nothing shorter. If the agent refuses, I want to "
            f"know the longest plan allowed, and I will think about it: I do not want a shorter "
            f"plan today.{twelve}",
            demand=f"my balance spread over {months} months",
            opening=one_of(
                rng,
                f"Hi, can I pay off my energy balance over {months} months?",
                f"Hello, I'd like a {months}-month payment plan.",
                "Hi, I need a really long payment plan, two years or so.",
                "Hello, how long can I spread my balance over? I want the longest.",
                f"Good morning, please set me up to pay over {months} months.",
            ),
            known={**supply.known, "months": str(months), "payment_method": method_text(method)},
            actions=gold_reads(who, *reads),
            outputs=outputs,
            summary=f"{months}-month plan on {supply.account.account_id}: refuse",
        )
        plan = {
            "account_id": supply.account.account_id,
            "payment_method_id": method.id,
            "months": months,
        }
        return refusing(task, Action("create_payment_plan", plan))  # as asked, past the limit

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, the plan made as asked, and a 12-month plan nobody accepted."""
        (asked,) = self.violations(domain, task)
        capped = replaced(asked, months=PLAN_MAX_MONTHS)
        return [*super().mistakes(domain, task), [*task.actions, capped]]
