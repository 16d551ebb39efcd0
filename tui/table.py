"""``MeasuredTable``: a ``DataTable`` whose cells are painted again once their columns are measured.

A ``DataTable`` measures new rows and changed cells when its message queue is idle, but caches
each painted cell under a key that leaves out the column's width. A cell painted between
``add_row`` and that idle measurement (on a loaded machine, the cursor's row or a whole small
table) would stay cut to the width its column had before, beside rows painted at the new width.
"""

from __future__ import annotations

from typing import TypeVar

from textual import events
from textual.widgets import DataTable

CellT = TypeVar("CellT")


class MeasuredTable(DataTable[CellT]):
    """A ``DataTable`` that paints every cell again after an idle measurement of its columns."""

    async def _on_idle(self, event: events.Idle) -> None:
        measuring = bool(self._updated_cells or self._require_update_dimensions)
        await super()._on_idle(event)
        if measuring:
            # the update count is part of every paint cache's key; bumping it drops them all
            self._update_count += 1
            self.refresh()
