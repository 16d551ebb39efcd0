"""Tokens and dollars per role (agent, user, judge), summed over stored conversations.

Each conversation row holds, per role, its prompt, completion and cached prompt tokens, its
dollars (NULL when no call of the role had a price) and how many calls of a real model had no
price (``unpriced``) and how many turns a scripted actor played (``simulated``: no model, no
tokens, no dollars); see ``simulator.store.usage.ROLE_FIELDS``. Sums keep "unpriced" apart from
"free": a role whose real calls had no price has cost None (never 0), one priced at 0 costs
0.0, a scripted one has no cost at all. ``pricing`` names which it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tau_sim.simulator.results.counting import condition_of, weight
from tau_sim.simulator.store import ROLE_FIELDS, ROLES

PRICINGS = ("priced", "free", "unpriced", "partly priced", "scripted", "no calls")
"""What a cost figure is: all calls priced, priced at 0, no call priced, some calls unpriced
(the dollars are a lower bound), played by scripted actors only, or the role made no call."""


def pricing(cost_usd: float | None, unpriced: int, simulated: int = 0) -> str:
    """Which ``PRICINGS`` entry a (cost, unpriced calls, scripted turns) triple is."""
    if cost_usd is None:
        return "unpriced" if unpriced else "scripted" if simulated else "no calls"
    if unpriced:
        return "partly priced"
    return "free" if cost_usd == 0 else "priced"


def role_totals(rows: Iterable[Mapping[str, Any]], role: str) -> dict[str, Any]:
    """One role's tokens, dollars, unpriced calls and pricing over ``rows``."""
    totals: dict[str, Any] = {name: 0 for name in ROLE_FIELDS}
    cost: float | None = None
    for row in rows:
        for name in ("tokens_in", "tokens_out", "tokens_cached", "unpriced", "simulated"):
            totals[name] += row.get(f"{role}_{name}") or 0
        value = row.get(f"{role}_cost_usd")
        if value is not None:
            cost = (cost or 0.0) + float(value)
    totals["cost_usd"] = None if cost is None else round(cost, 6)
    totals["pricing"] = pricing(totals["cost_usd"], totals["unpriced"], totals["simulated"])
    return totals


def cost_totals(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Every role's totals and their sum (``total``) over ``rows``.

    The total's dollars add up the roles' known dollars (None when no role has any).
    """
    roles = {role: role_totals(rows, role) for role in ROLES}
    known = [r["cost_usd"] for r in roles.values() if r["cost_usd"] is not None]
    unpriced = sum(r["unpriced"] for r in roles.values())
    simulated = sum(r["simulated"] for r in roles.values())
    total_cost = round(sum(known), 6) if known else None
    total = {
        "tokens_in": sum(r["tokens_in"] for r in roles.values()),
        "tokens_out": sum(r["tokens_out"] for r in roles.values()),
        "tokens_cached": sum(r["tokens_cached"] for r in roles.values()),
        "cost_usd": total_cost,
        "unpriced": unpriced,
        "simulated": simulated,
        "pricing": pricing(total_cost, unpriced, simulated),
    }
    return {**roles, "total": total, "conversations": sum(weight(r) for r in rows)}


def cost_report(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Tokens and dollars per role for the whole run, per agent and per condition."""
    by_agent: dict[str, list[Mapping[str, Any]]] = {}
    by_condition: dict[str, list[Mapping[str, Any]]] = {}
    done = [r for r in rows if r["status"] == "completed"]
    for r in done:
        by_agent.setdefault(str(r["agent"]), []).append(r)
        by_condition.setdefault(condition_of(r), []).append(r)
    return {
        "run": cost_totals(done),
        "by_agent": {k: cost_totals(v) for k, v in sorted(by_agent.items())},
        "by_condition": {k: cost_totals(v) for k, v in sorted(by_condition.items())},
    }
