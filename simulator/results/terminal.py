"""What the terminal tables of every command share: the console, and the text of their cells.

``stdout_console`` writes to stdout (a closed pipe is the CLI's quiet exit); ``cell`` escapes a
stored name for rich markup; ``figure_text`` and ``interval_text`` write a figure and its
interval the one way every table does.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape

from tau_sim.simulator.core.escapes import visible


def cell(text: str) -> str:
    """``text`` (a stored name, id, reason) for rich markup, printed as stored.

    Controls and format characters are escaped (``core.escapes.visible``), then markup's ``[``.
    """
    return escape(visible(text))


class _Console(Console):
    """A console whose closed stdout is a ``BrokenPipeError`` (the CLI's quiet exit 141)."""

    def on_broken_pipe(self) -> None:
        """Raise instead of rich's own ``SystemExit(1)``, so every command exits alike."""
        self.quiet = True
        raise BrokenPipeError


FILE_WIDTH = 1000
"""The width of tables and lines written where stdout is not a terminal (a file, a pipe, a log):
wide enough that every table takes its content's width, no column cut or shrunk."""


def stdout_console() -> Console:
    """A console for stdout: the terminal's width, or ``FILE_WIDTH`` where it is not one."""
    return _Console() if sys.stdout.isatty() else _Console(width=FILE_WIDTH)


def figure_text(value: float | None, pct: bool = False, digits: int = 3) -> str:
    """A figure as ``0.642`` (``digits``) or ``64%`` (``pct``); ``-`` for none."""
    if value is None:
        return "-"
    return f"{value:.0%}" if pct else f"{value:.{digits}f}"


def interval_text(interval: Sequence[float] | None, pct: bool = False, signed: bool = False) -> str:
    """An interval as ``.64-.81``, ``64-81%`` or (``signed``) ``-30%..+5%``; "" for none."""
    if interval is None:
        return ""
    low, high = interval
    if signed:
        return f"{low:+.0%}..{high:+.0%}"
    if pct:
        return f"{low * 100:.0f}-{high:.0%}"
    return f"{low:.2f}".removeprefix("0") + "-" + f"{high:.2f}".removeprefix("0")
