"""The report's tables of what pressure does: forbidden writes on refusal tasks, users' tags.

``render_violations`` prints the policy-violation rate per agent, user model and condition
(over refusal tasks only, with its interval) and its emotion effect (condition minus neutral,
paired by task); ``render_tags`` the tags the users gave the agents' turns, per agent and
condition (the friction kinds of ``PERCEPTION_TAGS``; ``report --json`` has every kind). Stored
names are escaped (``terminal.cell``); a calibration agent's figures carry the report's note.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from tau_sim.simulator.core.escapes import visible
from tau_sim.simulator.results.report import effect_table
from tau_sim.simulator.results.tags import PERCEPTION_TAGS
from tau_sim.simulator.results.terminal import cell, figure_text, interval_text

_FIELDS = ("agent", "user", "emotion", "intensity", "politeness", "urgency", "trust")


def _shown(rows: list[dict[str, Any]]) -> list[str]:
    """The condition fields worth a column: agent and emotion, and those that vary."""
    return [f for f in _FIELDS if f in ("agent", "emotion") or len({r[f] for r in rows}) > 1]


def _label(row: dict[str, Any], field: str) -> str:
    if field == "intensity" and row["emotion"] == "neutral":
        return "-"
    return cell(str(row[field]))


def render_violations(report: dict[str, Any], console: Console) -> None:
    """The policy-violation rate on refusal tasks, and its effect, when the run has them."""
    section = report.get("policy_violations")
    if not section:
        return
    if section["note"]:
        console.print(visible(f"policy violations: {section['note']}"), markup=False)
        return
    rows = section["rows"]
    shown = _shown(rows)
    title = (
        f"policy violations: forbidden writes on the {section['refusal_tasks']} refusal tasks "
        "played (a write the policy forbids that the user asks for)"
    )
    table = Table(title=title)
    for column in (*shown, "n", "tasks"):
        table.add_column(column)
    table.add_column("violations", justify="right")
    table.add_column("rate", justify="right")
    for row in rows:
        span = interval_text(row["ci"], pct=True)
        rate = figure_text(row["rate"], pct=True)
        table.add_row(
            *(_label(row, f) for f in shown),
            str(row["n"]),
            str(row["tasks"]),
            str(row["violations"]),
            f"{rate}\n[dim]{span}[/dim]" if span else rate,
        )
    console.print(table)
    effect = section["effect"]
    if effect is not None and effect["note"]:
        console.print(visible(f"policy-violation effect: {effect['note']}"), markup=False)
    elif effect is not None:
        _render_effect(effect["rows"], console)
    _calibration_note(report, {r["agent"] for r in rows}, console)


def _render_effect(rows: list[dict[str, Any]], console: Console) -> None:
    title = "policy-violation effect: rate minus neutral (same agent, user, refusal tasks)"
    console.print(effect_table(rows, _shown(rows), title, _label))


def render_tags(report: dict[str, Any], console: Console) -> None:
    """The friction tags the users gave the agents' turns, per agent and condition."""
    rows = report.get("user_tags") or []
    kinds = [k for k in PERCEPTION_TAGS if any(r["tags"].get(k) for r in rows)]
    if not rows:
        return
    if not kinds:
        console.print("user tags: the users tagged no turn with friction", markup=False)
        return
    shown = _shown(rows)
    table = Table(title="user tags: what the users perceived (tags per condition)")
    for column in (*shown, "turns"):
        table.add_column(column)
    for kind in kinds:
        table.add_column(kind.replace("_", " "), justify="right")
    for row in rows:
        table.add_row(
            *(_label(row, f) for f in shown),
            str(row["updates"]),
            *(str(row["tags"].get(kind, 0)) for kind in kinds),
        )
    console.print(table)
    _calibration_note(report, {r["agent"] for r in rows}, console)


def _calibration_note(report: dict[str, Any], agents: set[str], console: Console) -> None:
    """The report's note on calibration agents, for those among ``agents``."""
    scripted = [a for a in report.get("calibration_agents", []) if a in agents]
    if scripted:
        console.print(
            f"note: {visible(', '.join(scripted))} read each task's answer key: their figures "
            "above calibrate the harness and are not benchmark results",
            markup=False,
        )
