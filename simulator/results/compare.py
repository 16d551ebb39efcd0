"""Paired comparison of two sides (two runs, or two agents or users of one run) by grid cell.

A cell is (domain, task, emotion, intensity, politeness, urgency, trust, trial), plus the agent and
the user unless each side has one of them (then those are what is compared). Only cells that both
sides completed are paired; conversations an endpoint or the user simulator ended leave their pair
out unless ``count_errors`` (as in the report). Deltas are B minus A, with percentile-bootstrap
intervals over tasks (domain x task id), seeded (``stats.SEED``) like the report's.
``simulator.results.report``'s ``render_compare`` prints what ``compare_runs`` and
``compare_roles`` return.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import sqlite_utils

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.infra import is_excluded, is_infra
from tau_sim.simulator.core.registry import is_calibration_agent
from tau_sim.simulator.results.counting import is_success
from tau_sim.simulator.results.metrics import conversation_rows, field_label
from tau_sim.simulator.results.stats import DIGITS, RESAMPLES, Bootstrap
from tau_sim.simulator.store import get_run

ROLE_FIELDS = ("agent", "user")
CELL_FIELDS = ("domain", "emotion", "intensity", "politeness", "urgency", "trust")
TRIAL_FIELDS = ("task_id", "trial")

Source = tuple[sqlite_utils.Database, str, str]
"""(database, its path, run id) of one side of ``compare_runs``."""


def compare_runs(
    a: Source, b: Source, *, count_errors: bool = False, resamples: int = RESAMPLES
) -> dict[str, Any]:
    """Run A against run B, paired by cell.

    Agents and users are matched by name unless each run has only one (then those are what
    is compared); an unknown run id is a ``UsageError`` naming RUN_A or RUN_B.
    """
    runs, rows = [], []
    for flag, (db, path, run_id) in (("RUN_A", a), ("RUN_B", b)):
        try:
            runs.append(get_run(db, run_id))
        except UsageError:
            raise UsageError(
                f"{flag}: no run {run_id!r} in {path} (see `tau-sim runs --db {path}`)"
            ) from None
        rows.append(conversation_rows(db, run_id))
    matched = tuple(
        f for f in ROLE_FIELDS if not all(len({r[f] for r in side}) == 1 for side in rows)
    )
    sides = [
        _side(f"run {run['id']}", side, run_id=run["id"], db=path)
        for run, side, (_db, path, _id) in zip(runs, rows, (a, b), strict=True)
    ]
    hashes = [run.get("tasks_hash") for run in runs]
    result = _compare(
        rows[0],
        rows[1],
        (*matched, *CELL_FIELDS),
        sides,
        Bootstrap(resamples=resamples),
        count_errors=count_errors,
    )
    result["same_task_set"] = None if None in hashes else hashes[0] == hashes[1]
    return result


def compare_roles(
    sqlite: sqlite_utils.Database,
    run_id: str,
    role: str,
    names: Sequence[str],
    *,
    count_errors: bool = False,
    resamples: int = RESAMPLES,
) -> dict[str, Any]:
    """Two agents (``role`` "agent") or two user models ("user") of one run, paired by cell."""
    run = get_run(sqlite, run_id)
    rows = conversation_rows(sqlite, run_id)
    present = sorted({str(r[role]) for r in rows})
    name_a, name_b = names
    for name in (name_a, name_b):
        if name not in present:
            raise UsageError(
                f"--{role}s: no {role} {name!r} in run {run['id']} "
                f"(its {role}s: {', '.join(present) or 'none'})"
            )
    if name_a == name_b:
        raise UsageError(f"--{role}s: give two different {role}s (got {name_a!r} twice)")
    other = next(f for f in ROLE_FIELDS if f != role)
    side_rows = [[r for r in rows if r[role] == name] for name in (name_a, name_b)]
    sides = [
        _side(f"{role} {name}", part, run_id=run["id"], db=None)
        for name, part in zip((name_a, name_b), side_rows, strict=True)
    ]
    return _compare(
        side_rows[0],
        side_rows[1],
        (other, *CELL_FIELDS),
        sides,
        Bootstrap(resamples=resamples),
        count_errors=count_errors,
    )


def _side(
    label: str, rows: Sequence[dict[str, Any]], *, run_id: str, db: str | None
) -> dict[str, Any]:
    return {
        "label": label,
        "run_id": run_id,
        "db": db,
        "agents": sorted({str(r["agent"]) for r in rows}),
        "users": sorted({str(r["user"]) for r in rows}),
    }


def _compare(
    rows_a: Sequence[dict[str, Any]],
    rows_b: Sequence[dict[str, Any]],
    condition_fields: tuple[str, ...],
    sides: list[dict[str, Any]],
    bootstrap: Bootstrap,
    *,
    count_errors: bool,
) -> dict[str, Any]:
    """The paired figures of two sides whose cells are keyed by ``condition_fields`` + trial."""
    key_fields = (*condition_fields, *TRIAL_FIELDS)
    done_a, done_b = (
        {tuple(r[f] for f in key_fields): r for r in side if r["status"] == "completed"}
        for side in (rows_a, rows_b)
    )
    common = [key for key in done_a if key in done_b]
    if not common:
        raise UsageError(
            f"compare: {sides[0]['label']} and {sides[1]['label']} have no completed grid cell "
            f"in common (paired by {', '.join(key_fields)})"
        )
    pairs = [
        (key, done_a[key], done_b[key])
        for key in common
        if count_errors or not (is_excluded(done_a[key]) or is_excluded(done_b[key]))
    ]
    if not pairs:
        raise UsageError(
            "compare: every common cell has an endpoint or user-simulator error on one side "
            "(--count-errors counts them as failures)"
        )
    paired = {key for key, _a, _b in pairs}
    dropped = [key for key in common if key not in paired]
    infra = sum(1 for key in dropped if is_infra(done_a[key]) or is_infra(done_b[key]))
    width = len(condition_fields)
    groups: dict[tuple[Any, ...], list[tuple[tuple[Any, ...], bool, bool]]] = defaultdict(list)
    for key, a, b in pairs:
        groups[key[:width]].append((key, is_success(a), is_success(b)))
    every = [item for items in groups.values() for item in items]
    flipped = [
        {**_fields(key_fields, key), "a": "pass" if pa else "fail", "b": "pass" if pb else "fail"}
        for key, pa, pb in every
        if pa != pb
    ]
    return {
        "a": sides[0],
        "b": sides[1],
        "delta": "B minus A",
        "paired_by": list(key_fields),
        "left_out": {
            "only_in_a": sum(1 for key in done_a if key not in done_b),
            "only_in_b": sum(1 for key in done_b if key not in done_a),
            "not_completed": sum(r["status"] != "completed" for r in (*rows_a, *rows_b)),
            "infra_errors": infra,
            "user_errors": len(dropped) - infra,
        },
        "count_errors": count_errors,
        "intervals": {
            "method": "percentile bootstrap over tasks (domain x task id)",
            "level": bootstrap.level,
            "resamples": bootstrap.resamples,
            "seed": bootstrap.seed,
        },
        "overall": _figures(every, width, bootstrap),
        "conditions": [
            {**_fields(condition_fields, condition), **_figures(items, width, bootstrap)}
            for condition, items in groups.items()
        ],
        "flips": {
            side: {
                "cells": sum(1 for f in flipped if f[side] == "pass"),
                "tasks": sorted({str(f["task_id"]) for f in flipped if f[side] == "pass"}),
            }
            for side in ("a", "b")
        },
        "flipped_cells": flipped,
        "calibration_agents": sorted(
            {a for side in sides for a in side["agents"] if is_calibration_agent(a)}
        ),
    }


def _fields(names: Sequence[str], values: Sequence[Any]) -> dict[str, Any]:
    return {name: field_label(name, value) for name, value in zip(names, values, strict=True)}


def _figures(
    items: Sequence[tuple[tuple[Any, ...], bool, bool]], width: int, bootstrap: Bootstrap
) -> dict[str, Any]:
    """Success and pass^1 of A and B over paired cells, B minus A with intervals, flips.

    pass^1 is the mean over cells (a task under one condition) of the cell's success rate; a
    task resampled brings all its cells. ``a_only`` counts pairs where only A passed.
    """
    cells: dict[tuple[Any, ...], list[int]] = defaultdict(lambda: [0, 0, 0])
    for key, pa, pb in items:
        cell = cells[key[: width + 1]]  # the condition and the task id
        cell[0] += 1
        cell[1] += pa
        cell[2] += pb
    index: dict[tuple[Any, Any], int] = {}
    domain_at = width - len(CELL_FIELDS)  # the role fields come first
    for key in cells:
        index.setdefault((key[domain_at], key[width]), len(index))
    units = len(index)
    pairs, success_diff = [0.0] * units, [0.0] * units
    cell_count, pass_diff = [0.0] * units, [0.0] * units
    for key, (m, ca, cb) in cells.items():
        t = index[(key[domain_at], key[width])]
        pairs[t] += m
        success_diff[t] += cb - ca
        cell_count[t] += 1
        pass_diff[t] += (cb - ca) / m
    success_ci, pass_ci = bootstrap.ratios([(success_diff, pairs), (pass_diff, cell_count)])
    n = len(items)
    success_a = sum(pa for _, pa, _ in items) / n
    success_b = sum(pb for _, _, pb in items) / n
    pass_a = sum(ca / m for m, ca, _ in cells.values()) / len(cells)
    pass_b = sum(cb / m for m, _, cb in cells.values()) / len(cells)
    return {
        "cells": n,
        "tasks": units,
        "success_a": round(success_a, DIGITS),
        "success_b": round(success_b, DIGITS),
        "success_delta": round(success_b - success_a, DIGITS),
        "success_ci": success_ci,
        "pass_1_a": round(pass_a, DIGITS),
        "pass_1_b": round(pass_b, DIGITS),
        "pass_1_delta": round(pass_b - pass_a, DIGITS),
        "pass_1_ci": pass_ci,
        "a_only": sum(1 for _, pa, pb in items if pa and not pb),
        "b_only": sum(1 for _, pa, pb in items if pb and not pa),
    }
