"""Terminal rendering of reports and run lists (rich tables, text escaped).

The console and the text of a cell, a figure or an interval are ``results.terminal``.
The catalogs (models, emotions, domains) are ``results.catalogs``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from tau_sim.simulator.core.conditions import DEFAULT_LEVEL
from tau_sim.simulator.core.escapes import visible
from tau_sim.simulator.core.infra import EXCLUDED_REASONS, INFRA_REASON, USER_ERROR_REASON
from tau_sim.simulator.results.assertions import assertion_line
from tau_sim.simulator.results.grading import grading_line
from tau_sim.simulator.results.metrics import GROUP_FIELDS, LEVEL_FIELDS
from tau_sim.simulator.results.terminal import cell, figure_text, interval_text, stdout_console


def render_report(report: dict[str, Any], console: Console | None = None) -> None:
    """Print a run's report: the condition table, the by-emotion table, the emotion effect.

    Dimensions with a single value (often user and domain) move into the title, except a
    dimension level that is the leaf's own everywhere (``default``), which is left out. ``n``
    is what the figures count, ``tasks`` the tasks their intervals resample; an ``infra``
    column (conversations an endpoint ended) and a ``user err`` column (conversations the user
    simulator ended) appear when the run has any. Under each figure
    is its 95% interval (``interval_line`` says how it was made).
    """
    console = console or stdout_console()
    ks = list(report["pass_hat_k"])
    rows = report["conditions"]
    dims = GROUP_FIELDS
    varying = [d for d in dims if len({r[d] for r in rows}) > 1 or d in ("agent", "emotion")]
    fixed = [
        f"{d} {rows[0][d]}"
        for d in dims
        if d not in varying and rows and rows[0][d] != DEFAULT_LEVEL
    ]
    if report.get("tier", "all") != "all":
        fixed.append(f"{report['tier']} tier")
    if report.get("grouping"):
        fixed.append("emotion families and intensity levels")
    task_counts = {r.get("tasks") for r in rows}
    show_tasks = len(task_counts) > 1  # else the title says it
    if len(task_counts) == 1 and None not in task_counts:
        fixed.append(f"{task_counts.pop()} tasks per row")
    title = f"run {report['run_id']} ({report['status']})" + (
        f" — {', '.join(fixed)}" if fixed else ""
    )
    table = Table(title=cell(title))
    infra = bool(report.get("infra_errors"))
    user_errors = bool(report.get("user_errors"))
    for column in (
        *varying,
        "n",
        *(["tasks"] if show_tasks else []),
        *(["infra"] if infra else []),
        *(["user err"] if user_errors else []),
    ):
        table.add_column(column)
    for k in ks:
        table.add_column(f"pass^{k}", justify="right")
    for k in ks[1:]:  # pass@1 is pass^1
        table.add_column(f"pass@{k}", justify="right")
    for column in ("success", "abandon", "turns", "tools", "asks"):
        table.add_column(column, justify="right")
    for row in rows:
        cells = [
            "-" if d == "intensity" and row["emotion"] == "neutral" else cell(str(row[d]))
            for d in varying
        ]
        table.add_row(
            *cells,
            str(row["n"]),
            *([str(row.get("tasks", "-"))] if show_tasks else []),
            *([str(row["infra_errors"])] if infra else []),
            *([str(row["user_errors"])] if user_errors else []),
            *(_pass_k(row, "pass_hat_k", k) for k in ks),
            *(_pass_k(row, "pass_at_k", k) for k in ks[1:]),
            _figure(row, "success_rate", pct=True),
            _figure(row, "abandonment_rate", pct=True),
            figure_text(row["avg_turns"], digits=1),
            figure_text(row["avg_tool_calls"], digits=1),
            figure_text(row["avg_questions"], digits=1),
        )
    console.print(table)
    render_by_emotion(report, console)
    render_emotion_effect(report, console)
    overall = "  ".join(f"pass^{k} {_inline(report, 'pass_hat_k', k)}" for k in ks)
    excluded = report["completed"] - report["n"]
    counted = f" ({report['n']} counted, {excluded} excluded)" if excluded else ""
    console.print(
        f"{report['completed']}/{report['conversations']} conversations{counted}  {overall}  "
        f"success {_inline(report, 'success_rate', pct=True)}  "
        f"abandoned {_inline(report, 'abandonment_rate', pct=True)}",
        markup=False,
    )
    if report.get("intervals"):
        console.print(interval_line(report), markup=False)
    if report.get("grouping"):
        console.print(grouping_line(report["grouping"]), markup=False)
    if infra:
        console.print(infra_note(report), markup=False)
    if user_errors:
        console.print(user_error_note(report), markup=False)
    if report.get("user_quits"):
        console.print(user_quit_note(report), markup=False)
    missing = missing_trials_line(report)
    if missing is not None:
        console.print(missing, markup=False)
    assertions = assertion_line(report.get("assertions"))
    if assertions is not None:
        console.print(assertions, markup=False)
    grading = grading_line(report.get("grading"))
    if grading is not None:
        console.print(grading, markup=False)
    if report.get("calibration_agents"):
        console.print(
            f"note: {visible(', '.join(report['calibration_agents']))} read each task's answer "
            "key: "
            "they calibrate the harness (scorer, user dynamics) and are not benchmark subjects",
            markup=False,
        )


def _lookup(figures: dict[str, Any], name: str, k: str | None) -> tuple[Any, Any]:
    """(point, interval) of one figure of a summary (``k`` for pass^k and pass@k)."""
    ci = figures.get("ci") or {}
    if k is None:
        return figures[name], ci.get(name)
    return figures[name][k], (ci.get(name) or {}).get(k)


def _figure(figures: dict[str, Any], name: str, k: str | None = None, pct: bool = False) -> str:
    """A table cell: the figure, and its interval dimmed on the line below."""
    value, interval = _lookup(figures, name, k)
    span = interval_text(interval, pct)
    point = figure_text(value, pct=pct)
    return f"{point}\n[dim]{span}[/dim]" if span else point


def _inline(figures: dict[str, Any], name: str, k: str | None = None, pct: bool = False) -> str:
    """A figure with its interval in brackets, for a line of text."""
    value, interval = _lookup(figures, name, k)
    span = interval_text(interval, pct)
    if value is None and k is not None and (covered := _short_of_k(figures, k)):
        return f"- ({covered} tasks with {k} trials)"
    return f"{figure_text(value, pct=pct)} [{span}]" if span else figure_text(value, pct=pct)


def _short_of_k(figures: dict[str, Any], k: str) -> str | None:
    """``a/b`` when only a of the b cells of ``figures`` have k counted trials, else None."""
    cells = figures.get("cells")
    covered = figures.get("cells_with_k", {}).get(k)
    if cells is None or covered is None or covered >= cells:
        return None
    return f"{covered}/{cells}"


def _pass_k(figures: dict[str, Any], name: str, k: str) -> str:
    """A pass^k or pass@k cell: the figure, or how many cells have k trials when some do not."""
    value, _ = _lookup(figures, name, k)
    covered = _short_of_k(figures, k) if value is None else None
    return f"-\n[dim]{covered}[/dim]" if covered else _figure(figures, name, k)


def missing_trials_line(report: dict[str, Any]) -> str | None:
    """The report's line on pass^k withheld for missing trials, when the run has any."""
    rows = [report, *report["conditions"]]
    short = [k for k in report["pass_hat_k"] if any(_short_of_k(r, k) for r in rows)]
    if not short:
        return None
    return (
        "pass^k and pass@k need k counted trials in every task (a task under one condition); "
        "where some task has fewer they are not given and a/b says that a of the b tasks have "
        f"them (here from pass^{short[0]}): endpoint or user-simulator errors removed those "
        "trials, and "
        f"`tau-sim run --resume {report['run_id']}` plays them again"
    )


