"""The telecom intents' base class and the line, plan and phone helpers they share."""

from __future__ import annotations

from tau_sim.domains.kit.identity import ACCOUNT_PIN, EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.payments import PaymentMethod, method_text
from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.domains.telecom.data import Addon, Line, Plan
from tau_sim.domains.telecom.scenario import UNKNOWN_IDS
from tau_sim.simulator.world import Action, Database, Domain, Task


def plan_of(db: Database, line: Line) -> Plan:
    """The plan ``line`` is on."""
    plan: Plan = record(db, "plans", line.plan_id)
    return plan


def exhausted(db: Database, line: Line) -> bool:
    """Whether ``line`` used up its plan's data allowance and has no add-on."""
    plan = plan_of(db, line)
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


def replace_write(task: Task, name: str, **arguments: object) -> list[Action]:
    """The gold path with write ``name`` given other arguments."""
    return [
        Action(a.name, {**a.arguments, **arguments}) if a.name == name else a for a in task.actions
    ]


def addon_purchase(line: Line, addon: Addon, method: PaymentMethod) -> list[Action]:
    """The gold purchase of ``addon`` for ``line``: the add-on list read, then the add-on paid."""
    return [
        Action("list_data_addons", {}),
        Action(
            "add_data_addon",
            {
                "line_id": line.line_id,
                "addon_id": addon.addon_id,
                "payment_method_id": method.id,
            },
        ),
    ]


def addon_known(phone: str, addon: Addon, method: PaymentMethod) -> dict[str, str]:
    """What the user who buys ``addon`` for ``phone`` with ``method`` knows."""
    return {"phone_number": phone, "addon": addon.name, "payment_method": method_text(method)}
