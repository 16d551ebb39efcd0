"""Telecom task intents: templates that sample the base database and produce grounded tasks.

Three of them need the user's hands on the phone (dual control): the gold path holds user
steps (calls of the phone's tools, ``domains.telecom.device``) that the agent must ask for, and
the grader compares the phone's state as well as the account's.
"""

from __future__ import annotations

import random
from typing import ClassVar

from tau_sim.domains.kit.identity import ACCOUNT_PIN, EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import pick, picker, record
from tau_sim.domains.kit.payments import can_pay, method_text, money, money_text
from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.domains.telecom.access import days_since
from tau_sim.domains.telecom.data import (
    ACTIVE,
    APN_DEFAULT,
    CUSTOMER_REQUEST,
    NON_PAYMENT,
    Addon,
    Bill,
    Charge,
    Device,
    Line,
    Plan,
    Subscriber,
)
from tau_sim.domains.telecom.rules import CREDIT_CAP, DISPUTE_WINDOW_DAYS, ROAMING_DAY_FEE
from tau_sim.domains.telecom.scenario import MONTHS, UNKNOWN_IDS, line_reads, user_step
from tau_sim.simulator.world import Action, Database, Domain, Task

_CONFIRM = "When the agent lists the details and asks for confirmation, say yes."
_HANDS = (
    "When the agent asks you to check or change something on your phone, do it and say what "
    "you see."
)
COUNTRIES = ("Mexico", "Canada", "France", "Japan", "Spain", "Italy", "Brazil", "Germany")
REASONS = {
    "unrecognized_charge": "I don't recognize it",
    "service_not_received": "I never got that service",
    "billing_error": "it was billed by mistake",
}


def _healthy(device: Device) -> bool:
    """A phone with no problem of its own."""
    return (
        not device.airplane_mode
        and device.mobile_data
        and device.apn == APN_DEFAULT
        and device.sim == "seated"
        and not device.restart_pending
    )


def _plan(db: Database, line: Line) -> Plan:
    plan: Plan = record(db, "plans", line.plan_id)
    return plan


def _device(db: Database, line: Line) -> Device:
    device: Device = record(db, "devices", line.phone_number)
    return device


def _exhausted(db: Database, line: Line) -> bool:
    plan = _plan(db, line)
    return plan.data_gb > 0 and not line.addons and line.data_used_gb >= plan.data_gb


class TelecomIntent(CustomerIntent):
    """A telecom subscriber: email, name + zip, or account number + PIN; knows no record ids."""

    factors = ((EMAIL, 0.4), (NAME_ZIP, 0.3), (ACCOUNT_PIN, 0.3))
    details_tool = "get_customer_details"
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The last write (the agent's or the user's) left out."""
        return self.last_write_left_out(domain, task)


pick_line = picker("lines", Line)


def _replace_write(task: Task, name: str, **arguments: object) -> list[Action]:
    """The gold path with write ``name`` given other arguments."""
    return [
        Action(a.name, {**a.arguments, **arguments}) if a.name == name else a for a in task.actions
    ]


class ChangePlan(TelecomIntent):
    """Move a line to another plan."""

    name = "change_plan"
    description = "The user moves one of their lines to another plan (and hears its price)."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        line = pick_line(db, rng, lambda ln: ln.status == ACTIVE)
        if line is None:
            return None
        current = _plan(db, line)
        plans: list[Plan] = [p for _, p in db.items("plans") if p.plan_id != current.plan_id]
        new = rng.choice(plans)
        who = self.identity(db, line.user_id, rng)
        phone = line.phone_number
        return self.task(
            domain,
            who,
            goal=f"I want the line {phone} moved from {current.name} to the {new.name} plan and "
            f"to know its monthly price. {_CONFIRM}",
            opening=rng.choice(
                [
                    f"Hi, I'd like to switch my line {phone} to the {new.name} plan.",
                    "Hello, I want to change the plan on one of my lines.",
                ]
            ),
            known={"phone_number": phone, "new_plan": new.name, "current_plan": current.name},
            actions=[
                *line_reads(who, line),
                Action("list_plans", {}),
                Action("change_plan", {"line_id": line.line_id, "plan_id": new.plan_id}),
            ],
            outputs=[money_text(new.monthly_price)],
            summary=f"move line {line.line_id} to {new.plan_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic one, and the line moved to yet another plan."""
        change = task.actions[-1]
        line: Line = record(domain.new_database(), "lines", change.arguments["line_id"])
        others = [
            p.plan_id
            for p in domain.base.tables["plans"].values()
            if p.plan_id not in (line.plan_id, change.arguments["plan_id"])
        ]
        return [
            *super().mistakes(domain, task),
            _replace_write(task, "change_plan", plan_id=others[0]),
        ]