def grouping_line(grouping: dict[str, Any]) -> str:
    """How a task-profile run's rows were merged: families, and each level's band."""
    bands = ", ".join(
        f"{name} {lower:g}-{upper:g}" for name, (lower, upper) in grouping["levels"].items()
    )
    return (
        "grouped: a task-profile run (each task plays its own emotion leaf and intensity); rows "
        f"are emotion families and intensity levels ({bands}); `report --by-leaf` for each leaf"
    )


def interval_line(report: dict[str, Any]) -> str:
    """What the intervals under the figures are."""
    method = report["intervals"]
    return (
        f"intervals: {method['level']:.0%}, {method['method']}, {method['resamples']} "
        f"resamples, seed {method['seed']!r}, none under 2 tasks; n = conversations counted"
    )


def render_by_emotion(report: dict[str, Any], console: Console) -> None:
    """pass^k by emotion, per agent and user model.

    By family with ``report --by-family`` and in a task-profile run.
    """
    key = "family" if "by_family" in report else "emotion"
    rows = report.get(f"by_{key}", [])
    ks = list(report["pass_hat_k"])
    frame = [f for f in ("agent", "user") if len({r[f] for r in rows}) > 1]
    families = key == "family" or report.get("grouping")
    title = "pass^k by emotion family" if families else "pass^k by emotion"
    table = Table(title=title)
    for column in (*frame, key, "n", "tasks"):
        table.add_column(column)
    for k in ks:
        table.add_column(f"pass^{k}", justify="right")
    table.add_column("success", justify="right")
    table.add_column("abandoned", justify="right")
    for row in rows:
        table.add_row(
            *(cell(str(row[f])) for f in (*frame, key)),
            str(row["n"]),
            str(row.get("tasks", "-")),
            *(_pass_k(row, "pass_hat_k", k) for k in ks),
            _figure(row, "success_rate", pct=True),
            _figure(row, "abandonment_rate", pct=True),
        )
    console.print(table)


