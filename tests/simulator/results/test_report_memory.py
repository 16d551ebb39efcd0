"""The report's figures and intervals, recomputed here straight from the conversations table.

The report aggregates in SQL and resamples one draw at a time (its memory does not grow with
tasks x resamples); these tests hold what it prints to an independent computation of the
documented method: pass^k and pass@k per cell, and the percentile bootstrap over tasks with
the draws ``random.Random("tau-sim:UNITS").choices(range(UNITS), k=UNITS)``.
"""

from __future__ import annotations

import json
import random
import sqlite3
import tracemalloc
from collections import defaultdict
from collections.abc import Sequence
from contextlib import closing
from math import comb
from pathlib import Path
from typing import Any

import pytest

from tau_sim.simulator.core.endings import SUCCESS_EPS
from tau_sim.simulator.results.stats import Bootstrap
from tests.helpers.cli import tau_sim

RESAMPLES = 300
TRIALS = 3
CELL_FIELDS = ("task_id", "agent", "user", "domain", "emotion", "intensity")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(``tau-sim report --json``, the stored conversation rows in cell order) of a small run:
    gold and sloppy, neutral and frustration, 8 tasks x 3 trials."""
    db = tmp_path_factory.mktemp("report") / "r.db"
    tau_sim(
        "run",
        *("--tasks", "8", "--trials", str(TRIALS), "--seed", "5"),
        *("--agent", "scripted/gold,scripted/sloppy", "--emotions", "neutral,frustration"),
        *("--db", str(db), "--quiet"),
    )
    data = report_with(db)
    with closing(sqlite3.connect(db)) as conn:
        conn.row_factory = sqlite3.Row
        rows = [dict(r) for r in conn.execute("select * from conversations order by cell")]
    return data, rows


def report_with(db: Path) -> dict[str, Any]:
    """``tau-sim report --json --resamples RESAMPLES`` of the store."""
    out = tau_sim("report", "--json", "--resamples", str(RESAMPLES), "--db", str(db))
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def success(row: dict[str, Any]) -> int:
    return int((row["reward"] or 0.0) >= 1.0 - SUCCESS_EPS)


def quantile(ordered: Sequence[float], q: float) -> float:
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def percentile_interval(numerators: list[float], denominators: list[float]) -> list[float]:
    """The 95% interval of sum(num) / sum(den) over tasks drawn with the report's seed."""
    units = len(numerators)
    rng = random.Random(f"tau-sim:{units}")
    ratios = []
    for _ in range(RESAMPLES):
        idx = rng.choices(range(units), k=units)
        num, den = (
            # a column equal for every task sums to units x its value, whatever is drawn
            column[0] * units if min(column) == max(column) else sum(column[i] for i in idx)
            for column in (numerators, denominators)
        )
        if den > 0:
            ratios.append(num / den)
    ratios.sort()
    return [round(quantile(ratios, 0.025), 4), round(quantile(ratios, 0.975), 4)]


def expected(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of ``rows`` (completed, none an endpoint error here), computed directly."""
    assert all(r["status"] == "completed" and r["reason"] != "infra_error" for r in rows)
    cells: dict[tuple[Any, ...], list[int]] = defaultdict(lambda: [0, 0])
    tasks: dict[tuple[str, str], list[float]] = {}
    for r in rows:
        cell = cells[tuple(r[f] for f in CELL_FIELDS)]
        cell[0] += 1
        cell[1] += success(r)
        per_task = tasks.setdefault((r["domain"], r["task_id"]), [0.0, 0.0])
        per_task[0] += success(r)
        per_task[1] += 1
    figures: dict[str, Any] = {
        "n": len(rows),
        "success_rate": round(sum(map(success, rows)) / len(rows), 4),
        "tasks": len(tasks),
        "success_ci": percentile_interval(
            [t[0] for t in tasks.values()], [t[1] for t in tasks.values()]
        ),
    }
    for k in range(1, TRIALS + 1):
        hat = [comb(c, k) / comb(n, k) for n, c in cells.values()]
        at = [1 - comb(n - c, k) / comb(n, k) for n, c in cells.values()]
        figures[f"pass^{k}"] = round(sum(hat) / len(hat), 4)
        figures[f"pass@{k}"] = round(sum(at) / len(at), 4)
        per_task: dict[tuple[str, str], list[float]] = {t: [0.0, 0.0] for t in tasks}
        for key, (n, c) in cells.items():
            entry = per_task[(key[CELL_FIELDS.index("domain")], key[0])]
            entry[0] += comb(c, k) / comb(n, k)
            entry[1] += 1
        figures[f"pass^{k}_ci"] = percentile_interval(
            [v[0] for v in per_task.values()], [v[1] for v in per_task.values()]
        )
    return figures


def observed(figures: dict[str, Any]) -> dict[str, Any]:
    """The same figures as the report gives them."""
    out = {
        "n": figures["n"],
        "success_rate": figures["success_rate"],
        "tasks": figures["tasks"],
        "success_ci": figures["ci"]["success_rate"],
    }
    for k in range(1, TRIALS + 1):
        out[f"pass^{k}"] = figures["pass_hat_k"][str(k)]
        out[f"pass@{k}"] = figures["pass_at_k"][str(k)]
        out[f"pass^{k}_ci"] = figures["ci"]["pass_hat_k"][str(k)]
    return out


def test_the_reports_figures_and_intervals_are_the_conversations_tables(
    played: tuple[dict[str, Any], list[dict[str, Any]]],
) -> None:
    data, rows = played
    assert data["intervals"]["resamples"] == RESAMPLES and data["intervals"]["seed"] == "tau-sim"
    assert observed(data) == expected(rows)
    by_condition = {(c["agent"], c["emotion"]): c for c in data["conditions"]}
    assert len(by_condition) == 4
    for (agent, emotion), figures in by_condition.items():
        subset = [r for r in rows if r["agent"] == agent and r["emotion"] == emotion]
        assert observed(figures) == expected(subset), (agent, emotion)
    sloppy = by_condition[("scripted/sloppy", "neutral")]
    assert 0 < sloppy["success_rate"] < 1  # the intervals resampled something


def test_the_bootstraps_draws_are_random_choices_of_the_seed() -> None:
    """The draws made one at a time are ``random.choices`` of the seeded generator."""
    for units in (2, 7, 1000):
        rng = random.Random(f"s:{units}")
        drawn = [rng.choices(range(units), k=units) for _ in range(50)]
        assert list(Bootstrap("s", resamples=50).draws(units)) == drawn


def test_the_bootstrap_keeps_no_draws() -> None:
    """2,000 resamples of 3,000 tasks: keeping the draws would hold 6,000,000 indices (48 MB
    of pointers alone); one draw at a time stays within a few megabytes."""
    values = [float(i % 3 == 0) for i in range(3000)]
    tracemalloc.start()
    try:
        interval = Bootstrap(resamples=2000).ratios([(values, [1.0] * len(values))])[0]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert interval is not None and interval[0] < sum(values) / len(values) < interval[1]
    assert peak < 4_000_000, peak
