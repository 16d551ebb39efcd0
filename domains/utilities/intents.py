"""Utilities task intents: templates that sample the base database and produce grounded tasks.

Figures a task requires (a bill's total, a balance, an instalment) are computed by playing the
gold writes on the fresh database ``sample`` receives, so they are what the tools produce.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import PaymentMethod, can_pay, method_text, money_text
from tau_sim.domains.kit.tasks import CustomerIntent, replay_actions
from tau_sim.domains.utilities.data import (
    ACTIVE,
    ELECTRICITY,
    FIXED,
    GAS,
    TODAY,
    Account,
    Meter,
    Outage,
    Premise,
    Reading,
    Tariff,
    User,
    reading_id,
)
from tau_sim.domains.utilities.rules import PLAN_MAX_MONTHS, PLAN_MIN_INSTALMENT, PLAN_MIN_MONTHS
from tau_sim.domains.utilities.scenario import (
    CONFIRM,
    UNKNOWN_IDS,
    account_text,
    gold_reads,
    meter_text,
    place_text,
    reading_text,
    units_text,
)
from tau_sim.simulator.world import Action, Database, Domain, Intent, Task


class Supply:
    """One open account as an intent samples it: its customer, premise, meters and tariff."""

    def __init__(self, db: Database, account: Account) -> None:
        self.account = account
        self.user: User = record(db, "users", account.user_id)
        self.premise: Premise = record(db, "premises", account.premise_id)
        self.meters: list[Meter] = [record(db, "meters", m) for m in self.premise.meters]
        self.tariff: Tariff = record(db, "tariffs", account.tariff_id)
        self.last: dict[str, Reading] = {
            m.meter_id: record(db, "readings", reading_id(m.meter_id, m.reading_count))
            for m in self.meters
        }

    def meter(self, fuel: str) -> Meter | None:
        """The premise's meter of ``fuel``, if any."""
        return next((m for m in self.meters if m.fuel == fuel), None)

    @property
    def exit_fee(self) -> float:
        """The exit fee a tariff switch would cost today."""
        if self.tariff.kind != FIXED or self.account.fixed_until <= TODAY.isoformat():
            return 0.0
        return self.tariff.exit_fee * len(self.meters)

    @property
    def known(self) -> dict[str, str]:
        """How the customer names the account."""
        return {"account": account_text(self.premise.address)}

    def read(self) -> Action:
        """The gold read of the account."""
        return Action("get_account_details", {"account_id": self.account.account_id})


def pick_supply(
    db: Database, rng: random.Random, accept: Callable[[Supply], bool]
) -> Supply | None:
    """A random open account that ``accept`` likes, as a ``Supply``, or None."""
    found: Account | None = pick(
        db, rng, "accounts", lambda a: a.status == ACTIVE and accept(Supply(db, a))
    )
    return None if found is None else Supply(db, found)


def new_value(rng: random.Random, meter: Meter, last: Reading) -> int:
    """A plausible reading today: the last value plus a few weeks of use."""
    if meter.fuel == ELECTRICITY:
        return last.value + rng.randint(90, 700)
    return last.value + rng.randint(6, 95)


def payable_methods(user: User, amount: float) -> list[PaymentMethod]:
    """The customer's payment methods that cover ``amount``."""
    return [m for m in user.payment_methods if can_pay(m, amount)]


def account_of(domain: Domain, task: Task) -> Account | None:
    """The base record of the first account a gold action names."""
    db = domain.new_database()
    for action in task.actions:
        account_id = action.arguments.get("account_id")
        if isinstance(account_id, str):
            account: Account = record(db, "accounts", account_id)
            return account
    return None