def render_emotion_effect(report: dict[str, Any], console: Console) -> None:
    """Each condition minus neutral (success, paired by task), per agent and user model."""
    effect = report.get("emotion_effect")
    if effect is None:
        return
    if effect["note"]:
        console.print(visible(f"emotion effect: {effect['note']}"), markup=False)
        return
    rows = effect["rows"]
    shown = [
        f
        for f in ("agent", "user", "emotion", "intensity", *LEVEL_FIELDS)
        if f in ("agent", "emotion") or len({r[f] for r in rows}) > 1
    ]
    title = "emotion effect: success minus neutral (same agent, user, tasks)"
    console.print(effect_table(rows, shown, title, lambda row, f: cell(str(row[f]))))


def effect_table(
    rows: Sequence[dict[str, Any]],
    shown: Sequence[str],
    title: str,
    label: Callable[[dict[str, Any], str], str],
) -> Table:
    """A paired effect's table, one row per condition.

    Columns: the ``shown`` fields (as ``label`` writes them), the tasks, the neutral and the
    condition's figure, and the effect with its interval under it.
    """
    table = Table(title=title)
    for column in (*shown, "tasks"):
        table.add_column(column)
    for column in ("neutral", "condition", "effect"):
        table.add_column(column, justify="right")
    for row in rows:
        span = interval_text(row["ci"], signed=True)
        delta = "-" if row["delta"] is None else f"{row['delta']:+.0%}"
        table.add_row(
            *(label(row, f) for f in shown),
            str(row["tasks"]),
            figure_text(row["neutral"], pct=True),
            figure_text(row["condition"], pct=True),
            f"{delta}\n[dim]{span}[/dim]" if span else delta,
        )
    return table


