"""Utilities intents about readings, bills and payments: submit, bill, explain, pay."""

from __future__ import annotations

import random

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.chains import Chain, last_write, less
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import PaymentMethod, can_pay, method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.domains.utilities.data import ELECTRICITY, GAS, TODAY, Premise, User
from tau_sim.domains.utilities.factory.common import (
    UtilitiesIntent,
    account_of,
    billed_now,
    misread_first,
    new_value,
    payment,
    pick_supply,
)
from tau_sim.domains.utilities.scenario import account_text, gold_reads, meter_text, units_text
from tau_sim.simulator.world import Action, Database, Domain, Task


def payable_methods(user: User, amount: float) -> list[PaymentMethod]:
    """The customer's payment methods that cover ``amount``."""
    return [m for m in user.payment_methods if can_pay(m, amount)]


# ---- readings and bills -----------------------------------------------------------------------


class SubmitReading(UtilitiesIntent):
    """Submit one meter reading and hear how much was used since the last one."""

    name = "submit_reading"

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
            opening=one_of(
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

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: s.account.billed_to < TODAY.isoformat())
        if supply is None:
            return None
        billed = billed_now(domain, db, rng, supply)
        if billed is None:
            return None
        writes, known, said, bill = billed
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
            opening=one_of(
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
            opening=one_of(
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


# ---- payments ---------------------------------------------------------------------------------


class PayBalance(Chain, UtilitiesIntent):
    """Pay all or part of the balance with a payment method."""

    name = "pay_balance"
    slips = (last_write(less(10.0)),)  # ten dollars less than asked

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
        paid = payment(domain, db, rng, supply, amount, methods)
        if paid is None:
            return None
        method, pay, left = paid
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
            opening=one_of(
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
            outputs=[money_text(left)],
            summary=f"pay {money_text(amount)} on {supply.account.account_id} with {method.id}",
        )