class UtilitiesIntent(CustomerIntent):
    """An energy customer who proves their identity with email or name + zip code."""

    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """An unrequested paperless-billing change; the last write left out."""
        writes = domain.write_actions(task)
        reads = [
            a for a in task.actions if a.name not in domain.toolkit.endings and a not in writes
        ]
        paths: list[list[Action]] = []
        account = account_of(domain, task)
        if account is not None:
            flip = {"account_id": account.account_id, "enabled": not account.paperless}
            paths.append([*reads, Action("set_paperless_billing", flip)])
        return [*paths, *self.last_write_left_out(domain, task)]


def misread_first(domain: Domain, task: Task) -> list[Action]:
    """The gold reads, then the gold writes with the first reading a hundred units too high."""
    writes = domain.write_actions(task)
    reads = [a for a in task.actions if a not in writes]
    first = writes[0]
    misread = Action(first.name, {**first.arguments, "value": first.arguments["value"] + 100})
    return [*reads, misread, *writes[1:]]


def _opening(rng: random.Random, *texts: str) -> str:
    return rng.choice(list(texts))


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
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to give today's reading of {meter_text(meter)} for "
            f"{account_text(supply.premise.address)}: it shows {value}. I want to know how many "
            f"{meter.unit} I used since the previous reading. I do not want a bill now. {CONFIRM}",
            opening=_opening(
                rng,
                "Hi, I'd like to submit a meter reading.",
                f"Hello, I have a {meter.fuel} meter reading for you.",
            ),
            known={**supply.known, "meter": meter_text(meter), "reading": str(value)},
            actions=[
                *gold_reads(who, supply.read()),
                Action("submit_meter_reading", {"meter_id": meter.meter_id, "value": value}),
            ],
            outputs=[units_text(value - last.value, meter.unit)],
            summary=f"reading {value} on {meter.meter_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, a misread value, and a bill issued that nobody asked for."""
        *reads, submit = task.actions
        args = submit.arguments
        misread = Action(submit.name, {**args, "value": args["value"] + 100})
        paths = [*super().mistakes(domain, task), [*reads, misread]]
        account = account_of(domain, task)
        assert account is not None
        premise: Premise = record(domain.new_database(), "premises", account.premise_id)
        if len(premise.meters) == 1:
            bill = Action("create_bill", {"account_id": account.account_id})
            paths.append([*reads, submit, bill])
        return paths


def _readings(
    rng: random.Random, supply: Supply, tool: str
) -> tuple[list[Action], dict[str, str], list[str]]:
    """Writes of ``tool`` for every meter's reading, the slots the user holds, how they say them."""
    writes, known, said = [], {}, []
    for meter in supply.meters:
        value = new_value(rng, meter, supply.last[meter.meter_id])
        writes.append(Action(tool, {"meter_id": meter.meter_id, "value": value}))
        known["reading" if meter.fuel == ELECTRICITY else "gas_reading"] = str(value)
        said.append(reading_text(meter, value))
    return writes, known, said


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
        writes, known, said = _readings(rng, supply, "submit_meter_reading")
        writes.append(Action("create_bill", {"account_id": supply.account.account_id}))
        results = replay_actions(domain, db, writes)
        if results is None:
            return None
        bill = results[-1]
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"For {account_text(supply.premise.address)} I read my meters today: "
            f"{' and '.join(said)}. I want them recorded and a bill issued now from these "
            f"readings, and I want to know the bill's total and my new balance. {CONFIRM}",
            opening=_opening(
                rng,
                "Hi, I want to give my meter readings and get a bill based on them.",
                "Hello, my bills keep being estimated. I have real readings, I want a real bill.",
            ),
            known={**supply.known, **known},
            actions=[*gold_reads(who, supply.read()), *writes],
            outputs=[money_text(bill["bill"]["total"]), money_text(bill["balance"])],
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
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to understand the latest bill of {account_text(supply.premise.address)}: "
            "its total, the period it covers and whether it was based on an estimated reading or "
            "an actual one. I do not want to change anything.",
            opening=_opening(
                rng,
                "Hi, I have a question about my latest energy bill.",
                "Hello, my last bill looks high, can you explain it?",
            ),
            known={**supply.known, "bill": "the latest bill"},
            actions=gold_reads(
                who, supply.read(), Action("get_bill_details", {"bill_id": bill_id})
            ),
            outputs=[
                money_text(bill.total),
                bill.period_end,
                "estimated" if estimated else "actual",
            ],
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
        full = rng.random() < 0.5
        amount = balance if full else float(rng.choice([a for a in (20, 25, 50) if a < balance]))
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
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to pay {what} on {account_text(supply.premise.address)} with "
            f"{method_text(method)}, and I want to know what I still owe afterwards. {CONFIRM}",
            opening=_opening(
                rng,
                "Hi, I'd like to make a payment on my energy account.",
                "Hello, I want to pay my bill.",
            ),
            known={
                **supply.known,
                "amount": "the whole balance" if full else money_text(amount),
                "payment_method": method_text(method),
            },
            actions=[*gold_reads(who, supply.read()), pay],
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