def render_compare(result: dict[str, Any], console: Console | None = None) -> None:
    """Print a comparison: per condition B minus A with intervals, then the tasks that flip."""
    console = console or stdout_console()
    a, b = result["a"], result["b"]
    conditions = result["conditions"]
    fields = [f for f in result["paired_by"] if f not in ("task_id", "trial")]
    shown = [f for f in fields if f in ("emotion",) or len({c[f] for c in conditions}) > 1]
    title = f"compare: A = {_who(a)}, B = {_who(b)}; B minus A, paired by cell"
    table = Table(title=cell(title))
    for column in (*shown, "cells", "tasks"):
        table.add_column(column)
    for column in ("success A", "success B", "Δ success", "Δ pass^1", "A only", "B only"):
        table.add_column(column, justify="right")
    every = (*conditions, {**dict.fromkeys(shown, ""), **result["overall"], "_all": True})
    for position, row in enumerate(every):
        label = [
            cell(str(row[f])) if not row.get("_all") else ("all" if i == 0 else "")
            for i, f in enumerate(shown)
        ]
        if not row.get("_all") and "intensity" in shown and row["emotion"] == "neutral":
            label[shown.index("intensity")] = "-"
        table.add_row(
            *label,
            str(row["cells"]),
            str(row["tasks"]),
            f"{row['success_a']:.0%}",
            f"{row['success_b']:.0%}",
            _delta(row["success_delta"], row["success_ci"]),
            _delta(row["pass_1_delta"], row["pass_1_ci"]),
            str(row["a_only"]),
            str(row["b_only"]),
            end_section=position == len(conditions) - 1,
        )
    console.print(table)
    for side, words in (("a", "A passes, B fails"), ("b", "B passes, A fails")):
        flips = result["flips"][side]
        tasks = visible(", ".join(flips["tasks"]))
        where = f" on {len(flips['tasks'])} tasks: {tasks}" if flips["cells"] else ""
        console.print(f"{words}: {flips['cells']} cells{where}", markup=False)
    left = result["left_out"]
    if any(left.values()):
        console.print(
            f"left out: {left['only_in_a']} cells only in A, {left['only_in_b']} only in B, "
            f"{left['not_completed']} not completed, {left['infra_errors']} pairs with an "
            f"endpoint error, {left.get('user_errors', 0)} with a user-simulator error"
            + ("" if result["count_errors"] else " (--count-errors counts them)"),
            markup=False,
        )
    if result.get("same_task_set") is False:
        console.print("warning: the two runs have different task sets (tasks_hash)", markup=False)
    method = result["intervals"]
    console.print(
        f"intervals: {method['level']:.0%}, {method['method']}, {method['resamples']} "
        f"resamples (seed {method['seed']!r})",
        markup=False,
    )
    if result["calibration_agents"]:
        console.print(
            f"note: {visible(', '.join(result['calibration_agents']))} read each task's answer "
            "key: "
            "they calibrate the harness (scorer, user dynamics) and are not benchmark subjects",
            markup=False,
        )


def _who(side: dict[str, Any]) -> str:
    agents = ",".join(side["agents"])
    return side["label"] if side["label"].startswith("agent") else f"{side['label']} ({agents})"


def _delta(value: float, interval: Sequence[float] | None) -> str:
    span = "" if interval is None else f"\n[dim]{interval[0]:+.0%}..{interval[1]:+.0%}[/dim]"
    return f"{value:+.0%}{span}"


def _how_counted(report: dict[str, Any]) -> str:
    """How the report counts the conversations it could leave out (``--count-errors``)."""
    if report["count_errors"]:
        return "counted as failures (--count-errors)"
    return "left out of pass^k, success and abandonment (--count-errors counts them)"


def infra_note(report: dict[str, Any]) -> str:
    """The report's line on conversations an endpoint ended: how many, why, how they count."""
    causes = ", ".join(f"{cause} x{n}" for cause, n in report["infra_causes"].items())
    return (
        f"{report['infra_errors']} conversations hit endpoint errors ({causes}): "
        f"{_how_counted(report)}"
    )


def user_error_note(report: dict[str, Any]) -> str:
    """The report's line on conversations the user simulator ended: how many, why, how counted."""
    causes = ", ".join(f"{cause} x{n}" for cause, n in report["user_error_causes"].items())
    return (
        f"{report['user_errors']} conversations hit user-simulator errors ({causes}): "
        f"{_how_counted(report)}"
    )


def user_quit_note(report: dict[str, Any]) -> str:
    """The report's line on users that gave up on their own pushback against a correct agent."""
    return (
        f"{report['user_quits']} conversations ended with the user giving up on its own pushback "
        f"while the agent had it all right (failure user_quit): not the agent's failures, "
        f"{_how_counted(report)}"
    )


