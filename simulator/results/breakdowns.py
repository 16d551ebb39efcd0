"""The report's cost and failure tables (rich; every name from the store escaped)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from tau_sim.simulator.results.terminal import cell
from tau_sim.simulator.store import ROLES


def _dollars(figures: dict[str, Any]) -> str:
    cost, kind = figures["cost_usd"], str(figures["pricing"])
    if kind == "no calls":
        return "-"
    if kind in ("unpriced", "scripted"):
        return kind
    text = f"${cost:.4f}"
    return f"{text} + unpriced" if kind == "partly priced" else f"{text} ({kind})"


def render_costs(report: dict[str, Any], console: Console) -> None:
    """Tokens (in / out / cached) and dollars per role: the run, then per agent and condition.

    Scripted actors make no model call: no tokens, and ``scripted`` instead of a cost; a real
    model without a price reads ``unpriced``, never $0. A run that made no model call at all
    gets one line instead of a table of zeros.
    """
    cost = report["cost"]
    if cost["run"]["total"]["pricing"] in ("scripted", "no calls"):
        console.print(
            "tokens and cost: no model calls (every agent, user and judge was scripted or typed)",
            markup=False,
        )
        return
    table = Table(title="tokens and cost per role (in / out / cached)")
    table.add_column("scope")
    for role in (*ROLES, "total"):
        table.add_column(role, justify="right")
    scopes = [("run", cost["run"])]
    scopes += [(f"agent {k}", v) for k, v in cost["by_agent"].items()]
    scopes += [(k, v) for k, v in cost["by_condition"].items()]
    for name, figures in scopes:
        cells = [
            f"{f['tokens_in']} / {f['tokens_out']} / {f['tokens_cached']}\n{_dollars(f)}"
            for f in (figures[role] for role in (*ROLES, "total"))
        ]
        table.add_row(cell(name), *cells)
    console.print(table)


def render_failures(report: dict[str, Any], console: Console) -> None:
    """Failure reasons: counts per agent and per condition (rows), one column per reason."""
    failures = report["failures"]
    reasons = list(failures["reasons"])
    if not failures["failed"]:
        console.print("no failed conversations", markup=False)
        return
    table = Table(title=f"why {failures['failed']} conversations failed")
    table.add_column("scope")
    for reason in reasons:
        table.add_column(cell(reason), justify="right")
    scopes = [(f"agent {k}", v) for k, v in failures["by_agent"].items()]
    scopes += list(failures["by_condition"].items())
    scopes.append(("all", failures["reasons"]))
    for name, counts in scopes:
        table.add_row(cell(name), *(str(counts.get(reason, 0)) for reason in reasons))
    console.print(table)
    if failures["unexplained"]:
        console.print(
            f"{failures['unexplained']} failed conversations have no stored reason (stored "
            "before failure reasons existed: `tau-sim rescore RUN_ID --write` adds them)",
            markup=False,
        )
