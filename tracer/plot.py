"""The PNG of ``tracer stats --plot``: one row of panels per agent (matplotlib, extra ``plot``).

Each agent's row: two binned heatmaps, tool executions against necessary and against needless
follow-up questions (a cell's colour is its success rate, its text the number of
conversations and that rate; counts past ``CAP`` share the last row or column), the success
rate per balance bin as bars labelled with their counts, and per emotion the mean necessary
and needless questions with the success rate. Scripted agents are marked as
calibrating the harness in their titles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tau_sim.simulator.results import pyplot, save_png
from tau_sim.tracer.stats import Point, binned, grouped

COLUMNS = ("necessary", "needless")
CAP = 10
"""Counts of ``CAP`` or more fall in the last heatmap row or column (labelled ``10+``)."""


def _capped(value: int) -> int:
    return min(value, CAP)


def _heatmap(axes: Any, found: Sequence[Point], column: str, size: tuple[int, int]) -> Any:
    """Tools (rows) against one question figure (columns), coloured by success rate.

    ``size`` is (columns, rows), the same for every agent so that their panels compare.
    """
    width, height = size
    cells: dict[tuple[int, int], list[bool]] = {}
    for p in found:
        cells.setdefault((_capped(p.tools), _capped(getattr(p, column))), []).append(p.success)
    grid = [[float("nan")] * width for _ in range(height)]
    for (y, x), wins in cells.items():
        grid[y][x] = sum(wins) / len(wins)
        axes.text(x, y, f"{len(wins)}\n{grid[y][x]:.0%}", ha="center", va="center", fontsize=7)
    image = axes.imshow(grid, origin="lower", cmap="RdYlGn", vmin=0.0, vmax=1.0, aspect="auto")
    for ticks, count in ((axes.set_xticks, width), (axes.set_yticks, height)):
        ticks(range(count), [str(i) if i < CAP else f"{CAP}+" for i in range(count)])
    axes.set_xlabel(f"{column} follow-up questions (the user's tags)")
    axes.set_ylabel("tool executions")
    return image


def _bars(axes: Any, found: Sequence[Point]) -> None:
    """Success rate per balance bin, each bar labelled with its conversations."""
    rows = binned(found)
    labels = [r["balance"] for r in rows]
    rates = [r["success_rate"] or 0.0 for r in rows]
    bars = axes.bar(labels, rates, color="tab:blue")
    for bar, row in zip(bars, rows, strict=True):
        n = row["conversations"]
        axes.annotate(
            f"n={n}",
            (bar.get_x() + bar.get_width() / 2, bar.get_height()),
            ha="center",
            va="bottom",
            fontsize=7,
        )
    axes.set_ylim(0, 1.15)
    axes.set_xlabel("balance: (tools + necessary) / (tools + necessary + needless)")
    axes.set_ylabel("success rate")
    axes.tick_params(axis="x", labelsize=7)


def _emotions(axes: Any, found: Sequence[Point]) -> None:
    """Per emotion, intensities together: mean necessary and needless questions, success rate.

    Horizontal bars, one pair per emotion; its label gives its conversations and success rate.
    """
    rows = grouped(found, ("emotion",))[::-1]  # neutral on top
    at = list(range(len(rows)))
    for shift, column, colour in ((0.2, "necessary", "tab:green"), (-0.2, "needless", "tab:red")):
        axes.barh(
            [y + shift for y in at],
            [r["means"][column] for r in rows],
            height=0.4,
            color=colour,
            label=f"{column} questions",
        )
    labels = [
        f"{r['emotion']} (n={r['conversations']}, {r['success_rate']:.0%} success)" for r in rows
    ]
    axes.set_yticks(at, labels, fontsize=7)
    axes.set_xlabel("questions per conversation")
    widest = max((r["means"][c] or 0.0 for r in rows for c in ("necessary", "needless")), default=0)
    axes.set_xlim(0, max(widest, 1.0) * 1.45)  # room at the right for the legend
    axes.legend(loc="center right", fontsize=7)


def draw(found: Sequence[Point], path: Path, calibration: Callable[[str], bool]) -> None:
    """Draw ``found`` (module docstring) and write it to ``path`` whole (``UsageError``)."""
    plt = pyplot()
    agents = sorted({p.agent for p in found})
    figure, grid = plt.subplots(
        len(agents), 4, figsize=(21, 4.6 * len(agents)), squeeze=False, layout="constrained"
    )
    tools = max(_capped(p.tools) for p in found) + 1
    sizes = {c: (max(_capped(getattr(p, c)) for p in found) + 1, tools) for c in COLUMNS}
    image = None
    for row, agent in zip(grid, agents, strict=True):
        mine = [p for p in found if p.agent == agent]
        label = f"{agent} (n={len(mine)}{', calibrates the harness' if calibration(agent) else ''})"
        for axes, column in zip(row[:2], COLUMNS, strict=True):
            image = _heatmap(axes, mine, column, sizes[column])
            axes.set_title(f"{label}\ntools vs {column} questions", fontsize=9)
        _bars(row[2], mine)
        row[2].set_title(f"{label}\nsuccess rate by balance", fontsize=9)
        _emotions(row[3], mine)
        row[3].set_title(f"{label}\nquestions and success by emotion (all intensities)", fontsize=9)
    if image is not None:
        figure.colorbar(
            image, ax=grid[:, :2].ravel().tolist(), label="success rate (heatmaps)", shrink=0.6
        )
    runs = sorted({p.run_id for p in found})
    named = ", ".join(runs) if len(runs) <= 2 else f"{len(runs)} runs"
    title = f"Tool executions vs follow-up questions, success by balance: {named}"
    if any(calibration(a) for a in agents):
        title += "\n(scripted agents read the answer key: they calibrate the harness)"
    figure.suptitle(title, fontsize=11)
    save_png(plt, figure, path)