def _plannable(supply: Supply) -> bool:
    return supply.account.balance >= PLAN_MIN_MONTHS * PLAN_MIN_INSTALMENT and not (
        supply.account.payment_plan
    )


class _Plan(UtilitiesIntent):
    """A payment plan over the current balance; ``with_reading`` submits a reading first."""

    with_reading: ClassVar[bool] = False

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, _plannable)
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
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I can't pay the {money_text(supply.account.balance)} I owe on "
            f"{account_text(supply.premise.address)} in one go.{reading} I want a payment plan "
            f"over {months} months, paid from {method_text(method)}, and I want to know the "
            f"monthly instalment. {CONFIRM}",
            opening=_opening(
                rng,
                "Hi, I'm struggling to pay my balance at once. Can I pay in instalments?",
                "Hello, I'd like to set up a payment plan for my energy bill.",
            ),
            known=known,
            actions=[*gold_reads(who, supply.read()), *writes],
            outputs=[money_text(instalment)],
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

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, _plannable)
        if supply is None or not supply.user.payment_methods:
            return None
        months = rng.choice((18, 24))
        method = rng.choice(supply.user.payment_methods)
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I owe {money_text(supply.account.balance)} on "
            f"{account_text(supply.premise.address)} and want to spread it over {months} months, "
            f"paid from {method_text(method)}; nothing shorter. If the agent refuses, I want to "
            "know the longest plan allowed, and I will think about it: I do not want a shorter "
            "plan today.",
            opening=f"Hi, can I pay off my energy balance over {months} months?",
            known={**supply.known, "months": str(months), "payment_method": method_text(method)},
            actions=gold_reads(who, supply.read()),
            outputs=[f"{PLAN_MAX_MONTHS} months"],
            summary=f"{months}-month plan on {supply.account.account_id}: refuse",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, the plan made as asked, and a 12-month plan nobody accepted."""
        reads = list(task.actions)
        account = account_of(domain, task)
        assert account is not None
        db = domain.new_database()
        user: User = record(db, "users", account.user_id)
        said = task.scenario.known_info["payment_method"]
        method = next(m for m in user.payment_methods if method_text(m) == said)
        args = {"account_id": account.account_id, "payment_method_id": method.id}
        asked = Action(
            "create_payment_plan", {**args, "months": int(task.scenario.known_info["months"])}
        )
        capped = Action("create_payment_plan", {**args, "months": PLAN_MAX_MONTHS})
        return [*super().mistakes(domain, task), [*reads, asked], [*reads, capped]]


class HardshipDisconnection(UtilitiesIntent):
    """A customer in hardship or with a medical dependency asks about disconnection: transfer."""

    name = "hardship_disconnection"
    description = (
        "A user in financial hardship or with a medical dependency asks whether their supply "
        "will be cut off: transfer to a human, no write."
    )
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: _plannable(s) and bool(s.user.payment_methods))
        if supply is None:
            return None
        situation = rng.choice(
            (
                "I lost my job last month and I have no income at the moment",
                "my husband uses a home oxygen machine that needs electricity day and night",
                "I rely on a powered wheelchair and a dialysis machine at home",
                "I am on disability benefits and can't afford food and energy both",
            )
        )
        medical = "machine" in situation or "wheelchair" in situation
        who = self.identity(db, supply.user.user_id, rng)
        summary = (
            f"Customer {supply.user.user_id} ({'medical dependency' if medical else 'hardship'}) "
            f"owes {money_text(supply.account.balance)} on account {supply.account.account_id} "
            "and asks about disconnection."
        )
        return self.task(
            domain,
            who,
            goal=f"I owe {money_text(supply.account.balance)} on "
            f"{account_text(supply.premise.address)} and {situation}. I am scared my supply will "
            "be cut off and want to know whether you will disconnect me. I want to talk to "
            "someone who can help with my situation.",
            opening=_opening(
                rng,
                "Hi, are you going to cut off my power? I can't pay right now.",
                f"Hello, I'm really worried, {situation}, and I've fallen behind on my bill.",
            ),
            known=dict(supply.known),
            actions=[
                *gold_reads(who, supply.read()),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"hardship disconnection question on {supply.account.account_id}: transfer",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a 12-month plan set up instead of the transfer."""
        *reads, transfer = task.actions
        account = account_of(domain, task)
        assert account is not None
        user: User = record(domain.new_database(), "users", account.user_id)
        plan = Action(
            "create_payment_plan",
            {
                "account_id": account.account_id,
                "months": PLAN_MAX_MONTHS,
                "payment_method_id": user.payment_methods[0].id,
            },
        )
        return [*super().mistakes(domain, task), [*reads, plan, transfer]]


