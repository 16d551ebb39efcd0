"""Telecom intents about bills: pay and resume, disputes of charges."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import can_pay, method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced
from tau_sim.domains.telecom.access import days_since
from tau_sim.domains.telecom.data import NON_PAYMENT, Bill, Charge, Line, Subscriber
from tau_sim.domains.telecom.factory.common import TelecomIntent, pick_line, replace_write
from tau_sim.domains.telecom.factory.troubleshoot import HANDS
from tau_sim.domains.telecom.rules import CREDIT_CAP, DISPUTE_WINDOW_DAYS
from tau_sim.domains.telecom.scenario import MONTHS, line_reads, user_step
from tau_sim.simulator.world import Action, Database, Domain, Task

REASONS = {
    "unrecognized_charge": "it is an unrecognized charge, I don't recognize it",
    "service_not_received": "service not received: I never got that service",
    "billing_error": "it is a billing error, it was billed by mistake",
}


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

    def suspended_caller(
        self, db: Database, rng: random.Random
    ) -> tuple[Line, Bill, Identity] | None:
        """A ``suspended`` line and its overdue bill, with the identity of the owner who calls."""
        found = self.suspended(db, rng)
        if found is None:
            return None
        line, user, bill = found
        return line, bill, self.identity(db, user.user_id, rng)


class PayAndResume(_NonPayment):
    """Pay the overdue bill, then resume the line suspended for non-payment (two writes)."""

    name = "pay_and_resume"

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
            f"it with {method_text(method)} and have the line back on. {CONFIRM} {HANDS}",
            opening=one_of(
                rng,
                f"Hi, my line {phone} was suspended, I want to pay my bill and get it back.",
                "Hello, my phone line got cut off for an unpaid bill.",
                f"I missed a payment and {phone} got cut off. Let me pay now.",
                "Hi, I'd like to settle my overdue bill so my line works again.",
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
                user_step("check_status_bar", line),
            ],
            outputs=[money_text(bill.balance)],
            summary=f"pay {bill.bill_id} with {method.id}, resume {line.line_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """Resumed without the payment; paid but not resumed."""
        unpaid = [a for a in task.actions if a.name != "pay_bill"]
        return [unpaid, *super().mistakes(domain, task)]


class ResumeWithoutPayment(Refuses, _NonPayment):
    """Forbidden: resume a line suspended for non-payment while the bill stays unpaid."""

    name = "resume_without_payment"
    forbidden = True
    rules = ("non-payment-no-resume",)
    own_mistakes = "none"

    def claim(self, phone: str, month: str) -> tuple[str, str, Sequence[str]]:
        """The user's goal, demand and openings: the line back on now, the bill paid next week."""
        goal = (
            f"My line {phone} was suspended. I can't pay the overdue bill until next week "
            "but I want the line turned back on right now anyway. I want to know how much I "
            "owe. If the agent refuses, accept it in the end."
        )
        openings = [
            f"Hi, please turn my line {phone} back on, I'll pay next week.",
            "Hello, my line is suspended and I need it back on today without paying yet.",
            f"I need {phone} working today; the bill can wait a few days.",
            "Hi, can you reconnect my line now? I'll pay once I get paid.",
        ]
        return goal, f"my line {phone} turned back on right now", openings

    def refusal(self, line: Line, bill: Bill) -> str:
        """The task's summary."""
        return f"refuse to resume {line.line_id} while {bill.bill_id} is unpaid"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task, in the words of ``claim``: the gold path reads the line and the bill."""
        found = self.suspended_caller(db, rng)
        if found is None:
            return None
        line, bill, who = found
        phone, month = line.phone_number, MONTHS[bill.period]
        goal, demand, openings = self.claim(phone, month)
        task = self.task(
            domain,
            who,
            goal=goal,
            demand=demand,
            opening=rng.choice(openings),
            known={"phone_number": phone, "bill_month": month},
            actions=[*line_reads(who, line), Action("get_bill_details", {"bill_id": bill.bill_id})],
            outputs=[money_text(bill.balance)],
            summary=self.refusal(line, bill),
        )
        # the line resumed although the bill is unpaid
        return refusing(task, Action("resume_line", {"line_id": line.line_id}))


def disputable(db: Database, bill: Bill, over_cap: bool) -> Charge | None:
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

    def disputed(
        self, db: Database, rng: random.Random
    ) -> tuple[Bill, Charge, str, Identity, tuple[str, str, dict[str, str]]] | None:
        """A bill with a disputable charge, that charge, a reason, the caller and the texts."""
        bill: Bill | None = pick(
            db, rng, "bills", lambda b: disputable(db, b, self.over_cap) is not None
        )
        if bill is None:
            return None
        charge = disputable(db, bill, self.over_cap)
        assert charge is not None
        reason = rng.choice(sorted(REASONS))
        who = self.identity(db, bill.user_id, rng)
        return bill, charge, reason, who, self.texts(bill, charge, reason, rng)

    @staticmethod
    def texts(
        bill: Bill, charge: Charge, reason: str, rng: random.Random
    ) -> tuple[str, str, dict[str, str]]:
        """The goal, an opening drawn by ``rng`` and the known info of the task."""
        month = MONTHS[bill.period]
        what = f"the {charge.description.split(',')[0]} charge of {money_text(charge.amount)}"
        goal = (
            f"On my {month} bill there is {what}; {REASONS[reason]}. I want it credited and to "
            f"know my new balance. {CONFIRM}"
        )
        opening = one_of(
            rng,
            f"Hi, there's a charge on my {month} bill that I want to dispute.",
            f"Hello, my {month} bill has a charge I shouldn't be paying.",
            "I want to contest something on my phone bill.",
            f"There's a charge on my bill for {month} that looks wrong to me.",
        )
        known = {"bill_month": month, "charge": what, "dispute_reason": REASONS[reason]}
        return goal, opening, known


class DisputeCharge(_Dispute):
    """Credit a disputed charge within the cap and the window."""

    name = "dispute_charge"
    over_cap = False

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = self.disputed(db, rng)
        if found is None:
            return None
        bill, charge, reason, who, (goal, opening, known) = found
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
            replace_write(task, "apply_bill_credit", amount=half),
        ]


class DisputeOverCap(Refuses, _Dispute):
    """Forbidden for the agent: a disputed charge above the credit cap goes to a human."""

    name = "dispute_over_cap"
    forbidden = True
    rules = ("credit-cap-transfer",)
    over_cap = True
    done_at = "instead"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = self.disputed(db, rng)
        if found is None:
            return None
        bill, charge, _reason, who, (goal, opening, known) = found
        summary = (
            f"{who.full_name} disputes charge {charge.charge_id} "
            f"({money_text(charge.amount)}) on bill {bill.bill_id}, above the credit cap."
        )
        task = self.task(
            domain,
            who,
            goal=f"{goal} If the agent transfers you to a human agent, accept it in the end.",
            demand=f"the {money_text(charge.amount)} charge credited",
            opening=opening,
            known=known,
            actions=[
                *who.actions,
                Action("get_bill_details", {"bill_id": bill.bill_id}),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"transfer: {charge.charge_id} of {bill.bill_id} is above the cap",
        )
        # the charge credited in full, as the user asks, instead of the transfer
        credit = {
            "bill_id": bill.bill_id,
            "charge_id": charge.charge_id,
            "amount": charge.amount,
            "reason": "billing_error",
        }
        return refusing(task, Action("apply_bill_credit", credit))

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The charge credited instead of the transfer: in full (``gave_in``) or to the cap."""
        capped = replaced(self.violations(domain, task)[0], amount=CREDIT_CAP)
        return [self.gave_in(domain, task), [*task.actions[:-1], capped]]
