"""The telecom tools the agent calls; each enforces the hard rules of the policy.

The agent cannot see or change the user's phone: those are the user's own tools
(``tau_sim.domains.telecom.device``).
"""

# ruff: noqa: D417  (``db`` is supplied by the toolkit, not by the model: it is not documented)

from __future__ import annotations

from typing import Any, Literal

import msgspec

from tau_sim.domains.kit import identity
from tau_sim.domains.kit import tools as kit_tools
from tau_sim.domains.kit.payments import money, owned_method, settle
from tau_sim.domains.telecom.access import (
    bill_view,
    line_view,
    load_addon,
    load_bill,
    load_line,
    load_plan,
    load_user,
    require_active,
    require_dispute_window,
)
from tau_sim.domains.telecom.data import ACTIVE, SUSPENDED, Credit
from tau_sim.simulator.world import Database, ToolError, ToolKind, tool

# ---- read tools -------------------------------------------------------------------------------

find_user_id_by_email = identity.find_user_id_by_email
find_user_id_by_name_zip = identity.find_user_id_by_name_zip
find_user_id_by_account = identity.find_user_id_by_account


get_customer_details = kit_tools.profile_tool(
    "get_customer_details",
    "Get a customer's profile: name, address, email, payment methods, line ids and bill ids.",
    load_user,
)


@tool(ToolKind.READ)
def get_line_details(db: Database, line_id: str) -> dict[str, Any]:
    """Get a line: phone number, status, plan and price, roaming, data used and left this cycle.

    Args:
        line_id: The line id, e.g. "L123456".
    """
    return line_view(db, load_line(db, line_id))


@tool(ToolKind.READ)
def list_plans(db: Database) -> list[Any]:
    """List every plan with its monthly price, data allowance (0: unlimited) and roaming."""
    return [plan for _, plan in db.items("plans")]


@tool(ToolKind.READ)
def list_data_addons(db: Database) -> list[Any]:
    """List the one-off data add-ons for the current billing cycle, with their prices."""
    return [addon for _, addon in db.items("addons")]


@tool(ToolKind.READ)
def get_bill_details(db: Database, bill_id: str) -> dict[str, Any]:
    """Get a bill: period, issue and due dates, status, charges, credits, total and balance.

    Args:
        bill_id: The bill id, e.g. "B12345678".
    """
    return bill_view(load_bill(db, bill_id))


calculate = kit_tools.calculate

# ---- write tools ------------------------------------------------------------------------------


@tool(ToolKind.WRITE)
def change_plan(db: Database, line_id: str, plan_id: str) -> dict[str, Any]:
    """Move an active line to another plan, from today.

    Args:
        line_id: The line id, e.g. "L123456".
        plan_id: The new plan's id, e.g. "plus_15gb" (see list_plans).
    """
    line = load_line(db, line_id)
    require_active(line)
    plan = load_plan(db, plan_id)
    if plan.plan_id == line.plan_id:
        raise ToolError(f"line {line_id} is already on plan {plan_id}")
    roaming = line.roaming_enabled or plan.roaming_included
    changed = msgspec.structs.replace(line, plan_id=plan.plan_id, roaming_enabled=roaming)
    db.put("lines", line_id, changed)
    return line_view(db, changed)


@tool(ToolKind.WRITE)
def add_data_addon(db: Database, line_id: str, addon_id: str, payment_method_id: str) -> str:
    """Buy a one-off data add-on for an active line on a plan with a data allowance.

    Args:
        line_id: The line id, e.g. "L123456".
        addon_id: The add-on id, e.g. "data_5gb" (see list_data_addons).
        payment_method_id: The customer's payment method that pays for it, e.g.
            "credit_card_1234567".
    """
    line = load_line(db, line_id)
    require_active(line)
    if load_plan(db, line.plan_id).data_gb == 0:
        raise ToolError(f"line {line_id} has unlimited data; add-ons are not sold for it")
    addon = load_addon(db, addon_id)
    user = load_user(db, line.user_id)
    method = owned_method(user, payment_method_id)
    settle(db, user, method, addon.price)
    db.put("lines", line_id, msgspec.structs.replace(line, addons=(*line.addons, addon_id)))
    return f"{addon.name} added to line {line_id}; ${addon.price:.2f} charged to {method.id}"