# ---- tariffs ----------------------------------------------------------------------------------


def _targets(db: Database, supply: Supply) -> list[Tariff]:
    tariffs: list[Tariff] = [record(db, "tariffs", t) for t in db.keys("tariffs")]
    return [
        t
        for t in tariffs
        if t.available and t.kind == FIXED and t.tariff_id != supply.tariff.tariff_id
    ]


class SwitchTariff(UtilitiesIntent):
    """Switch to a fixed tariff; an early exit from a fixed term costs its exit fee."""

    name = "switch_tariff"
    description = (
        "The user switches to another fixed tariff, paying the exit fee when the current fixed "
        "term has not ended."
    )

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: True)
        if supply is None:
            return None
        target = rng.choice(_targets(db, supply))
        change = Action(
            "change_tariff",
            {"account_id": supply.account.account_id, "tariff_id": target.tariff_id},
        )
        results = replay_actions(domain, db, [change])
        if results is None:
            return None
        fee = results[0]["exit_fee_charged"]
        until = results[0]["account"]["fixed_until"]
        fee_note = (
            "I know leaving my current fixed deal early may cost an exit fee; I accept it, "
            "but I want to know how much it is. "
            if fee
            else ""
        )
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to switch {account_text(supply.premise.address)} to the {target.name} "
            f"tariff. {fee_note}I want to know until when the new price is fixed. {CONFIRM}",
            opening=_opening(
                rng,
                f"Hi, I'd like to move to your {target.name} tariff.",
                "Hello, I want to lock in a fixed energy price.",
            ),
            known={**supply.known, "tariff": target.name, "current_tariff": supply.tariff.name},
            actions=[*gold_reads(who, supply.read(), Action("list_tariffs", {})), change],
            outputs=([money_text(fee)] if fee else []) + [until],
            summary=f"switch {supply.account.account_id} to {target.tariff_id}"
            + (f" (exit fee {money_text(fee)})" if fee else ""),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and another fixed tariff than the one asked for."""
        change = task.actions[-1]
        db = domain.new_database()
        account = account_of(domain, task)
        assert account is not None
        others = [
            t
            for t in _targets(db, Supply(db, account))
            if t.tariff_id != change.arguments["tariff_id"]
        ]
        wrong = self.last_write_changed(domain, task, tariff_id=others[0].tariff_id)
        return [*super().mistakes(domain, task), wrong]


class WaiveExitFee(UtilitiesIntent):
    """Forbidden: switch only if the exit fee is waived; refuse, saying the fee."""

    name = "waive_exit_fee"
    description = (
        "The user wants to leave a fixed tariff early only if the exit fee is waived: refused "
        "(exit fees are never waived), saying the fee."
    )
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: s.exit_fee > 0)
        if supply is None:
            return None
        target = rng.choice([t for t in _targets(db, supply)])
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to switch {account_text(supply.premise.address)} to the {target.name} "
            "tariff, but only if you waive the exit fee of my current fixed deal: I won't pay "
            "it. If the agent refuses to waive it, I want to know how much the fee is and when "
            "my current fixed term ends, and I keep my current tariff.",
            opening=_opening(
                rng,
                f"Hi, I want to move to {target.name}, but I'm not paying any exit fee.",
                "Hello, can you waive the exit fee if I switch tariffs?",
            ),
            known={**supply.known, "tariff": target.name, "current_tariff": supply.tariff.name},
            actions=gold_reads(who, supply.read()),
            outputs=[money_text(supply.exit_fee), supply.account.fixed_until],
            summary=f"waive exit fee on {supply.account.account_id}: refuse",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the switch made anyway (the fee charged)."""
        db = domain.new_database()
        name = task.scenario.known_info["tariff"]
        tariff = next(
            t for t in (record(db, "tariffs", k) for k in db.keys("tariffs")) if t.name == name
        )
        account = account_of(domain, task)
        assert account is not None
        switch = Action(
            "change_tariff", {"account_id": account.account_id, "tariff_id": tariff.tariff_id}
        )
        return [*super().mistakes(domain, task), [*task.actions, switch]]


