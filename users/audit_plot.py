"""The PNG of ``tau-sim users audit --plot``: expressed against set intensity per family.

One panel per emotion family; one line per user kind through its rows' mean expressed
intensity at each set intensity (matplotlib, extra ``plot``).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

from tau_sim.simulator.results import pyplot, save_png


def draw(rows: list[dict[str, Any]], path: Path) -> None:
    """Write the PNG of ``rows`` (the card) to ``path``."""
    plt = pyplot()
    series: dict[str, dict[str, dict[float, list[float]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list))
    )
    for row in rows:
        series[row["family"]][row["user"]][row["intensity"]].append(row["expressed_intensity"])
    families = sorted(series)
    figure, axes = plt.subplots(1, len(families), figsize=(3.2 * len(families), 3), squeeze=False)
    for panel, family in zip(axes[0], families, strict=True):
        for user, points in sorted(series[family].items()):
            xs = sorted(points)
            ys = [sum(points[x]) / len(points[x]) for x in xs]
            panel.plot(xs, ys, marker="o", label=user)
        panel.set_title(family)
        panel.set_xlabel("set intensity")
        panel.set_ylim(0, 1)
    axes[0][0].set_ylabel("expressed (VADER valence)")
    axes[0][0].legend(fontsize=7)
    figure.tight_layout()
    save_png(plt, figure, path)
