"""The table of ``tau-sim domains stats``: one row per domain, the figures of ``TaskStats``."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.table import Table

from tau_sim.simulator.results.report import cell, stdout_console
from tau_sim.simulator.world.taskstats import MANY_WRITES, TaskStats


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _count(value: int | None) -> str:
    return "-" if value is None else str(value)


def _rules(s: TaskStats) -> str:
    if s.refusal_rules is None or s.rules_total is None:
        return "-"
    return f"{s.refusal_rules}/{s.rules_total}"


COLUMNS: tuple[tuple[str, Callable[[TaskStats], str]], ...] = (
    ("tasks", lambda s: str(s.tasks)),
    ("hard", lambda s: str(s.tiers.get("hard", 0))),
    ("writes", lambda s: _num(s.writes_mean)),
    (f">={MANY_WRITES} wr", lambda s: _pct(s.writes_3plus)),
    ("gold", lambda s: _num(s.gold_mean)),
    ("max", lambda s: _count(s.gold_max)),
    ("seq/t", lambda s: _num(s.sequences_per_task)),
    ("seq/t rd", lambda s: _num(s.sequences_collapsed)),
    ("open/t", lambda s: _num(s.openings_per_task)),
    ("id open", lambda s: _pct(s.id_in_opening)),
    ("id any", lambda s: _pct(s.id_in_scenario)),
    ("if", lambda s: _pct(s.conditional)),
    ("if rec", lambda s: _pct(s.conditional_records)),
    ("mixed", lambda s: _pct(s.mixed)),
    ("refuse", lambda s: _count(s.refusals)),
    ("forb wr", lambda s: _count(s.forbidden_writes)),
    ("rules", lambda s: _rules(s)),
    ("later", lambda s: _pct(s.later)),
    ("dual", lambda s: _pct(s.dual_control)),
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