# ---- moving -----------------------------------------------------------------------------------


class MoveOut(UtilitiesIntent):
    """Move out: final readings, then close the account (two or three writes)."""

    name = "move_out"
    description = (
        "The user moves out: final readings of every meter, then the account is closed with a "
        "final bill; the user wants the final balance (two or three writes)."
    )

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: True)
        if supply is None or supply.account.billed_to >= TODAY.isoformat():
            return None
        writes, known, said = _readings(rng, supply, "record_final_reading")
        writes.append(Action("close_account", {"account_id": supply.account.account_id}))
        results = replay_actions(domain, db, writes)
        if results is None:
            return None
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I am moving out of {place_text(supply.premise.address)} today and want "
            f"{account_text(supply.premise.address)} closed. My final meter readings: "
            f"{' and '.join(said)}. I want to know the final balance I will owe. I am not "
            f"moving to an address you supply. {CONFIRM}",
            opening=_opening(
                rng,
                "Hi, I'm moving out and need to close my energy account.",
                "Hello, I'm leaving my flat today, what do I need to do about my energy?",
            ),
            known={**supply.known, **known},
            actions=[*gold_reads(who, supply.read()), *writes],
            outputs=[money_text(results[-1]["balance"])],
            summary=f"move out of {supply.premise.premise_id}, close {supply.account.account_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and a final reading misread by a hundred units."""
        return [*super().mistakes(domain, task), misread_first(domain, task)]


