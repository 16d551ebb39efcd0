"""matplotlib for the ``--plot`` options, and the PNG each of them writes.

pyplot is loaded on demand on the off-screen backend and refused in one line when absent; a
figure is written the way every other output is written (``write_outputs``).
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from tau_sim.simulator.core import UsageError
from tau_sim.simulator.store import check_output, write_outputs


def pyplot() -> Any:
    """``matplotlib.pyplot`` on the Agg backend; a ``UsageError`` naming the extra when missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise UsageError("--plot needs matplotlib: pip install 'tau-sim[plot]'") from None
    return plt


def check_plot(path: Path) -> None:
    """Refuse, before any work, a ``--plot`` that cannot be drawn or written (``UsageError``)."""
    pyplot()
    check_output(path, force=True, flag="--plot")


def save_png(plt: Any, figure: Any, path: Path) -> None:
    """Write ``figure`` to ``path`` as a PNG and close it; a ``UsageError`` when it cannot."""
    buffer = io.BytesIO()
    try:
        figure.savefig(buffer, format="png", dpi=100)
    finally:
        plt.close(figure)
    try:
        write_outputs({path: buffer.getvalue()}, force=True, flag="--plot")
    except OSError as exc:
        raise UsageError(f"--plot {path}: cannot write: {exc.strerror}") from None
