"""The dashboard's elapsed time after a resume counts the earlier invocation, played here or
followed from the store, and leaves out the pause between them (issue 23, defect 8)."""

from __future__ import annotations

import re
import time
from pathlib import Path

import anyio
import pytest

from tau_sim.simulator.store import Store, get_run, open_database, played_seconds
from tau_sim.tui.app import TauSimApp
from tau_sim.tui.launch import live_source
from tau_sim.tui.sources import StoreSource
from tests.tui.runs import live_app, retail, stored_counts, until

pytestmark = pytest.mark.anyio

EARLIER_S = 3.0
"""Seconds the first invocation plays before it is stopped (more than the tolerance below)."""
ELAPSED = re.compile(r"elapsed (?:(\d+)h)?(?:(\d+)m)?(\d+)s")


def shown_elapsed(app: TauSimApp) -> int:
    """The elapsed seconds the dashboard's figures show (-1 before they show any)."""
    figures = str(app.dashboard.summary.query_one("#run-figures").render())
    found = ELAPSED.search(figures)
    if found is None:
        return -1
    h, m, s = (int(x or 0) for x in found.groups())
    return 3600 * h + 60 * m + s


def stored_run(db: Path) -> dict[str, object]:
    conn = open_database(db, readonly=True)
    try:
        return get_run(conn, "tui-run")
    finally:
        conn.conn.close()


def played_here(db: Path) -> float:
    """Seconds since the run playing into ``db`` was claimed (0: not yet)."""
    claimed = stored_run(db).get("claimed_at")
    return time.time() - claimed if isinstance(claimed, float) else 0.0


async def test_elapsed_after_a_resume_counts_the_earlier_part(tmp_path: Path) -> None:
    db = tmp_path / "resumed.db"
    tasks = 6
    slow = retail(tasks=tasks, concurrency=2, latency=0.1)  # 24 conversations, many seconds
    first = live_app(db, slow)
    async with first.run_test(size=(120, 40)) as pilot:
        await until(
            pilot, lambda: first.state.done >= 2 and played_here(db) >= EARLIER_S, within=60
        )
        await pilot.press("ctrl+c")
        await until(pilot, lambda: first.settled, within=30)
    row = stored_run(db)
    earlier = played_seconds(row)
    assert row["status"] == "interrupted" and earlier >= EARLIER_S
    kept = stored_counts(db, "tui-run")["completed"]

    # the rest at full speed
    await anyio.sleep(1.0)  # a pause between the invocations, not played time (no sync)
    store = Store(db, create=False)
    source = live_source(store, retail(tasks=tasks, concurrency=8), "tui-run", resume=True)
    resumed = TauSimApp(source)  # with the real clock
    async with resumed.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: source.info.started_at is not None, within=30)
        await until(pilot, lambda: shown_elapsed(resumed) >= int(earlier), within=30)
        await until(pilot, lambda: resumed.settled, within=60)
        await pilot.pause()
        shown = shown_elapsed(resumed)
    store.close_sync()
    final = stored_run(db)
    assert final["status"] == "completed" and final["earlier_s"] == earlier
    played = played_seconds(final)
    # the screen's clock starts a little before the store's claim and ends a little after it;
    # this invocation's time alone would read ``earlier`` (3 s or more) less
    assert played - 1 <= shown <= played + 2, (shown, played, earlier)

    followed = TauSimApp(StoreSource(db, "tui-run"))
    async with followed.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: followed.settled)
        assert followed.source.info.kept == kept  # left out of this invocation's rate
        await until(pilot, lambda: shown_elapsed(followed) >= 0)
        assert shown_elapsed(followed) == int(played)