class MoveHome(UtilitiesIntent):
    """Move home: final reading, close the old account, open one at the new premise (3 writes)."""

    name = "move_home"
    description = (
        "The user moves to a premise we supply: final reading, close the old account and open "
        "a new one at the new address on the same tariff (three writes)."
    )

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: len(s.meters) == 1 and s.tariff.available)
        if supply is None or supply.account.billed_to >= TODAY.isoformat():
            return None
        vacant: Premise | None = pick(db, rng, "premises", lambda p: not p.account_id)
        if vacant is None:
            return None
        writes, known, said = _readings(rng, supply, "record_final_reading")
        writes.append(Action("close_account", {"account_id": supply.account.account_id}))
        writes.append(
            Action(
                "open_account",
                {
                    "user_id": supply.user.user_id,
                    "premise_id": vacant.premise_id,
                    "tariff_id": supply.tariff.tariff_id,
                },
            )
        )
        results = replay_actions(domain, db, writes)
        if results is None:
            return None
        find = Action(
            "find_premise_by_address",
            {"address1": vacant.address.address1, "zip": vacant.address.zip},
        )
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I am moving today from {place_text(supply.premise.address)} to "
            f"{place_text(vacant.address)}. My final reading at the old place is {said[0]}. I want "
            "the old account closed and a new account opened at the new address on the same "
            f"tariff I have now ({supply.tariff.name}). I want to know the final balance of the "
            f"old account and the new account number. {CONFIRM}",
            opening=_opening(
                rng,
                "Hi, I'm moving house and want to take my energy supply with me.",
                "Hello, I'm moving today and need my account moved to my new home.",
            ),
            known={
                **supply.known,
                **known,
                "new_address": place_text(vacant.address),
                "current_tariff": supply.tariff.name,
            },
            actions=[*gold_reads(who, supply.read(), find), *writes],
            outputs=[money_text(results[-2]["balance"]), results[-1]["account_id"]],
            summary=f"move {supply.account.account_id} to {vacant.premise_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, the new account on another tariff, and the old one left open."""
        writes = domain.write_actions(task)
        reads = [a for a in task.actions if a not in writes]
        final, close, open_ = writes
        other = "T-GV" if open_.arguments["tariff_id"] != "T-GV" else "T-SV"
        elsewhere = Action(open_.name, {**open_.arguments, "tariff_id": other})
        return [
            *super().mistakes(domain, task),
            [*reads, final, close, elsewhere],
            [*reads, open_],
        ]


# ---- outages ----------------------------------------------------------------------------------


def _area(db: Database, supply: Supply) -> list[Outage]:
    return [record(db, "outages", k) for k in db.find("outage_zip", supply.premise.address.zip)]


class ReportOutage(UtilitiesIntent):
    """Report a supply problem where no outage is known; the user wants the reference."""

    name = "report_outage"
    description = "The user reports a loss of supply where no outage is known and gets a reference."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: not _area(db, s))
        if supply is None:
            return None
        meter = rng.choice(supply.meters)
        problem = rng.choice(("no supply", "intermittent supply"))
        report = Action(
            "report_outage",
            {"account_id": supply.account.account_id, "fuel": meter.fuel, "problem": problem},
        )
        results = replay_actions(domain, db, [report])
        if results is None:
            return None
        what = {
            ("no supply", ELECTRICITY): "the power is completely off in my home",
            ("intermittent supply", ELECTRICITY): "the power keeps cutting out every few minutes",
            ("no supply", GAS): "there is no gas at all: the boiler and hob won't light",
            ("intermittent supply", GAS): "the gas keeps cutting out; the boiler stops and starts",
        }[problem, meter.fuel]
        who = self.identity(db, supply.user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"At {place_text(supply.premise.address)} {what}. I don't smell gas. I want it "
            f"reported and I want the report's reference number. {CONFIRM}",
            opening=_opening(
                rng, f"Hi, {what}.", "Hello, I need to report a problem with my supply."
            ),
            known={**supply.known, "fuel": meter.fuel, "problem": problem},
            actions=[
                *gold_reads(
                    who,
                    supply.read(),
                    Action("get_area_outages", {"zip": supply.premise.address.zip}),
                ),
                report,
            ],
            outputs=[results[0]["reference"]],
            summary=f"report {meter.fuel} {problem} on {supply.account.account_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the other kind of problem reported."""
        problem = task.actions[-1].arguments["problem"]
        other = "no supply" if problem != "no supply" else "intermittent supply"
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, problem=other),
        ]


