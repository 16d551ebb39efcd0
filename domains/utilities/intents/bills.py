"""Utilities intents about readings and bills: submit, bill, pay, payment plans."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import PaymentMethod, can_pay, method_text, money, money_text
from tau_sim.domains.kit.tasks import replay_actions
from tau_sim.domains.utilities.data import ELECTRICITY, GAS, TODAY, Premise, User
from tau_sim.domains.utilities.intents.common import (
    UtilitiesIntent,
    account_of,
    misread_first,
    new_value,
    pick_opening,
    pick_supply,
    plannable,
    readings,
)
from tau_sim.domains.utilities.rules import PLAN_MAX_MONTHS, PLAN_MIN_INSTALMENT, PLAN_MIN_MONTHS
from tau_sim.domains.utilities.scenario import (
    CONFIRM,
    account_text,
    gold_reads,
    meter_text,
    units_text,
)
from tau_sim.simulator.world import Action, Database, Domain, Task


def payable_methods(user: User, amount: float) -> list[PaymentMethod]:
    """The customer's payment methods that cover ``amount``."""
    return [m for m in user.payment_methods if can_pay(m, amount)]


# ---- readings and bills -----------------------------------------------------------------------


class SubmitReading(UtilitiesIntent):
    """Submit one meter reading and hear how much was used since the last one."""

    name = "submit_reading"
    description = (
        "The user submits a meter reading and asks how many units were used since the last."
    )

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: True)
        if supply is None:
            return None
        meter = rng.choice(supply.meters)
        last = supply.last[meter.meter_id]
        value = new_value(rng, meter, last)
        reads = [supply.read()]
        wants = ""
        if rng.random() < 0.5:
            reads.append(Action("get_meter_readings", {"meter_id": meter.meter_id}))
            wants = "Before that I want to know the date of the last reading you have on file. "
        reads.append(Action("calculate", {"expression": f"{value} - {last.value}"}))
        submit = [Action("submit_meter_reading", {"meter_id": meter.meter_id, "value": value})]
        known = {**supply.known, "meter": meter_text(meter), "reading": str(value)}
        outputs = [units_text(value - last.value, meter.unit)] + ([last.date] if wants else [])
        gas = supply.meter(GAS)
        if meter.fuel == ELECTRICITY and gas is not None and rng.random() < 0.7:
            gas_last = supply.last[gas.meter_id]
            gas_value = new_value(rng, gas, gas_last)
            expression = f"{gas_value} - {gas_last.value}"
            reads.append(Action("calculate", {"expression": expression}))
            submit.append(
                Action("submit_meter_reading", {"meter_id": gas.meter_id, "value": gas_value})
            )
            known["gas_reading"] = str(gas_value)
            wants += f"I also give my gas reading: {gas_value}; I want the therms used too. "
            outputs.append(units_text(gas_value - gas_last.value, gas.unit))
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to give today's reading of {meter_text(meter)} for "
            f"{account_text(supply.premise.address)}: it shows {value}. {wants}I want to know "
            f"how many {meter.unit} I used since the previous reading. I do not want a bill now. "
            f"{CONFIRM}",
            opening=pick_opening(
                rng,
                "Hi, I'd like to submit a meter reading.",
                f"Hello, I have a {meter.fuel} meter reading for you.",
                "Hi, I just read my meter and want to pass the number on.",
                f"Hello, can I give you today's {meter.fuel} reading?",
                "Good morning, I'd like to update my meter reading, please.",
                "Hi there, quick one: a meter reading to record.",
            ),
            known=known,
            actions=[*gold_reads(who, *reads), *submit],
            outputs=outputs,
            summary=f"reading {value} on {meter.meter_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, a misread value, a bill nobody asked for (every meter read)."""
        *reads, submit = task.actions
        args = submit.arguments
        misread = Action(submit.name, {**args, "value": args["value"] + 100})
        paths = [*super().mistakes(domain, task), [*reads, misread]]
        account = account_of(domain, task)
        assert account is not None
        premise: Premise = record(domain.new_database(), "premises", account.premise_id)
        if len(premise.meters) == len(domain.write_actions(task)):
            bill = Action("create_bill", {"account_id": account.account_id})
            paths.append([*reads, submit, bill])
        return paths


