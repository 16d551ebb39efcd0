"""A table's cells painted before their columns were measured are painted again at the new width."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from tau_sim.tui.table import MeasuredTable
from tests.tui.runs import until

pytestmark = pytest.mark.anyio

LONG = "scripted/over-asker"


class _Tables(App[None]):
    CSS = "MeasuredTable { height: 6; }"  # a fixed size: a resize would paint it again anyway

    def compose(self) -> ComposeResult:
        yield MeasuredTable[str](id="table")


async def test_a_cell_painted_before_the_measurement_is_painted_again() -> None:
    app = _Tables()
    async with app.run_test(size=(80, 10)) as pilot:
        table = app.query_one(MeasuredTable)
        table.focus()
        await pilot.pause()
        table.add_column("agent", key="agent")
        table.add_row(LONG, key="row")
        # painted now, before the table is idle: the column is still as wide as its header
        assert LONG not in table.render_line(1).text
        await until(pilot, lambda: not table._require_update_dimensions)
        await pilot.pause()
        assert LONG in table.render_line(1).text
