"""Human-played against simulated users on the same cells (``tau-sim report --compare-users``).

A cell here is a task under one condition against one agent: (agent, domain, task, emotion,
intensity, politeness, urgency, trust). Conversations whose user is ``human`` are paired with
those of every other user on the same cells, wherever in the database they were stored (a
human session and a scripted run are usually two runs). Per simulated user: on the shared
cells, success, abandonment and mean turns of both sides, and how far the simulator's
intensity trajectory is from the person's: per cell, the mean over turn indexes both reached of
|simulated - human| intensity (the ``EmotionUpdate`` of each user message, in order); the
figure is the mean over cells, and ``by_turn`` the mean difference at each turn index.
Endpoint errors are left out, as in every rate of the report.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import sqlite_utils
from rich.console import Console
from rich.table import Table

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.escapes import visible
from tau_sim.simulator.core.infra import INFRA_REASON, USER_ERROR_REASON
from tau_sim.simulator.results.counting import is_success
from tau_sim.simulator.results.terminal import cell as table_cell

HUMAN = "human"
CELL = ("agent", "domain", "task_id", "emotion", "intensity", "politeness", "urgency", "trust")


def _key(row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(row[c] for c in CELL)


def _trajectories(sqlite: sqlite_utils.Database, ids: list[str]) -> dict[str, list[float]]:
    found: dict[str, list[float]] = defaultdict(list)
    for chunk in range(0, len(ids), 500):
        part = ids[chunk : chunk + 500]
        marks = ",".join("?" * len(part))
        rows = sqlite.execute(
            "select conversation, payload from events where kind = 'emotion_update' "
            f"and conversation in ({marks}) order by conversation, seq",
            part,
        )
        for conversation, payload in rows:
            found[conversation].append(float(json.loads(payload)["intensity"]))
    return found


def _side(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    return {
        "n": n,
        "success_rate": sum(map(is_success, rows)) / n if n else None,
        "abandonment_rate": sum(r["reason"] == "user_abandoned" for r in rows) / n if n else None,
        "mean_turns": sum(r["turns"] or 0 for r in rows) / n if n else None,
    }


def compare_users(sqlite: sqlite_utils.Database, run_id: str | None = None) -> dict[str, Any]:
    """Human against each simulated user on their shared cells (``run_id``: its human side only).

    Raises:
        UsageError: no human-played conversation, or none shares a cell with a simulated one.
    """
    rows = [
        dict(r)
        for r in sqlite.query(
            "select * from conversations where status = 'completed' and reason is not ? "
            "and reason is not ?",
            [INFRA_REASON, USER_ERROR_REASON],
        )
    ]
    human = [r for r in rows if r["user"] == HUMAN and (run_id is None or r["run_id"] == run_id)]
    if not human:
        where = f"run {run_id}" if run_id else "this database"
        raise UsageError(f"--compare-users: {where} has no conversation played by a person")
    by_cell: dict[tuple[Any, ...], list[dict[str, Any]]] = defaultdict(list)
    for row in human:
        by_cell[_key(row)].append(row)
    simulated: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        if row["user"] != HUMAN and _key(row) in by_cell:
            simulated[row["user"]].append(row)
    if not simulated:
        raise UsageError(
            "--compare-users: no simulated user played the cells the person played (run the "
            "same agent, tasks and conditions with e.g. --user scripted)"
        )
    paths = _trajectories(
        sqlite, [r["id"] for r in human + [x for v in simulated.values() for x in v]]
    )
    users = []
    for name, sim_rows in sorted(simulated.items()):
        cells = {_key(r) for r in sim_rows}
        people = [r for r in human if _key(r) in cells]
        distances: list[float] = []
        per_turn: dict[int, list[float]] = defaultdict(list)
        for cell in sorted(cells, key=repr):
            for person in by_cell[cell]:
                for sim in (r for r in sim_rows if _key(r) == cell):
                    a, b = paths.get(sim["id"], []), paths.get(person["id"], [])
                    diffs = [abs(x - y) for x, y in zip(a, b, strict=False)]
                    if diffs:
                        distances.append(sum(diffs) / len(diffs))
                    for index, diff in enumerate(diffs):
                        per_turn[index].append(diff)
        users.append(
            {
                "user": name,
                "cells": len(cells),
                "human": _side(people),
                "simulated": _side(sim_rows),
                "intensity_distance": sum(distances) / len(distances) if distances else None,
                "pairs": len(distances),
                "by_turn": [
                    {"turn": i + 1, "mean_abs_difference": sum(d) / len(d), "pairs": len(d)}
                    for i, d in sorted(per_turn.items())
                ],
            }
        )
    return {"run_id": run_id, "human_conversations": len(human), "users": users}


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def print_compare_users(result: dict[str, Any], console: Console) -> None:
    """The comparison as a table: one row per side of each simulated user."""
    table = Table(title="Human-played vs simulated users (same agent, task and condition)")
    for column in ("user", "cells", "n", "success", "abandoned", "turns", "|intensity diff|"):
        table.add_column(column, justify="left" if column == "user" else "right")
    for entry in result["users"]:
        for side in ("human", "simulated"):
            figures = entry[side]
            table.add_row(
                HUMAN if side == "human" else table_cell(entry["user"]),
                str(entry["cells"]),
                str(figures["n"]),
                _pct(figures["success_rate"]),
                _pct(figures["abandonment_rate"]),
                _num(figures["mean_turns"]),
                _num(entry["intensity_distance"]) if side == "simulated" else "",
            )
    console.print(table)
    for entry in result["users"]:
        turns = ", ".join(f"{t['turn']}: {t['mean_abs_difference']:.2f}" for t in entry["by_turn"])
        if turns:
            user = visible(entry["user"])
            console.print(f"intensity |{user} - human| by turn: {turns}", markup=False)