class ReadingAndBill(UtilitiesIntent):
    """Submit a reading for every meter, then have a bill issued (two or three writes)."""

    name = "reading_and_bill"
    description = (
        "The user submits today's readings of every meter and asks for a bill now, to know its "
        "total and the new balance (two or three writes)."
    )

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: s.account.billed_to < TODAY.isoformat())
        if supply is None:
            return None
        writes, known, said = readings(rng, supply, "submit_meter_reading")
        writes.append(Action("create_bill", {"account_id": supply.account.account_id}))
        results = replay_actions(domain, db, writes)
        if results is None:
            return None
        bill = results[-1]
        reads = [supply.read()]
        outputs = [money_text(bill["bill"]["total"]), money_text(bill["balance"])]
        rates = ""
        if rng.random() < 0.5:
            reads.append(Action("get_tariff_details", {"tariff_id": supply.tariff.tariff_id}))
            rates = " First I want to know the electricity unit rate of my tariff."
            outputs.append(f"{supply.tariff.electricity.unit_rate}")
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"For {account_text(supply.premise.address)} I read my meters today: "
            f"{' and '.join(said)}.{rates} I want the readings recorded and a bill issued now "
            f"from them, and I want to know the bill's total and my new balance. {CONFIRM}",
            opening=pick_opening(
                rng,
                "Hi, I want to give my meter readings and get a bill based on them.",
                "Hello, my bills keep being estimated. I have real readings, I want a real bill.",
                "Hi, I've read all my meters and would like a bill today.",
                "Hello, can you bill me now from the readings I took this morning?",
                "Good afternoon, I want an up-to-date bill from actual readings.",
            ),
            known={**supply.known, **known},
            actions=[*gold_reads(who, *reads), *writes],
            outputs=outputs,
            summary=f"readings and bill for {supply.account.account_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a reading misread by a hundred units."""
        return [*super().mistakes(domain, task), misread_first(domain, task)]


class BillInquiry(UtilitiesIntent):
    """Ask about the latest bill: its total and whether it used an estimated reading."""

    name = "bill_inquiry"
    description = (
        "The user asks the total of the latest bill and whether it was estimated (read only)."
    )

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: s.account.bill_count > 0)
        if supply is None:
            return None
        bill_id = f"{supply.account.account_id}-B{supply.account.bill_count:02d}"
        bill = record(db, "bills", bill_id)
        estimated = any(line.estimated for line in bill.lines)
        reads = [supply.read(), Action("get_bill_details", {"bill_id": bill_id})]
        outputs = [money_text(bill.total), bill.period_end, "estimated" if estimated else "actual"]
        compare = ""
        if supply.account.bill_count > 1 and rng.random() < 0.6:
            before_id = f"{supply.account.account_id}-B{supply.account.bill_count - 1:02d}"
            before = record(db, "bills", before_id)
            reads.append(Action("get_bill_details", {"bill_id": before_id}))
            reads.append(Action("calculate", {"expression": f"{bill.total} - {before.total}"}))
            compare = " I also want to know how much more or less it is than the bill before it."
            outputs.append(money_text(abs(round(bill.total - before.total, 2))))
        if rng.random() < 0.4:
            reads.append(Action("get_tariff_details", {"tariff_id": supply.tariff.tariff_id}))
            compare += " And I want to know the electricity unit rate I pay."
            outputs.append(f"{supply.tariff.electricity.unit_rate}")
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to understand the latest bill of {account_text(supply.premise.address)}: "
            "its total, the period it covers and whether it was based on an estimated reading or "
            f"an actual one.{compare} I do not want to change anything.",
            opening=pick_opening(
                rng,
                "Hi, I have a question about my latest energy bill.",
                "Hello, my last bill looks high, can you explain it?",
                "Hi, can you walk me through my most recent bill?",
                "Hello, I don't understand my latest statement.",
                "Good morning, I'd like some details about my last bill.",
                "Hi, was my last bill based on a real reading?",
            ),
            known={**supply.known, "bill": "the latest bill"},
            actions=gold_reads(who, *reads),
            outputs=outputs,
            summary=f"latest bill {bill_id} ({'estimated' if estimated else 'actual'})",
        )


# ---- payments and plans -----------------------------------------------------------------------


