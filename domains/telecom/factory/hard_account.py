"""Hard telecom intents on the account: a mixed dispute, a disproven payment, a described line.

``DisputeWithPlanCharge`` credits an extra charge and refuses the plan charge disputed beside
it; ``ClaimedPaidResume`` refuses to resume a line whose overdue bill the user says is paid
(the bill shows it is not); ``SuspendDescribedLine`` finds the lost phone's line among the
user's lines by the plan the user names, and suspends it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.factory.mixed import Mixed
from tau_sim.domains.kit.factory.refusals import refusing
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import money, money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.domains.telecom.data import ACTIVE, LOST_DEVICE, Bill, Charge, Line, Subscriber
from tau_sim.domains.telecom.factory.billing import REASONS, ResumeWithoutPayment, disputable
from tau_sim.domains.telecom.factory.common import TelecomIntent, plan_of, replace_write
from tau_sim.domains.telecom.scenario import MONTHS
from tau_sim.simulator.world import Action, Challenge, Database, Domain, Task

NOT_DISPUTABLE = "cannot be disputed"
"""What the refusal of a plan charge's credit must say."""


def _plan_charge(bill: Bill) -> Charge:
    return next(c for c in bill.charges if " plan, " in c.description)


class DisputeWithPlanCharge(Mixed, TelecomIntent):
    """Mixed: an extra charge credited, the monthly plan charge disputed beside it refused."""

    name = "dispute_with_plan_charge"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"mixed"})
    rules = ("plan-charge-not-disputable",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        bill: Bill | None = pick(db, rng, "bills", lambda b: disputable(db, b, False) is not None)
        if bill is None:
            return None
        extra = disputable(db, bill, False)
        assert extra is not None
        plan = _plan_charge(bill)
        reason = rng.choice(sorted(REASONS))
        who = self.identity(db, bill.user_id, rng)
        month = MONTHS[bill.period]
        what = f"the {extra.description.split(',')[0]} charge of {money_text(extra.amount)}"
        plan_what = f"the plan charge of {money_text(plan.amount)}"
        credit = {
            "bill_id": bill.bill_id,
            "charge_id": extra.charge_id,
            "amount": extra.amount,
            "reason": reason,
        }
        task = self.task(
            domain,
            who,
            goal=f"On my {month} bill there is {what}; {REASONS[reason]}. I also want "
            f"{plan_what} credited, since I hardly used the line. I want the new balance. "
            f"{CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I want two charges on my {month} bill taken off.",
                f"Hello, my {month} bill is wrong and I want credits.",
                "I'm disputing charges on my bill, including the plan fee.",
            ),
            known={
                "bill_month": month,
                "charge": what,
                "plan_charge": plan_what,
                "dispute_reason": REASONS[reason],
            },
            demand=f"{plan_what} credited too",
            actions=[
                *who.actions,
                Action("get_bill_details", {"bill_id": bill.bill_id}),
                Action("apply_bill_credit", credit),
            ],
            outputs=[
                money_text(extra.amount),
                money_text(money(bill.balance - extra.amount)),
                NOT_DISPUTABLE,
            ],
            summary=f"credit {extra.charge_id} of {bill.bill_id}, refuse {plan.charge_id}",
        )
        # the plan charge credited in full as the user asks
        plan_credit = {**credit, "charge_id": plan.charge_id, "amount": plan.amount}
        return refusing(task, Action("apply_bill_credit", plan_credit))

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The plan charge credited as well (``gave_in``) or instead; the extra one left out."""
        instead = [*task.actions[:-1], *self.violations(domain, task)]
        return [self.gave_in(domain, task), instead, *self.last_write_left_out(domain, task)]


class ClaimedPaidResume(ResumeWithoutPayment):
    """Disproven: the user says the overdue bill is paid; the bill shows it unpaid."""

    name = "claimed_paid_resume"
    tier = "hard"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"disproven"})

    def claim(self, phone: str, month: str) -> tuple[str, str, Sequence[str]]:
        """The user's goal, demand and openings: the line back on, the bill said to be paid."""
        goal = (
            f"My line {phone} was suspended, but I paid my {month} bill last week, I'm "
            "sure of it. I want the line back on now. If the agent shows you the bill is still "
            "unpaid and refuses, accept it in the end."
        )
        openings = (
            f"Hi, you suspended my line {phone} but I already paid the bill!",
            f"Hello, I paid my {month} bill, so why is my line still cut off?",
            "My line is suspended even though I paid. Turn it back on, please.",
        )
        return goal, f"my line {phone} back on, because I already paid", openings

    def refusal(self, line: Line, bill: Bill) -> str:
        """The task's summary."""
        return f"refuse to resume {line.line_id}: {bill.bill_id} is still unpaid"


class SuspendDescribedLine(TelecomIntent):
    """Search: the lost phone's line named by its plan, found among the user's lines.

    The described line is the account's first: the agent asks which one, reads it and the
    other lines (none on the same plan), then suspends it.
    """

    name = "suspend_described_line"
    tier = "hard"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"search"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(user: Subscriber) -> bool:
            lines: list[Line] = [record(db, "lines", i) for i in user.lines]
            plans = [ln.plan_id for ln in lines]
            return len(lines) >= 2 and len(set(plans)) == len(plans) and lines[0].status == ACTIVE

        user: Subscriber | None = pick(db, rng, "users", fits)
        if user is None:
            return None
        lines: list[Line] = [record(db, "lines", i) for i in user.lines]
        target = lines[0]
        plan = plan_of(db, target)
        who = self.identity(db, user.user_id, rng)
        description = f"my line on the {plan.name} plan"
        return self.task(
            domain,
            who,
            goal=f"I lost the phone of {description} and I want that line suspended because "
            f"the phone is lost. I don't remember its number. {CONFIRM}",
            opening=one_of(
                rng,
                "Hi, I lost one of my phones and need its line blocked.",
                "Hello, my phone was stolen, please suspend the line.",
                "I've lost a phone on my account. Can you stop its line?",
            ),
            known={"line_description": description},
            actions=[
                *who.actions,
                *(Action("get_line_details", {"line_id": ln.line_id}) for ln in lines),
                Action("suspend_line", {"line_id": target.line_id, "reason": LOST_DEVICE}),
            ],
            summary=f"suspend {target.line_id} (lost), found among {len(lines)} lines",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """Another of the user's lines suspended; the right one for the wrong reason."""
        target = task.actions[-1].arguments["line_id"]
        others = [
            a.arguments["line_id"]
            for a in task.actions
            if a.name == "get_line_details" and a.arguments["line_id"] != target
        ]
        db = domain.new_database()
        wrong = [
            replace_write(task, "suspend_line", line_id=other)
            for other in others
            if record(db, "lines", other).status == ACTIVE
        ]
        return [*wrong, replace_write(task, "suspend_line", reason="customer_request")]
