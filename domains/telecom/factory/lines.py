"""Telecom intents about a line: its plan, a data add-on, suspension and resumption."""

from __future__ import annotations

import random

from tau_sim.domains.kit.factory.base import one_of
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import can_pay, method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.domains.telecom.data import ACTIVE, CUSTOMER_REQUEST, Addon, Line, Plan, Subscriber
from tau_sim.domains.telecom.factory.common import (
    TelecomIntent,
    addon_known,
    addon_purchase,
    exhausted,
    pick_line,
    plan_of,
    replace_write,
)
from tau_sim.domains.telecom.factory.troubleshoot import HANDS
from tau_sim.domains.telecom.scenario import line_reads, user_step
from tau_sim.simulator.world import Action, Database, Domain, Task


class ChangePlan(TelecomIntent):
    """Move a line to another plan."""

    name = "change_plan"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        line = pick_line(db, rng, lambda ln: ln.status == ACTIVE)
        if line is None:
            return None
        current = plan_of(db, line)
        plans: list[Plan] = [p for _, p in db.items("plans") if p.plan_id != current.plan_id]
        new = rng.choice(plans)
        who = self.identity(db, line.user_id, rng)
        phone = line.phone_number
        compare = rng.random() < 0.5
        high, low = sorted((new.monthly_price, current.monthly_price), reverse=True)
        difference = [Action("calculate", {"expression": f"{high:.2f} - {low:.2f}"})]
        asked = " and how much the monthly price differs from my current plan" if compare else ""
        return self.task(
            domain,
            who,
            goal=f"I want the line {phone} moved from {current.name} to the {new.name} plan and "
            f"to know its monthly price{asked}. {CONFIRM}",
            opening=one_of(
                rng,
                f"Hi, I'd like to switch my line {phone} to the {new.name} plan.",
                "Hello, I want to change the plan on one of my lines.",
                f"Can you move {phone} onto {new.name}?",
                "Hi, I think I'm on the wrong plan and want to switch.",
            ),
            known={"phone_number": phone, "new_plan": new.name, "current_plan": current.name},
            actions=[
                *line_reads(who, line),
                Action("list_plans", {}),
                *(difference if compare else []),
                Action("change_plan", {"line_id": line.line_id, "plan_id": new.plan_id}),
            ],
            outputs=[
                money_text(new.monthly_price),
                *([money_text(money(high - low))] if compare else []),
            ],
            summary=f"move line {line.line_id} to {new.plan_id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic one, and the line moved to yet another plan."""
        change = domain.write_actions(task)[-1]
        line: Line = record(domain.new_database(), "lines", change.arguments["line_id"])
        others = [
            p.plan_id
            for p in domain.base.tables["plans"].values()
            if p.plan_id not in (line.plan_id, change.arguments["plan_id"])
        ]
        return [
            *super().mistakes(domain, task),
            replace_write(task, "change_plan", plan_id=others[0]),
        ]


class AddDataAddon(TelecomIntent):
    """Buy a data add-on for a line that used up its allowance."""

    name = "add_data_addon"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        line = pick_line(db, rng, lambda ln: ln.status == ACTIVE and exhausted(db, ln))
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
            f"{method_text(method)}. {CONFIRM} {HANDS}",
            opening=one_of(
                rng,
                f"Hi, my line {phone} has run out of data, can I buy more?",
                "Hello, I used up all my data this month and need more.",
                f"My data ran out on {phone}. I'd like an add-on.",
                "Hi, I need extra data for this month, I've hit my limit.",
            ),
            known=addon_known(phone, addon, method),
            actions=[
                *line_reads(who, line),
                *addon_purchase(line, addon, method),
                user_step("run_speed_test", line),
            ],
            outputs=[money_text(addon.price)],
            summary=f"add {addon.addon_id} to line {line.line_id} paid with {method.id}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic one, and another add-on bought instead."""
        addon = domain.write_actions(task)[-1].arguments["addon_id"]
        other = next(a for a in domain.base.tables["addons"] if a != addon)
        return [
            *super().mistakes(domain, task),
            replace_write(task, "add_data_addon", addon_id=other),
        ]


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

    def after(self, line: Line) -> list[Action]:
        """The user steps that re-check the phone after the write (none by default)."""
        return []

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
            goal=f"{goal} {CONFIRM}" + (f" {HANDS}" if self.after(line) else ""),
            opening=rng.choice(openings),
            known=self.known(db, line),
            actions=[*line_reads(who, line), write, *self.after(line)],
            summary=summary,
        )


class SuspendLostPhone(_LineChange):
    """Suspend the line of a lost phone."""

    name = "suspend_lost_phone"

    def wanted(self, line: Line) -> bool:
        """An active line."""
        return line.status == ACTIVE

    def request(self, phone: str) -> tuple[str, list[str]]:
        """A lost phone to block."""
        return (
            f"I lost my phone with the number {phone}; I want its line suspended so nobody "
            "can use it.",
            [
                f"Hi, I lost my phone, the number is {phone}. Please block the line: it's a "
                "lost device.",
                "Hello, I lost my phone and need the line suspended as a lost device.",
                f"My phone {phone} is gone, I think it was stolen. Block it please.",
                "Hi, I can't find my phone anywhere, can you suspend its line?",
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
            replace_write(task, "suspend_line", reason=CUSTOMER_REQUEST),
        ]


class ResumeLine(_LineChange):
    """Resume a line the customer had suspended themselves."""

    name = "resume_line"

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
                f"I paused my line {phone} a while back; please switch it on again.",
                "Hi, I'm back from a long trip and want my suspended line working.",
            ],
        )

    def known(self, db: Database, line: Line) -> dict[str, str]:
        """The phone number and the line's plan."""
        return {"phone_number": line.phone_number, "current_plan": plan_of(db, line).name}

    def write(self, line: Line) -> tuple[Action, str]:
        """The resumption."""
        write = Action("resume_line", {"line_id": line.line_id})
        return write, f"resume {line.line_id} (suspended at the customer's request)"

    def after(self, line: Line) -> list[Action]:
        """The status bar read once the line is back."""
        return [user_step("check_status_bar", line)]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic one, and an unrequested roaming change on the resumed line."""
        line_id = domain.write_actions(task)[-1].arguments["line_id"]
        line: Line = record(domain.new_database(), "lines", line_id)
        extra = "disable_roaming" if line.roaming_enabled else "enable_roaming"
        return [
            *super().mistakes(domain, task),
            [*task.actions, Action(extra, {"line_id": line_id})],
        ]