@tool(ToolKind.WRITE)
def enable_roaming(db: Database, line_id: str) -> str:
    """Enable international roaming on an active line.

    Args:
        line_id: The line id, e.g. "L123456".
    """
    line = load_line(db, line_id)
    require_active(line)
    if line.roaming_enabled:
        raise ToolError(f"roaming is already enabled on line {line_id}")
    db.put("lines", line_id, msgspec.structs.replace(line, roaming_enabled=True))
    return f"roaming enabled on line {line_id}"


@tool(ToolKind.WRITE)
def disable_roaming(db: Database, line_id: str) -> str:
    """Disable international roaming on a line.

    Args:
        line_id: The line id, e.g. "L123456".
    """
    line = load_line(db, line_id)
    if not line.roaming_enabled:
        raise ToolError(f"roaming is not enabled on line {line_id}")
    db.put("lines", line_id, msgspec.structs.replace(line, roaming_enabled=False))
    return f"roaming disabled on line {line_id}"


@tool(ToolKind.WRITE)
def suspend_line(
    db: Database, line_id: str, reason: Literal["customer_request", "lost_device"]
) -> str:
    """Suspend an active line at the customer's request or because the phone was lost.

    Args:
        line_id: The line id, e.g. "L123456".
        reason: "customer_request" or "lost_device".
    """
    line = load_line(db, line_id)
    require_active(line)
    db.put(
        "lines",
        line_id,
        msgspec.structs.replace(line, status=SUSPENDED, suspension_reason=reason),
    )
    return f"line {line_id} suspended ({reason})"


@tool(ToolKind.WRITE)
def resume_line(db: Database, line_id: str) -> str:
    """Resume a suspended line.

    Args:
        line_id: The line id, e.g. "L123456".
    """
    line = load_line(db, line_id)
    if line.status != SUSPENDED:
        raise ToolError(f"line {line_id} is not suspended")
    db.put("lines", line_id, msgspec.structs.replace(line, status=ACTIVE, suspension_reason=""))
    return f"line {line_id} resumed"


@tool(ToolKind.WRITE)
def pay_bill(db: Database, bill_id: str, payment_method_id: str) -> dict[str, Any]:
    """Pay the whole balance of a bill with one of the customer's payment methods.

    Args:
        bill_id: The bill id, e.g. "B12345678".
        payment_method_id: The customer's payment method, e.g. "paypal_1234567".
    """
    bill = load_bill(db, bill_id)
    amount = bill.balance
    if amount <= 0:
        raise ToolError(f"bill {bill_id} has nothing left to pay")
    user = load_user(db, bill.user_id)
    method = owned_method(user, payment_method_id)
    settle(db, user, method, amount)
    paid = msgspec.structs.replace(
        bill, paid=money(bill.paid + amount), status="paid", payment_method_id=method.id
    )
    db.put("bills", bill_id, paid)
    return bill_view(paid)


@tool(ToolKind.WRITE)
def apply_bill_credit(
    db: Database,
    bill_id: str,
    charge_id: str,
    amount: float,
    reason: Literal["unrecognized_charge", "service_not_received", "billing_error"],
) -> dict[str, Any]:
    """Credit a disputed charge of a bill (once per charge, within the dispute window).

    Args:
        bill_id: The bill id, e.g. "B12345678".
        charge_id: The disputed charge's id on that bill, e.g. "C1234567".
        amount: The credit in dollars: more than 0, at most the charge's amount.
        reason: "unrecognized_charge", "service_not_received" or "billing_error".
    """
    bill = load_bill(db, bill_id)
    require_dispute_window(bill)
    charge = bill.charge(charge_id)
    if charge is None:
        raise ToolError(f"bill {bill_id} has no charge {charge_id!r}")
    if any(c.charge_id == charge_id for c in bill.credits):
        raise ToolError(f"charge {charge_id} has already been credited")
    amount = money(amount)
    if amount <= 0 or amount > charge.amount:
        raise ToolError(
            f"a credit must be more than $0 and at most the charge's ${charge.amount:.2f}"
        )
    credited = msgspec.structs.replace(
        bill, credits=(*bill.credits, Credit(charge_id, amount, reason))
    )
    db.put("bills", bill_id, credited)
    return bill_view(credited)


transfer_to_human_agents = kit_tools.transfer_to_human_agents