class PayBalance(UtilitiesIntent):
    """Pay all or part of the balance with a payment method."""

    name = "pay_balance"
    description = "The user pays all or part of the balance owed with one of their payment methods."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: s.account.balance >= 30)
        if supply is None:
            return None
        balance = supply.account.balance
        full = rng.random() < 0.4
        amount = balance if full else float(rng.choice([a for a in (20, 25, 50) if a < balance]))
        reads = [supply.read()]
        latest = f"{supply.account.account_id}-B{supply.account.bill_count:02d}"
        bill_total = record(db, "bills", latest).total if supply.account.bill_count else 0.0
        by_bill = not full and 10 < bill_total < balance and rng.random() < 0.7
        two_bills = False
        if by_bill:
            amount = bill_total
            reads.append(Action("get_bill_details", {"bill_id": latest}))
            count = supply.account.bill_count
            before = f"{supply.account.account_id}-B{count - 1:02d}"
            both = bill_total + record(db, "bills", before).total if count > 1 else balance + 1
            if both <= balance and rng.random() < 0.5:
                two_bills = True
                amount = money(both)
                reads.append(Action("get_bill_details", {"bill_id": before}))
                expression = f"{bill_total} + {record(db, 'bills', before).total}"
                reads.append(Action("calculate", {"expression": expression}))
        methods = payable_methods(supply.user, amount)
        if not methods:
            return None
        method = rng.choice(methods)
        pay = Action(
            "make_payment",
            {
                "account_id": supply.account.account_id,
                "amount": amount,
                "payment_method_id": method.id,
            },
        )
        results = replay_actions(domain, db, [pay])
        if results is None:
            return None
        what = "the whole balance" if full else f"{money_text(amount)} now"
        if by_bill:
            what = "the amount of my latest bill, not the whole balance,"
        if two_bills:
            what = "the amounts of my last two bills together, not the whole balance,"
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to pay {what} on {account_text(supply.premise.address)} with "
            f"{method_text(method)}, and I want to know what I still owe afterwards. {CONFIRM}",
            opening=pick_opening(
                rng,
                "Hi, I'd like to make a payment on my energy account.",
                "Hello, I want to pay my bill.",
                "Hi, I want to put some money towards what I owe.",
                "Hello, can I pay my energy bill with you now?",
                "Good evening, I'd like to settle some of my balance today.",
                "Hi there, I need to make a payment, please.",
            ),
            known={
                **supply.known,
                "amount": "my last two bills together"
                if two_bills
                else "the amount of my latest bill"
                if by_bill
                else "the whole balance"
                if full
                else money_text(amount),
                "payment_method": method_text(method),
            },
            actions=[*gold_reads(who, *reads), pay],
            outputs=[money_text(results[0]["balance"])],
            summary=f"pay {money_text(amount)} on {supply.account.account_id} with {method.id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and ten dollars less than asked."""
        less = round(task.actions[-1].arguments["amount"] - 10.0, 2)
        return [*super().mistakes(domain, task), self.last_write_changed(domain, task, amount=less)]


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
            opening=pick_opening(
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
    """A payment plan within the policy's limits."""

    name = "payment_plan"
    description = "The user spreads the balance over 3 to 12 monthly instalments of at least $25."


class ReadingAndPlan(_Plan):
    """Submit an electricity reading, then set up a payment plan (two writes)."""

    name = "reading_and_plan"
    description = "The user submits a meter reading and sets up a payment plan (two writes)."
    with_reading = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task (always with a reading)."""
        task = super().sample(domain, db, rng)
        if task is None or len(domain.write_actions(task)) < 2:
            return None
        return task


class PlanOverLimit(UtilitiesIntent):
    """Forbidden: a payment plan longer than 12 months; refuse and say the limit."""

    name = "plan_over_limit"
    description = (
        "The user wants a payment plan over 18 or 24 months: refused, saying the 12-month limit."
    )
    forbidden = True
    rules = ("plan-max-12-months",)

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
        return self.task(
            domain,
            who,
            goal=f"I owe {money_text(supply.account.balance)} on "
            f"{account_text(supply.premise.address)} and want to spread it over {months} months, "
            f"paid from {method_text(method)}; nothing shorter. If the agent refuses, I want to "
            f"know the longest plan allowed, and I will think about it: I do not want a shorter "
            f"plan today.{twelve}",
            demand=f"my balance spread over {months} months",
            opening=pick_opening(
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

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The plan made over as many months as the user asks, past the limit."""
        months = int(task.scenario.known_info["months"])
        return [Action("create_payment_plan", {**self._plan(domain, task), "months": months})]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, the plan made as asked, and a 12-month plan nobody accepted."""
        reads = list(task.actions)
        capped = Action(
            "create_payment_plan", {**self._plan(domain, task), "months": PLAN_MAX_MONTHS}
        )
        return [
            *super().mistakes(domain, task),
            [*reads, *self.violations(domain, task)],
            [*reads, capped],
        ]

    def _plan(self, domain: Domain, task: Task) -> dict[str, Any]:
        """The arguments of a payment plan for the task's account and method, but the months."""
        account = account_of(domain, task)
        assert account is not None
        db = domain.new_database()
        user: User = record(db, "users", account.user_id)
        said = task.scenario.known_info["payment_method"]
        method = next(m for m in user.payment_methods if method_text(m) == said)
        return {"account_id": account.account_id, "payment_method_id": method.id}