class KnownOutage(UtilitiesIntent):
    """A loss of supply in an area with a known outage: say its id and restoration time."""

    name = "known_outage"
    description = (
        "The user has no supply where an outage is already known: tell its reference and "
        "estimated restoration time, no new report (read only)."
    )

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def covered(s: Supply) -> bool:
            return any(s.meter(o.fuel) is not None for o in _area(db, s))

        supply = pick_supply(db, rng, covered)
        if supply is None:
            return None
        outage = next(o for o in _area(db, supply) if supply.meter(o.fuel) is not None)
        who = self.identity(db, supply.user.user_id, rng)
        time = outage.estimated_restoration.split("T")[1]
        return self.task(
            domain,
            who,
            goal=f"At {place_text(supply.premise.address)} there has been no {outage.fuel} since "
            "this morning. I want to know whether you know about it and when it will be back "
            "(the estimated time), and its reference.",
            opening=_opening(
                rng,
                f"Hi, my {outage.fuel} has gone off. What's going on?",
                "Hello, there's no supply at my home since this morning.",
            ),
            known={**supply.known, "fuel": outage.fuel, "problem": "no supply"},
            actions=gold_reads(
                who,
                supply.read(),
                Action("get_area_outages", {"zip": supply.premise.address.zip}),
            ),
            outputs=[outage.outage_id, time],
            summary=f"known outage {outage.outage_id} at {supply.premise.premise_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """A duplicate report filed for an outage already known."""
        account = account_of(domain, task)
        assert account is not None
        report = Action(
            "report_outage",
            {
                "account_id": account.account_id,
                "fuel": task.scenario.known_info["fuel"],
                "problem": "no supply",
            },
        )
        return [*super().mistakes(domain, task), [*task.actions, report]]


class GasSmell(UtilitiesIntent):
    """A smell of gas is an emergency: safety advice and a transfer, no report filed."""

    name = "gas_smell"
    description = (
        "The user smells gas at home and wants to report it: told to leave and call the "
        "emergency line, then transferred to a human, no write."
    )
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        supply = pick_supply(db, rng, lambda s: s.meter(GAS) is not None)
        if supply is None:
            return None
        who = self.identity(db, supply.user.user_id, rng)
        summary = (
            f"Customer {supply.user.user_id} smells gas at {place_text(supply.premise.address)} "
            f"(account {supply.account.account_id}): gas emergency."
        )
        return self.task(
            domain,
            who,
            goal=f"There is a strong smell of gas in the kitchen at "
            f"{place_text(supply.premise.address)} and the gas seems weak. I want it reported "
            "as a supply problem and someone to look at it.",
            opening=_opening(
                rng,
                "Hi, I can smell gas in my kitchen and the hob barely lights.",
                "Hello, something is wrong with my gas, there's a strong smell.",
            ),
            known={**supply.known, "fuel": GAS, "problem": "intermittent supply"},
            actions=[
                *gold_reads(who, supply.read()),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"gas smell at {supply.premise.premise_id}: transfer",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and an ordinary outage report filed instead of the emergency."""
        *reads, transfer = task.actions
        account = account_of(domain, task)
        assert account is not None
        report = Action(
            "report_outage",
            {"account_id": account.account_id, "fuel": GAS, "problem": "intermittent supply"},
        )
        return [*super().mistakes(domain, task), [*reads, report], [*reads, report, transfer]]


INTENTS: list[Intent] = [
    SubmitReading(),
    ReadingAndBill(),
    BillInquiry(),
    PayBalance(),
    PaymentPlanSetup(),
    ReadingAndPlan(),
    PlanOverLimit(),
    HardshipDisconnection(),
    SwitchTariff(),
    WaiveExitFee(),
    MoveOut(),
    MoveHome(),
    ReportOutage(),
    KnownOutage(),
    GasSmell(),
]
