"""Figures, tables and exports computed from a store: pass^k with intervals, costs, comparisons.

Every figure is read from the SQLite store (the run's truth), never from memory, so a stored run
can be reported, compared, exported and reviewed at any later time.

Each name is imported from its module on first use (``core.exports.lazy_names``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tau_sim.simulator.core.exports import lazy_names

if TYPE_CHECKING:
    from tau_sim.simulator.results.counting import condition_of, counted, total
    from tau_sim.simulator.results.export import open_target
    from tau_sim.simulator.results.metrics import conversation_rows
    from tau_sim.simulator.results.plotting import check_plot, pyplot, save_png
    from tau_sim.simulator.results.stats import pass_hat_k
    from tau_sim.simulator.results.tags import tag_kind
    from tau_sim.simulator.results.terminal import stdout_console

MODULE_OF = {
    "check_plot": "plotting",
    "condition_of": "counting",
    "conversation_rows": "metrics",
    "counted": "counting",
    "open_target": "export",
    "pass_hat_k": "stats",
    "tag_kind": "tags",
    "pyplot": "plotting",
    "stdout_console": "terminal",
    "save_png": "plotting",
    "total": "counting",
}
"""The module of this package that defines each public name."""

__all__ = [
    "check_plot",
    "condition_of",
    "conversation_rows",
    "counted",
    "open_target",
    "pass_hat_k",
    "pyplot",
    "save_png",
    "stdout_console",
    "tag_kind",
    "total",
]

__getattr__ = lazy_names(__name__, globals(), MODULE_OF)
