"""Typed record access and the views the telecom tools return."""

from __future__ import annotations

from typing import Any

from tau_sim.domains.kit.calc import days_from
from tau_sim.domains.kit.lookup import loader
from tau_sim.domains.kit.payments import money
from tau_sim.domains.telecom.data import (
    SUSPENDED,
    TODAY,
    Addon,
    Bill,
    Device,
    Line,
    Plan,
    Subscriber,
)
from tau_sim.domains.telecom.rules import DISPUTE_WINDOW_DAYS
from tau_sim.simulator.world import Database, ToolError

load_user = loader("users", "user", Subscriber)
load_line = loader("lines", "line", Line)
load_plan = loader("plans", "plan", Plan)
load_addon = loader("addons", "add-on", Addon)
load_bill = loader("bills", "bill", Bill)


def load_device(db: Database, phone_number: str) -> Device:
    """The phone with number ``phone_number`` (``ToolError`` when unknown)."""
    device = db.get("devices", phone_number.strip())
    if device is None:
        raise ToolError(f"no phone with number {phone_number!r}")
    assert isinstance(device, Device)
    return device


def require_active(line: Line) -> None:
    """Refuse a change to a suspended line."""
    if line.status == SUSPENDED:
        raise ToolError(f"line {line.line_id} is suspended")


def data_limit(db: Database, line: Line) -> float:
    """The line's data allowance this cycle in GB (plan plus add-ons; 0: unlimited)."""
    plan = load_plan(db, line.plan_id)
    if plan.data_gb == 0:
        return 0.0
    return float(plan.data_gb + sum(load_addon(db, a).data_gb for a in line.addons))


def line_view(db: Database, line: Line) -> dict[str, Any]:
    """A line as the agent sees it: the record plus its plan and the data left this cycle."""
    plan = load_plan(db, line.plan_id)
    limit = data_limit(db, line)
    return {
        "line_id": line.line_id,
        "user_id": line.user_id,
        "phone_number": line.phone_number,
        "status": line.status,
        "suspension_reason": line.suspension_reason or None,
        "plan_id": plan.plan_id,
        "plan_name": plan.name,
        "monthly_price": plan.monthly_price,
        "roaming_included": plan.roaming_included,
        "roaming_enabled": line.roaming_enabled,
        "data_used_gb": line.data_used_gb,
        "data_limit_gb": limit or "unlimited",
        "data_left_gb": money(max(limit - line.data_used_gb, 0.0)) if limit else "unlimited",
        "addons": list(line.addons),
    }


def bill_view(bill: Bill) -> dict[str, Any]:
    """A bill as the agent sees it: the record plus its total and the balance still owed."""
    return {
        "bill_id": bill.bill_id,
        "user_id": bill.user_id,
        "period": bill.period,
        "issued": bill.issued,
        "due": bill.due,
        "status": bill.status,
        "charges": [
            {"charge_id": c.charge_id, "description": c.description, "amount": c.amount}
            for c in bill.charges
        ],
        "credits": [
            {"charge_id": c.charge_id, "amount": c.amount, "reason": c.reason} for c in bill.credits
        ],
        "total": bill.total,
        "paid": bill.paid,
        "balance": bill.balance,
    }


def days_since(day: str) -> int:
    """Days from ``day`` (ISO date) to the world's today."""
    return days_from(day, TODAY)


def require_dispute_window(bill: Bill) -> None:
    """Refuse a credit on a bill issued more than ``DISPUTE_WINDOW_DAYS`` days ago."""
    age = days_since(bill.issued)
    if age > DISPUTE_WINDOW_DAYS:
        raise ToolError(
            f"bill {bill.bill_id} was issued {age} days ago; charges can be disputed for "
            f"{DISPUTE_WINDOW_DAYS} days"
        )
