"""The table of ``tau-sim domains stats``: one row per domain, the figures of ``TaskStats``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.table import Table

from tau_sim.simulator.results.terminal import cell, figure_text, stdout_console
from tau_sim.simulator.world.taskstats import MANY_WRITES, TaskStats


def _count(value: int | None) -> str:
    return "-" if value is None else str(value)


def _rules(s: TaskStats) -> str:
    if s.refusal_rules is None or s.rules_total is None:
        return "-"
    return f"{s.refusal_rules}/{s.rules_total}"


COLUMNS: tuple[tuple[str, Callable[[TaskStats], str]], ...] = (
    ("tasks", lambda s: str(s.tasks)),
    ("hard", lambda s: str(s.tiers.get("hard", 0))),
    ("writes", lambda s: figure_text(s.writes_mean, digits=2)),
    (f">={MANY_WRITES} wr", lambda s: figure_text(s.writes_3plus, pct=True)),
    ("gold", lambda s: figure_text(s.gold_mean, digits=2)),
    ("max", lambda s: _count(s.gold_max)),
    ("seq/t", lambda s: figure_text(s.sequences_per_task, digits=2)),
    ("seq/t rd", lambda s: figure_text(s.sequences_collapsed, digits=2)),
    ("open/t", lambda s: figure_text(s.openings_per_task, digits=2)),
    ("id open", lambda s: figure_text(s.id_in_opening, pct=True)),
    ("id any", lambda s: figure_text(s.id_in_scenario, pct=True)),
    ("if", lambda s: figure_text(s.conditional, pct=True)),
    ("if rec", lambda s: figure_text(s.conditional_records, pct=True)),
    ("mixed", lambda s: figure_text(s.mixed, pct=True)),
    ("refuse", lambda s: _count(s.refusals)),
    ("forb wr", lambda s: _count(s.forbidden_writes)),
    ("rules", lambda s: _rules(s)),
    ("later", lambda s: figure_text(s.later, pct=True)),
    ("dual", lambda s: figure_text(s.dual_control, pct=True)),
)
"""The table's columns after the domain: header, and how a domain's cell is written."""

LEGEND = (
    f"writes, gold, max: gold writes and actions per task (mean, max); >={MANY_WRITES} wr: "
    "share with that many writes; seq/t, open/t: distinct tool sequences and openings (names, "
    "ids and numbers masked) per task; seq/t rd: seq/t with repeated reads in a row collapsed; "
    "id open, id any: share whose opening (any: or goal or "
    "known facts) states a record id the gold path uses; if: goals with an if; if rec: an if "
    "the records decide (not 'If the agent says…'); mixed: an "
    "allowed write beside a forbidden one; refuse: tasks with a request to refuse; forb wr: "
    "those whose forbidden write the tools allow; rules: policy refusal rules some task "
    "tests, of those it marks; later: a need raised mid-conversation; dual: gold paths with "
    "user-side steps"
)
"""What the headers stand for (``TaskStats`` defines each figure)."""


def render_task_stats(
    figures: Sequence[TaskStats], tier: str, console: Console | None = None
) -> None:
    """Print one row per domain, then why each figure shown as ``-`` was not computed."""
    console = console or stdout_console()
    title = "task figures" + ("" if tier == "all" else f" — {tier} tier")
    table = Table(title=title)
    table.add_column("domain", no_wrap=True)
    for header, _ in COLUMNS:
        table.add_column(header, justify="right")
    for s in figures:
        table.add_row(cell(s.domain), *(write(s) for _, write in COLUMNS))
    console.print(table)
    console.print(LEGEND, markup=False)
    by_figure: dict[tuple[str, str], list[str]] = {}
    for s in figures:
        for figure, why in s.not_computed.items():
            by_figure.setdefault((figure, why), []).append(s.domain)
    lines: dict[tuple[str, str], list[str]] = {}
    for (figure, why), names in by_figure.items():
        where = "every domain" if len(names) == len(figures) else ", ".join(names)
        lines.setdefault((where, why), []).append(figure)
    for (where, why), names in lines.items():
        console.print(f"{', '.join(names)}: not computed for {where}: {why}", markup=False)
