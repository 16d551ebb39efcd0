"""Figures computed from the store: pass^k, pass@k, success, abandonment, effort, with intervals.

Conversations an endpoint ended (``infra_error``) or the user simulator ended (``user_error``: an
empty or unusable turn, the same message over and over) say nothing about the agent: they are
counted in ``infra_errors`` and ``user_errors`` and left out of every figure (``n`` is what the
figures count), unless ``count_errors`` puts them back as failures (both kinds). Given a
``Bootstrap``, every pass^k, pass@k, success and abandonment rate gets its 95% interval over tasks
(``ci``) and ``tasks`` (the tasks resampled).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from sys import intern
from typing import Any

import msgspec
import sqlite_utils

from tau_sim.simulator.core.conditions import NEUTRAL, level_label
from tau_sim.simulator.core.endings import SUCCESS_EPS
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.infra import error_share, is_infra, is_user_error, is_user_quit
from tau_sim.simulator.core.registry import is_calibration_agent
from tau_sim.simulator.results.counting import (
    WEIGHT,
    OutcomeRow,
    condition_order,
    counted,
    is_success,
    shown_intensity,
    total,
    weight,
)
from tau_sim.simulator.results.effects import emotion_effect
from tau_sim.simulator.results.grading import grading_section
from tau_sim.simulator.results.profiles import (
    GROUPING,
    by_profile,
    family_label,
    is_task_profile,
    profile_label,
)
from tau_sim.simulator.results.stats import (
    RESAMPLES,
    Bootstrap,
    pass_at_k,
    pass_hat_k,
    task_pass_at_k,
    task_pass_hat_k,
)
from tau_sim.simulator.store import ROLE_FIELDS, ROLES

LEVEL_FIELDS = ("politeness", "urgency", "trust")
GROUP_FIELDS = ("agent", "user", "domain", "emotion", "intensity", *LEVEL_FIELDS)
"""The fields of a condition: one row of the condition table (a NULL level reads ``default``)."""
Row = Mapping[str, Any]
"""A conversation row, stored (a dict) or aggregated (``outcome_rows``' ``OutcomeRow``)."""


__all__ = ["pass_at_k", "pass_hat_k", "run_report", "summarize"]


def _cells(done: Sequence[Row]) -> dict[tuple[Any, ...], list[int]]:
    """(n trials, c successes) of each cell: one task id under one condition."""
    per_cell: dict[tuple[Any, ...], list[int]] = defaultdict(lambda: [0, 0])
    for r in done:
        key = (r["task_id"], *(r[field] for field in GROUP_FIELDS))
        per_cell[key][0] += weight(r)
        per_cell[key][1] += weight(r) * is_success(r)
    return per_cell


def summarize(
    rows: Sequence[Row],
    max_k: int,
    *,
    count_errors: bool = False,
    bootstrap: Bootstrap | None = None,
) -> dict[str, Any]:
    """Figures of a set of conversation rows; a task is one task id under one condition.

    ``n`` is the number of conversations the figures count: the completed ones, less those an
    endpoint ended (``infra_errors``) and those the user simulator ended (``user_errors``)
    unless ``count_errors``. With ``bootstrap``, ``tasks``
    and ``ci`` (``intervals``) are added.

    pass^k and pass@k need k counted trials in every cell (a task under one condition) of the
    rows: ``cells`` is how many cells the rows hold, ``cells_with_k`` how many of them have k
    counted trials, and a figure whose k some cell lacks is None (so is its interval), never
    a mean over the cells that happen to have k trials: such a mean rises with k when trials
    are missing, because the cells an endpoint hit are dropped from the larger k first.
    """
    completed = [r for r in rows if r["status"] == "completed"]
    infra = total(r for r in completed if is_infra(r))
    user_errors = total(r for r in completed if is_user_error(r))
    done = counted(rows, count_errors=count_errors)
    cells = _cells(done)
    counts = [(n, c) for n, c in cells.values()]
    n = total(done)
    planned = len(_cells(rows))
    with_k = {k: sum(1 for trials, _ in counts if trials >= k) for k in range(1, max_k + 1)}
    whole = {k for k, covered in with_k.items() if covered == planned}

    def mean(field: str) -> float | None:
        return round(sum(r[field] or 0 for r in done) / n, 4) if n else None

    successes = sum(weight(r) * is_success(r) for r in done)
    abandoned = total(r for r in done if r["reason"] == "user_abandoned")
    figures = {
        "conversations": total(rows),
        "completed": total(completed),
        "infra_errors": infra,
        "user_errors": user_errors,
        "user_quits": total(r for r in completed if is_user_quit(r)),
        "n": n,
        "success_rate": round(successes / n, 4) if n else None,
        "abandonment_rate": round(abandoned / n, 4) if n else None,
        "pass_hat_k": {
            str(k): None if k not in whole or (v := pass_hat_k(counts, k)) is None else round(v, 4)
            for k in range(1, max_k + 1)
        },
        "pass_at_k": {
            str(k): None if k not in whole or (v := pass_at_k(counts, k)) is None else round(v, 4)
            for k in range(1, max_k + 1)
        },
        "cells": planned,
        "cells_with_k": {str(k): covered for k, covered in with_k.items()},
        "avg_turns": mean("turns"),
        "avg_tool_calls": mean("tool_calls"),
        "avg_questions": mean("questions"),
        "avg_tokens": _mean_tokens(done),
        "reasons": dict(sorted(_count(completed).items())),
    }
    if bootstrap is not None:
        found = intervals(done, cells, max_k, bootstrap)
        for name in ("pass_hat_k", "pass_at_k"):
            for k in set(range(1, max_k + 1)) - whole:
                found["ci"][name][str(k)] = None
        figures.update(found)
    return figures


def _mean_tokens(rows: Sequence[Row]) -> float | None:
    """Mean tokens (in + out) of the conversations that spent any; None when none did.

    Scripted actors report no tokens, so a scripted run has no figure here rather than a 0
    that would read as free. A row of ``outcome_rows`` carries its ``spent`` conversations and
    their ``spent_tokens``.
    """
    spent = tokens = 0
    for r in rows:
        if WEIGHT in r:
            spent += r["spent"]
            tokens += r["spent_tokens"] or 0
        elif (t := (r["tokens_in"] or 0) + (r["tokens_out"] or 0)) > 0:
            spent += 1
            tokens += t
    return round(tokens / spent, 1) if spent else None


def intervals(
    done: Sequence[Row],
    cells: dict[tuple[Any, ...], list[int]],
    max_k: int,
    bootstrap: Bootstrap,
) -> dict[str, Any]:
    """``tasks`` (the units resampled: domain x task id) and the 95% interval of each figure.

    ``done`` are the rows counted, ``cells`` their (n, c) per cell (``_cells``).

    ``ci`` holds [low, high] of ``success_rate``, ``abandonment_rate`` and each ``pass_hat_k``
    and ``pass_at_k``; None where the figure is None or fewer than two tasks were counted.
    Resampling a task takes all its conversations, under every condition of the group.
    """
    index: dict[tuple[str, str], int] = {}
    for r in done:
        index.setdefault((r["domain"], r["task_id"]), len(index))
    units = len(index)
    conversations, successes, abandoned = [0.0] * units, [0.0] * units, [0.0] * units
    for r in done:
        t = index[(r["domain"], r["task_id"])]
        conversations[t] += weight(r)
        successes[t] += weight(r) * is_success(r)
        abandoned[t] += weight(r) * (r["reason"] == "user_abandoned")
    ks = range(1, max_k + 1)
    hat = {k: [0.0] * units for k in ks}
    at = {k: [0.0] * units for k in ks}
    eligible = {k: [0.0] * units for k in ks}
    for key, (n, c) in cells.items():
        t = index[(key[1 + GROUP_FIELDS.index("domain")], key[0])]
        for k in ks:
            if n >= k:
                hat[k][t] += task_pass_hat_k(n, c, k)
                at[k][t] += task_pass_at_k(n, c, k)
                eligible[k][t] += 1
    found = bootstrap.ratios(
        [
            (successes, conversations),
            (abandoned, conversations),
            *((hat[k], eligible[k]) for k in ks),
            *((at[k], eligible[k]) for k in ks),
        ]
    )
    return {
        "tasks": units,
        "ci": {
            "success_rate": found[0],
            "abandonment_rate": found[1],
            "pass_hat_k": {str(k): found[1 + k] for k in ks},
            "pass_at_k": {str(k): found[1 + max_k + k] for k in ks},
        },
    }


def _count(rows: Iterable[Row]) -> dict[str, int]:
    """Conversations per ending reason."""
    out: dict[str, int] = defaultdict(int)
    for r in rows:
        out[r["reason"]] += weight(r)
    return dict(out)


def conversation_rows(sqlite: sqlite_utils.Database, run_id: str) -> list[dict[str, Any]]:
    """Every conversation row of a run, in grid order."""
    return list(
        sqlite.query("select * from conversations where run_id = ? order by cell", [run_id])
    )


_KEY_FIELDS = ("task_id", "domain", "agent", "user", "emotion", "intensity", *LEVEL_FIELDS)
_SUMMED = ("turns", "tool_calls", "questions", "tokens_in", "tokens_out")


def _outcome_sql(have: set[str], infra: int) -> str:
    """The query of ``outcome_rows``; a column an older file lacks reads NULL, as ``get`` did."""

    def col(name: str) -> str:
        return name if name in have else "NULL"

    role_sums = [f"{r}_{n}" for r in ROLES for n in ROLE_FIELDS if n != "cost_usd"]
    spent = "coalesce(tokens_in, 0) + coalesce(tokens_out, 0)"
    key = ", ".join(_KEY_FIELDS)
    return (
        f"select {key}, status, reason, {col('failure')} as failure, "
        f"{col('refusal')} as refusal, "
        "case when status = 'completed' and coalesce(reward, 0.0) >= ? then 1 else 0 end "
        "as won, case when status = 'completed' and reason in "
        f"({', '.join('?' * infra)}) then detail end as infra_detail, "
        f"count(*) as {WEIGHT}, max(trial) as trial, "
        + "".join(f"sum(coalesce({c}, 0)) as {c}, " for c in _SUMMED)
        + "".join(f"sum(coalesce({col(c)}, 0)) as {c}, " for c in role_sums)
        + "".join(f"sum({col(f'{r}_cost_usd')}) as {r}_cost_usd, " for r in ROLES)
        + f"sum({spent} > 0) as spent, sum(case when {spent} > 0 then {spent} end) "
        "as spent_tokens from conversations where run_id = ? "
        f"group by {key}, status, reason, {col('failure')}, {col('refusal')}, won, infra_detail "
        "order by min(cell)"
    )


def outcome_rows(sqlite: sqlite_utils.Database, run_id: str) -> list[OutcomeRow]:
    """A run's conversations aggregated in SQL: one row per task, condition and outcome.

    Each row stands for ``weight`` conversations with the same task, condition fields, status,
    ending reason, failure reason, ``refusal`` (NULL in a file stored before it), success
    (``reward`` is 1.0 or 0.0) and, for an endpoint or user-simulator error, the same
    ``detail`` (whose kind the report counts); its counters
    (turns, tool calls, questions, tokens and dollars per role) are their sums, ``trial`` the
    highest, ``spent`` / ``spent_tokens`` the conversations that spent tokens and how many. Rows
    come in the order of their first cell, so every figure of the report is what the stored rows
    give, and what the report holds grows with the tasks and conditions, not with the
    conversations: an ``OutcomeRow`` of about 400 bytes a row, its repeated names (agent,
    emotion, reason, ...) held once.
    """
    from tau_sim.simulator.core.infra import EXCLUDED_REASONS

    reasons = sorted(EXCLUDED_REASONS)
    have = set(sqlite.table("conversations").columns_dict)
    sql = _outcome_sql(have, len(reasons))
    cursor = sqlite.execute(sql, [1.0 - SUCCESS_EPS, *reasons, run_id])
    columns = [c[0] for c in cursor.description]
    renamed = {"won": "reward", "infra_detail": "detail"}
    names = {renamed.get(c, c): i for i, c in enumerate(columns)}
    won = columns.index("won")
    out = []
    for values in cursor:
        # one object per distinct name (agent, emotion, reason, ...), not one per row
        row = [intern(v) if type(v) is str else v for v in values]
        row[won] = float(row[won])
        out.append(OutcomeRow(names, tuple(row)))
    return out


def run_report(
    sqlite: sqlite_utils.Database,
    run: dict[str, Any],
    *,
    count_errors: bool = False,
    resamples: int = RESAMPLES,
    by_family: bool = False,
    by_leaf: bool = False,
) -> dict[str, Any]:
    """The whole report of a run: overall figures, groups, the condition table and effects.

    ``conversations`` is the run's grid size (``runs.cells``): a conversation's row is stored
    once it is admitted, so a run stopped early has rows for fewer cells; inside the groups and
    conditions it counts the stored rows.

    ``count_errors``: conversations ended by endpoint or user-simulator errors count as
    failures (by default they are left out; ``infra_causes`` and ``user_error_causes`` say
    what they hit). ``calibration_agents`` names the
    agents that read the answer key (scripted): their figures check the harness, they are not
    benchmark results. Every figure has its interval (``intervals`` says how they were made:
    ``resamples`` draws from a fixed seed, so the same data give the same intervals).
    ``tier`` is the tier the run's tasks were drawn from (``--tier``). ``grading`` says how the
    rewards were computed and what warnings they carry (``results.grading``).
    A task-profile run (``--emotions task``) is grouped by emotion family and intensity level
    in every table (``results.profiles``; ``grouping`` says so) unless ``by_leaf``; elsewhere
    ``grouping`` is None.
    ``by_emotion`` (and with ``by_family``, ``by_family``) is per agent and user model;
    ``emotion_effect`` is each condition minus neutral (``tau_sim.simulator.results.effects``).
    ``policy_violations`` is the rate of forbidden writes on refusal tasks and its effect
    (``results.violations``); ``user_tags`` counts what the users perceived (``results.tags``).
    """
    rows = outcome_rows(sqlite, run["id"])
    grouped = is_task_profile(run) and not by_leaf
    if grouped:
        rows = sorted(by_profile(rows), key=condition_order)
    max_k = max((r["trial"] for r in rows), default=0) + 1
    bootstrap = Bootstrap(resamples=resamples)
    share = error_share(rows)
    report: dict[str, Any] = {
        "run_id": run["id"],
        "status": run["status"],
        "count_errors": count_errors,
        "infra_causes": share.causes,
        "user_error_causes": share.user_causes,
        "intervals": interval_method(bootstrap),
        "tier": run_tier(run),
        "grouping": GROUPING if grouped else None,
    }

    def figures(subset: Sequence[Row]) -> dict[str, Any]:
        return summarize(subset, max_k, count_errors=count_errors, bootstrap=bootstrap)

    report.update(figures(rows))
    # rows exist for admitted conversations only: the grid's size is the run's stored total
    report["conversations"] = max(int(run.get("cells") or 0), report["conversations"])
    agents = sorted({str(r["agent"]) for r in rows})
    report["calibration_agents"] = [a for a in agents if is_calibration_agent(a)]
    groups: dict[str, dict[str, Any]] = {}
    for field in GROUP_FIELDS:
        buckets: dict[str, list[Row]] = defaultdict(list)
        for r in rows:
            buckets[field_label(field, r[field])].append(r)
        groups[field] = {k: figures(v) for k, v in sorted(buckets.items())}
    report["groups"] = groups
    table: dict[tuple[str, ...], list[Row]] = defaultdict(list)
    for r in rows:
        table[tuple(field_label(field, r[field]) for field in GROUP_FIELDS)].append(r)
    report["conditions"] = [
        {**dict(zip(GROUP_FIELDS, k, strict=True)), **figures(v)} for k, v in table.items()
    ]
    report["by_emotion"] = per_frame(rows, "emotion", lambda r: str(r["emotion"]), figures)
    if by_family:
        report["by_family"] = per_frame(rows, "family", _family, figures)
    report["emotion_effect"] = labelled_effect(rows, bootstrap, count_errors=count_errors)
    report.update(cost_and_failures(rows, count_errors=count_errors))
    report["assertions"] = assertions_section(sqlite, run["id"])
    report["grading"] = grading_section(sqlite, run["id"])
    report["policy_violations"] = policy_violation_section(
        rows, run, bootstrap, count_errors=count_errors
    )
    report["user_tags"] = user_tags_section(
        sqlite, run["id"], count_errors=count_errors, grouped=grouped
    )
    return report


def run_tier(run: Mapping[str, Any]) -> str:
    """The tier a stored run drew its tasks from (``RunConfig.tier``).

    ``all`` when its configuration names none (a run stored before tiers) or is unreadable.
    """
    try:
        config = msgspec.json.decode(run.get("config") or "{}")
    except msgspec.DecodeError:
        return "all"
    tier = config.get("tier", "all") if isinstance(config, dict) else "all"
    return str(tier)


def interval_method(bootstrap: Bootstrap) -> dict[str, Any]:
    """How a report's intervals were made (the ``intervals`` entry of its JSON)."""
    return {
        "method": "percentile bootstrap over tasks (domain x task id)",
        "level": bootstrap.level,
        "resamples": bootstrap.resamples,
        "seed": bootstrap.seed,
    }


def per_frame(
    rows: Sequence[Row],
    name: str,
    key: Callable[[Row], str],
    figures: Callable[[Sequence[Row]], dict[str, Any]],
) -> list[dict[str, Any]]:
    """Figures per agent, user model and ``key(row)`` (stored as ``name``), never pooled.

    Rows are sorted by agent, user, then neutral first and the other values by name.
    """
    buckets: dict[tuple[str, str, bool, str], list[Row]] = defaultdict(list)
    for r in rows:
        value = key(r)
        buckets[(str(r["agent"]), str(r["user"]), value != NEUTRAL, value)].append(r)
    return [
        {"agent": agent, "user": user, name: value, **figures(subset)}
        for (agent, user, _, value), subset in sorted(buckets.items())
    ]


def _family(row: Row) -> str:
    """The emotion family of a row's leaf; the leaf itself when no taxonomy knows it."""
    return family_label(str(row["emotion"]))


def labelled_effect(
    rows: Sequence[Row],
    bootstrap: Bootstrap,
    *,
    count_errors: bool = False,
    outcome: Callable[[Row], bool] | None = None,
) -> dict[str, Any]:
    """``emotion_effect`` with its condition fields labelled as the condition table's are."""
    effect = emotion_effect(rows, bootstrap, count_errors=count_errors, outcome=outcome)
    effect["rows"] = [
        {k: field_label(k, v) if k in GROUP_FIELDS else v for k, v in row.items()}
        for row in effect["rows"]
    ]
    return effect


def cost_and_failures(rows: Sequence[Row], *, count_errors: bool = False) -> dict[str, Any]:
    """The report's ``cost`` and ``failures`` sections.

    Cost: tokens and dollars per role, over every conversation paid for. Failures: the reasons
    of the conversations the figures count (not those an endpoint or the user simulator ended,
    unless ``count_errors``).
    """
    from tau_sim.simulator.results.costs import cost_report
    from tau_sim.simulator.results.reasons import failure_report

    failures = failure_report(counted(rows, count_errors=count_errors))
    return {"cost": cost_report(rows), "failures": failures}


def policy_violation_section(
    rows: Sequence[Row],
    run: dict[str, Any],
    bootstrap: Bootstrap,
    *,
    count_errors: bool = False,
) -> dict[str, Any]:
    """The report's ``policy_violations``: the rate on refusal tasks and its emotion effect.

    ``refusal_tasks`` counts the refusal tasks the run played; ``rows`` is the rate per agent,
    user and condition (``results.violations.violation_rates``), ``effect`` each condition
    minus neutral on those tasks (``emotion_effect``'s shape, the outcome a forbidden write
    made); ``note`` says why there are no rows (no refusal task, or the domains unknown now).
    """
    from tau_sim.simulator.results.violations import (
        is_violation,
        refusal_rows,
        refusal_tasks,
        violation_rates,
    )

    try:
        refusals = refusal_tasks(run, rows)
    except UsageError as exc:
        note = f"the refusal tasks are unknown: {exc}"
        return {"refusal_tasks": None, "rows": [], "effect": None, "note": note}
    played = refusal_rows(rows, refusals)
    tasks = len({(r["domain"], r["task_id"]) for r in played})
    if not played:
        note = "this run played no refusal task (a task whose user asks for a forbidden write)"
        return {"refusal_tasks": 0, "rows": [], "effect": None, "note": note}
    return {
        "refusal_tasks": tasks,
        "rows": violation_rates(
            played, refusals, bootstrap, field_label, count_errors=count_errors
        ),
        "effect": labelled_effect(
            played, bootstrap, count_errors=count_errors, outcome=is_violation
        ),
        "note": None,
    }


def user_tags_section(
    sqlite: sqlite_utils.Database,
    run_id: str,
    *,
    count_errors: bool = False,
    grouped: bool = False,
) -> list[dict[str, Any]]:
    """The report's ``user_tags``: what the users perceived, counted per agent and condition.

    ``grouped``: conditions by emotion family and intensity level (a task-profile run).
    """
    from tau_sim.simulator.results.tags import tag_counts

    def label(field: str, value: Any) -> str:
        if grouped and field in ("emotion", "intensity"):
            return str(profile_label(field, value))
        return field_label(field, value)

    return tag_counts(sqlite, run_id, label, count_errors=count_errors)


def assertions_section(sqlite: sqlite_utils.Database, run_id: str) -> dict[str, int] | None:
    """The report's ``assertions``: natural-language assertions judged (None: the run had none).

    The verdicts are in each conversation's breakdown, which ``outcome_rows`` leaves out; the
    rows that may hold one are streamed, so memory stays flat however many there are.
    """
    from tau_sim.simulator.results.assertions import assertion_report

    return assertion_report(
        sqlite.query(
            "select status, breakdown from conversations where run_id = ? and "
            "status = 'completed' and (breakdown like '%\"judged\"%' or "
            "breakdown like '%NL_ASSERTION%')",
            [run_id],
        )
    )


def field_label(field: str, value: Any) -> str:
    """A condition field's value as reports show it (exact intensities, ``default`` levels)."""
    if field == "intensity":  # exact: 0.3 and 0.304 are two rows
        return shown_intensity(value)
    if field in LEVEL_FIELDS:
        return level_label(value)
    return str(value)