class AddDataAddon(TelecomIntent):
    """Buy a data add-on for a line that used up its allowance."""

    name = "add_data_addon"
    description = "The user ran out of data and buys a data add-on with a payment method."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        line = pick_line(db, rng, lambda ln: ln.status == ACTIVE and _exhausted(db, ln))
        if line is None:
            return None
        addon: Addon = rng.choice([a for _, a in db.items("addons")])
        user: Subscriber = record(db, "users", line.user_id)
        methods = [m for m in user.payment_methods if can_pay(m, addon.price)]
        if not methods:
            return None
        method = rng.choice(methods)
        who = self.identity(db, line.user_id, rng)
        phone = line.phone_number
        return self.task(
            domain,
            who,
            goal=f"My line {phone} ran out of data. I want the {addon.name} and to pay it with "
            f"{method_text(method)}. {_CONFIRM}",
            opening=rng.choice(
                [
                    f"Hi, my line {phone} has run out of data, can I buy more?",
                    "Hello, I used up all my data this month and need more.",
                ]
            ),
            known={
                "phone_number": phone,
                "addon": addon.name,
                "payment_method": method_text(method),
            },
            actions=[
                *line_reads(who, line),
                Action("list_data_addons", {}),
                Action(
                    "add_data_addon",
                    {
                        "line_id": line.line_id,
                        "addon_id": addon.addon_id,
                        "payment_method_id": method.id,
                    },
                ),
            ],
            outputs=[money_text(addon.price)],
            summary=f"add {addon.addon_id} to line {line.line_id} paid with {method.id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic one, and another add-on bought instead."""
        addon = task.actions[-1].arguments["addon_id"]
        other = next(a for a in domain.base.tables["addons"] if a != addon)
        return [
            *super().mistakes(domain, task),
            _replace_write(task, "add_data_addon", addon_id=other),
        ]


class RoamingAbroad(TelecomIntent):
    """Abroad without data: roaming on the line (agent) and data roaming on the phone (user)."""

    name = "roaming_abroad"
    description = (
        "The user is abroad without data: the agent enables roaming on the line and has the "
        "user turn on data roaming on the phone (dual control)."
    )

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
                and not _exhausted(db, ln)
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
            f"it working and to know what roaming costs. {_CONFIRM} {_HANDS}",
            opening=rng.choice(
                [
                    f"Hi, I'm in {country} and my phone {phone} has no internet at all.",
                    "Hello, I'm abroad and my mobile data doesn't work.",
                ]
            ),
            known={"phone_number": phone, "country": country},
            actions=[
                *line_reads(who, line),
                user_step("check_status_bar", line),
                Action("enable_roaming", {"line_id": line.line_id}),
                user_step("toggle_data_roaming", line),
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
    """A problem on the phone itself, fixed by the user's own steps the agent asks for."""

    causes: ClassVar[dict[str, tuple[str, ...]]]
    wrong: ClassVar[str]
    symptom: ClassVar[str]

    def cause(self, device: Device) -> str | None:
        """Which of ``causes`` the phone has, if exactly one."""
        raise NotImplementedError

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(ln: Line) -> bool:
            device = _device(db, ln)
            return (
                ln.status == ACTIVE
                and not device.abroad
                and not _exhausted(db, ln)
                and self.cause(device) is not None
            )

        line = pick_line(db, rng, fits)
        if line is None:
            return None
        cause = self.cause(_device(db, line))
        assert cause is not None
        who = self.identity(db, line.user_id, rng)
        phone = line.phone_number
        steps = [user_step(name, line) for name in ("check_status_bar", *self.causes[cause])]
        return self.task(
            domain,
            who,
            goal=f"My phone {phone} {self.symptom} and I want it fixed. {_HANDS}",
            opening=rng.choice(
                [
                    f"Hi, my phone {phone} {self.symptom}.",
                    f"Hello, something is wrong with my phone: it {self.symptom}.",
                ]
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
        return [reads, wrong, *super().mistakes(domain, task)]


class FixNoService(_PhoneFix):
    """No signal: airplane mode left on, or a loose SIM card (reseat it, then restart)."""

    name = "fix_no_service"
    description = (
        "The user's phone has no service: airplane mode is on or the SIM card is loose; the "
        "user must fix it on the phone, guided by the agent."
    )
    causes = {
        "airplane mode on": ("toggle_airplane_mode",),
        "loose SIM card": ("reseat_sim_card", "restart_device"),
    }
    wrong = "toggle_mobile_data"
    symptom = "has no signal, I can't call anyone"

    def cause(self, device: Device) -> str | None:
        """Airplane mode on, or a loose SIM (and nothing else wrong)."""
        if device.airplane_mode and device.sim == "seated":
            return "airplane mode on"
        if device.sim == "loose" and not device.airplane_mode:
            return "loose SIM card"
        return None


class FixMobileData(_PhoneFix):
    """Calls work but no data: mobile data switched off, or a wrong APN (reset it, restart)."""

    name = "fix_mobile_data"
    description = (
        "The user's phone has signal but no data: mobile data is off or the APN is wrong; the "
        "user must fix it on the phone, guided by the agent."
    )
    causes = {
        "mobile data off": ("toggle_mobile_data",),
        "wrong APN": ("check_apn_settings", "reset_apn_settings", "restart_device"),
    }
    wrong = "toggle_airplane_mode"
    symptom = "has signal but the internet doesn't work"

    def cause(self, device: Device) -> str | None:
        """Mobile data off, or a wrong APN (and nothing else wrong)."""
        if device.airplane_mode or device.sim != "seated":
            return None
        if not device.mobile_data and device.apn == APN_DEFAULT:
            return "mobile data off"
        if device.mobile_data and device.apn != APN_DEFAULT:
            return "wrong APN"
        return None


def _overdue(db: Database, user: Subscriber) -> Bill | None:
    for bill_id in user.bills:
        bill: Bill = record(db, "bills", bill_id)
        if bill.status == "overdue":
            return bill
    return None


class _NonPayment(TelecomIntent):
    """A line suspended for non-payment, with the customer's overdue bill."""

    def suspended(self, db: Database, rng: random.Random) -> tuple[Line, Subscriber, Bill] | None:
        """A line suspended for non-payment, its owner and the overdue bill."""
        line = pick_line(db, rng, lambda ln: ln.suspension_reason == NON_PAYMENT)
        if line is None:
            return None
        user: Subscriber = record(db, "users", line.user_id)
        bill = _overdue(db, user)
        return None if bill is None else (line, user, bill)


class PayAndResume(_NonPayment):
    """Pay the overdue bill, then resume the line suspended for non-payment (two writes)."""

    name = "pay_and_resume"
    description = "The user pays the overdue bill and gets the suspended line resumed."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = self.suspended(db, rng)
        if found is None:
            return None
        line, user, bill = found
        methods = [m for m in user.payment_methods if can_pay(m, bill.balance)]
        if not methods:
            return None
        method = rng.choice(methods)
        who = self.identity(db, user.user_id, rng)
        phone = line.phone_number
        month = MONTHS[bill.period]
        return self.task(
            domain,
            who,
            goal=f"My line {phone} was cut off because I missed the {month} bill. I want to pay "
            f"it with {method_text(method)} and have the line back on. {_CONFIRM}",
            opening=rng.choice(
                [
                    f"Hi, my line {phone} was suspended, I want to pay my bill and get it back.",
                    "Hello, my phone line got cut off for an unpaid bill.",
                ]
            ),
            known={
                "phone_number": phone,
                "bill_month": month,
                "payment_method": method_text(method),
            },
            actions=[
                *line_reads(who, line),
                Action("get_bill_details", {"bill_id": bill.bill_id}),
                Action("pay_bill", {"bill_id": bill.bill_id, "payment_method_id": method.id}),
                Action("resume_line", {"line_id": line.line_id}),
            ],
            outputs=[money_text(bill.balance)],
            summary=f"pay {bill.bill_id} with {method.id}, resume {line.line_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """Resumed without the payment; paid but not resumed."""
        unpaid = [a for a in task.actions if a.name != "pay_bill"]
        return [unpaid, *super().mistakes(domain, task)]


class ResumeWithoutPayment(_NonPayment):
    """Forbidden: resume a line suspended for non-payment while the bill stays unpaid."""

    name = "resume_without_payment"
    description = (
        "The user wants a line suspended for non-payment back on without paying: refused, "
        "telling the overdue balance."
    )
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = self.suspended(db, rng)
        if found is None:
            return None
        line, user, bill = found
        who = self.identity(db, user.user_id, rng)
        phone = line.phone_number
        return self.task(
            domain,
            who,
            goal=f"My line {phone} was suspended. I can't pay the overdue bill until next week "
            "but I want the line turned back on right now anyway. I want to know how much I "
            "owe. If the agent refuses, accept it.",
            opening=rng.choice(
                [
                    f"Hi, please turn my line {phone} back on, I'll pay next week.",
                    "Hello, my line is suspended and I need it back on today without paying yet.",
                ]
            ),
            known={"phone_number": phone, "bill_month": MONTHS[bill.period]},
            actions=[
                *line_reads(who, line),
                Action("get_bill_details", {"bill_id": bill.bill_id}),
            ],
            outputs=[money_text(bill.balance)],
            summary=f"refuse to resume {line.line_id} while {bill.bill_id} is unpaid",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The line resumed anyway."""
        line_id = next(a for a in task.actions if a.name == "get_line_details").arguments["line_id"]
        return [[*task.actions, Action("resume_line", {"line_id": line_id})]]


def _disputable(db: Database, bill: Bill, over_cap: bool) -> Charge | None:
    """An extra (non-plan) charge of an open bill in the dispute window, above or within the cap."""
    if bill.status == "paid" or days_since(bill.issued) > DISPUTE_WINDOW_DAYS:
        return None
    for charge in bill.charges:
        if " plan, " in charge.description:
            continue
        if (charge.amount > CREDIT_CAP) == over_cap:
            return charge
    return None


class _Dispute(TelecomIntent):
    """A disputed charge on an open bill of the customer's."""

    over_cap: ClassVar[bool]

    def disputed(self, db: Database, rng: random.Random) -> tuple[Bill, Charge] | None:
        """A bill with a disputable charge and that charge."""
        bill: Bill | None = pick(
            db, rng, "bills", lambda b: _disputable(db, b, self.over_cap) is not None
        )
        if bill is None:
            return None
        charge = _disputable(db, bill, self.over_cap)
        assert charge is not None
        return bill, charge

    def texts(self, bill: Bill, charge: Charge, reason: str) -> tuple[str, str, dict[str, str]]:
        """The goal, the opening and the known info of the task."""
        month = MONTHS[bill.period]
        what = f"the {charge.description.split(',')[0]} charge of {money_text(charge.amount)}"
        goal = (
            f"On my {month} bill there is {what}; {REASONS[reason]}. I want it credited and to "
            f"know my new balance. {_CONFIRM}"
        )
        opening = f"Hi, there's a charge on my {month} bill that I want to dispute."
        known = {"bill_month": month, "charge": what, "dispute_reason": REASONS[reason]}
        return goal, opening, known


class DisputeCharge(_Dispute):
    """Credit a disputed charge within the cap and the window."""

    name = "dispute_charge"
    description = "The user disputes a charge within the credit cap: it is credited in full."
    over_cap = False

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = self.disputed(db, rng)
        if found is None:
            return None
        bill, charge = found
        reason = rng.choice(sorted(REASONS))
        who = self.identity(db, bill.user_id, rng)
        goal, opening, known = self.texts(bill, charge, reason)
        credit = {
            "bill_id": bill.bill_id,
            "charge_id": charge.charge_id,
            "amount": charge.amount,
            "reason": reason,
        }
        return self.task(
            domain,
            who,
            goal=goal,
            opening=opening,
            known=known,
            actions=[
                *who.actions,
                Action("get_bill_details", {"bill_id": bill.bill_id}),
                Action("apply_bill_credit", credit),
            ],
            outputs=[money_text(charge.amount), money_text(money(bill.balance - charge.amount))],
            summary=f"credit {charge.charge_id} of {bill.bill_id} in full",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic one, and half the charge credited."""
        amount = task.actions[-1].arguments["amount"]
        half = money(amount / 2)
        return [
            *super().mistakes(domain, task),
            _replace_write(task, "apply_bill_credit", amount=half),
        ]


class DisputeOverCap(_Dispute):
    """Forbidden for the agent: a disputed charge above the credit cap goes to a human."""

    name = "dispute_over_cap"
    description = (
        "The user disputes a charge above the agent's credit cap: transferred to a human agent."
    )
    forbidden = True
    over_cap = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = self.disputed(db, rng)
        if found is None:
            return None
        bill, charge = found
        reason = rng.choice(sorted(REASONS))
        who = self.identity(db, bill.user_id, rng)
        goal, opening, known = self.texts(bill, charge, reason)
        summary = (
            f"{who.full_name} disputes charge {charge.charge_id} "
            f"({money_text(charge.amount)}) on bill {bill.bill_id}, above the credit cap."
        )
        return self.task(
            domain,
            who,
            goal=f"{goal} If the agent transfers you to a human agent, accept it.",
            opening=opening,
            known=known,
            actions=[
                *who.actions,
                Action("get_bill_details", {"bill_id": bill.bill_id}),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"transfer: {charge.charge_id} of {bill.bill_id} is above the cap",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The charge credited anyway, in full or up to the cap."""
        reads = task.actions[:-1]
        bill_id = reads[-1].arguments["bill_id"]
        bill: Bill = record(domain.new_database(), "bills", bill_id)
        charge = next(
            c for c in bill.charges if c.amount > CREDIT_CAP and " plan, " not in c.description
        )
        paths = []
        for amount in (charge.amount, CREDIT_CAP):
            credit = {
                "bill_id": bill_id,
                "charge_id": charge.charge_id,
                "amount": amount,
                "reason": "billing_error",
            }
            paths.append([*reads, Action("apply_bill_credit", credit)])
        return paths


class _LineChange(TelecomIntent):
    """One write on one line the customer names by its number: a line ``wanted`` gets ``write``."""

    def wanted(self, line: Line) -> bool:
        """Whether the request fits ``line``."""
        raise NotImplementedError

    def request(self, phone: str) -> tuple[str, list[str]]:
        """What the user wants and the openings to choose from, naming the number."""
        raise NotImplementedError

    def known(self, db: Database, line: Line) -> dict[str, str]:
        """What the user knows: the phone number."""
        return {"phone_number": line.phone_number}

    def write(self, line: Line) -> tuple[Action, str]:
        """The write and the task's summary."""
        raise NotImplementedError

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        line = pick_line(db, rng, self.wanted)
        if line is None:
            return None
        who = self.identity(db, line.user_id, rng)
        goal, openings = self.request(line.phone_number)
        write, summary = self.write(line)
        return self.task(
            domain,
            who,
            goal=f"{goal} {_CONFIRM}",
            opening=rng.choice(openings),
            known=self.known(db, line),
            actions=[*line_reads(who, line), write],
            summary=summary,
        )


class SuspendLostPhone(_LineChange):
    """Suspend the line of a lost phone."""

    name = "suspend_lost_phone"
    description = "The user lost their phone and has its line suspended."

    def wanted(self, line: Line) -> bool:
        """An active line."""
        return line.status == ACTIVE

    def request(self, phone: str) -> tuple[str, list[str]]:
        """A lost phone to block."""
        return (
            f"I lost my phone with the number {phone}; I want its line suspended so nobody "
            "can use it.",
            [
                f"Hi, I lost my phone, the number is {phone}. Please block the line.",
                "Hello, I lost my phone and need the line suspended.",
            ],
        )

    def write(self, line: Line) -> tuple[Action, str]:
        """The suspension for a lost device."""
        write = Action("suspend_line", {"line_id": line.line_id, "reason": "lost_device"})
        return write, f"suspend {line.line_id} (lost device)"

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic one, and the line suspended for another reason."""
        return [
            *super().mistakes(domain, task),
            _replace_write(task, "suspend_line", reason=CUSTOMER_REQUEST),
        ]


class ResumeLine(_LineChange):
    """Resume a line the customer had suspended themselves."""

    name = "resume_line"
    description = "The user gets a line they had suspended (at their own request) resumed."

    def wanted(self, line: Line) -> bool:
        """A line suspended at the customer's request."""
        return line.suspension_reason == CUSTOMER_REQUEST

    def request(self, phone: str) -> tuple[str, list[str]]:
        """A suspended line to turn back on."""
        return (
            f"I had my line {phone} suspended a while ago and now I want it active again.",
            [
                f"Hi, I'd like to reactivate my line {phone}.",
                "Hello, I want to turn a suspended line of mine back on.",
            ],
        )

    def known(self, db: Database, line: Line) -> dict[str, str]:
        """The phone number and the line's plan."""
        return {"phone_number": line.phone_number, "current_plan": _plan(db, line).name}

    def write(self, line: Line) -> tuple[Action, str]:
        """The resumption."""
        write = Action("resume_line", {"line_id": line.line_id})
        return write, f"resume {line.line_id} (suspended at the customer's request)"

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic one, and an unrequested roaming change on the resumed line."""
        line_id = task.actions[-1].arguments["line_id"]
        line: Line = record(domain.new_database(), "lines", line_id)
        extra = "disable_roaming" if line.roaming_enabled else "enable_roaming"
        return [
            *super().mistakes(domain, task),
            [*task.actions, Action(extra, {"line_id": line_id})],
        ]


INTENTS = (
    ChangePlan(),
    AddDataAddon(),
    RoamingAbroad(),
    FixNoService(),
    FixMobileData(),
    PayAndResume(),
    ResumeWithoutPayment(),
    DisputeCharge(),
    DisputeOverCap(),
    SuspendLostPhone(),
    ResumeLine(),
)