def render_runs(db: Any, console: Console | None = None) -> None:
    """Print one line per run: id, start, status, agents, conditions, seed, duration, results.

    ``users`` (a column shown when some run's users are not the scripted one alone) names the
    run's user simulators as stored (``scripted``, an LLM user's model, ``human`` for a
    session a person played), so a human session reads apart from a run.
    ``duration`` is the time the run was played, over every invocation of a resumed run
    (``store.played_seconds``: the pauses between them are left out).

    A ``running`` run whose process is gone reads ``stale``; success and abandonment leave out
    the conversations that endpoint errors ended (``infra``) and those the user simulator ended
    (``user err``, a column shown when some run has any).
    """
    import time

    from tau_sim.simulator.store import played_seconds, run_states

    states = run_states(db)
    console = console or stdout_console()
    excluded = ", ".join(f"'{reason}'" for reason in sorted(EXCLUDED_REASONS))
    counted = f"c.status = 'completed' and c.reason not in ({excluded})"  # as the report counts
    rows = list(
        db.query(
            "select r.*, "
            "sum(c.status = 'completed') as completed, "
            f"sum(c.status = 'completed' and c.reason = '{INFRA_REASON}') as infra, "
            f"sum(c.status = 'completed' and c.reason = '{USER_ERROR_REASON}') as user_errors, "
            f"avg(case when {counted} then c.reward >= 1.0 end) as success, "
            f"avg(case when {counted} then c.abandoned end) as abandoned "
            "from runs r left join conversations c on c.run_id = r.id "
            "group by r.id order by r.created_at"
        )
    )
    user_errors = any(r["user_errors"] for r in rows)
    summaries = {r["id"]: _run_summary(r["config"]) for r in rows}
    other_users = any(users not in (SCRIPTED_USER, "?") for _, users, _ in summaries.values())
    table = Table(title="runs")
    for column in (
        "run",
        "created",
        "status",
        "agents",
        *(["users"] if other_users else []),
        "conditions",
        "seed",
        "duration",
        "cells",
        "completed",
        "infra",
        *(["user err"] if user_errors else []),
        "success",
        "abandoned",
    ):
        table.add_column(column, no_wrap=column in ("run", "created", "status", "seed"))
    for r in rows:
        agents, users, conditions = summaries[r["id"]]
        table.add_row(
            cell(r["id"]),
            time.strftime("%Y-%m-%d %H:%M", time.localtime(r["created_at"])),
            cell(states[r["id"]]),
            cell(agents),
            *([cell(users)] if other_users else []),
            cell(conditions),
            str(r["seed"]),
            _duration(None if r["ended_at"] is None else played_seconds(r)),
            str(r["cells"]),
            str(r["completed"] or 0),
            str(r["infra"] or 0),
            *([str(r["user_errors"] or 0)] if user_errors else []),
            figure_text(r["success"], pct=True),
            figure_text(r["abandoned"], pct=True),
        )
    console.print(table)


SCRIPTED_USER = "scripted"
"""The users of a run with only the scripted user (``runs`` then shows no users column)."""


def _run_summary(config_json: str | None) -> tuple[str, str, str]:
    """(agents, users, conditions) of a stored run config, as short text; "?" when unreadable."""
    import msgspec

    from tau_sim.simulator.core.conditions import NEUTRAL, TASK_EMOTION

    try:
        config = msgspec.json.decode(config_json or "")
        agents = ",".join(config.get("agents", []))
        users = ",".join(config.get("users", [SCRIPTED_USER]))
        intensities = ",".join(f"{i:g}" for i in config.get("intensities", []))
        emotions = [
            e if e in (NEUTRAL, TASK_EMOTION) else f"{e}@{intensities}"
            for e in config.get("emotions", [])
        ]
    except (msgspec.DecodeError, AttributeError, TypeError, ValueError):
        return "?", "?", "?"
    return agents, users, " ".join(emotions)


def _duration(seconds: float | None) -> str:
    """Seconds as ``1h02m``, ``3m05s`` or ``4.2s``; "-" when not ended (None)."""
    if seconds is None:
        return "-"
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    return f"{minutes // 60}h{minutes % 60:02d}m"
