"""Attached to a run whose process is killed (``kill -9``): once the run reads ``stale`` the
dashboard counts nothing live and says how to resume, and a ``--resume`` started elsewhere is
followed to the end. Real ``tau-sim run`` subprocesses, a real SQLite file."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import anyio
import pytest

from tau_sim.tui.app import TauSimApp
from tau_sim.tui.state import LIVE, STALE
from tests.helpers.cli import TAU_SIM
from tests.tui.runs import stored_counts, until
from tests.tui.test_attach import _source_when_stored

pytestmark = pytest.mark.anyio

RUN_ARGS = "--domain retail --tasks 10 --agent scripted/gold --emotions frustration,neutral "
RUN_ARGS += "--intensities high --trials 2 --concurrency 8 --quiet --json"
RUN_ARGS += " --agent-arg latency=0.2 --user-arg latency=0.2"  # 40 conversations, about 10 s


async def test_a_killed_run_reads_stale_and_a_resume_elsewhere_is_followed(
    tmp_path: Path,
) -> None:
    db = tmp_path / "killed.db"
    command = [*TAU_SIM, "run", *RUN_ARGS.split(), "--db", str(db)]
    writer = await anyio.open_process(command, stdout=subprocess.DEVNULL)
    source = await _source_when_stored(db)
    app = TauSimApp(source, clock=time.time)
    async with app.run_test(size=(120, 40)) as pilot:
        state = app.state
        await until(pilot, lambda: state.done >= 1 and state.live >= 1, within=60)
        writer.send_signal(signal.SIGKILL)
        with anyio.fail_after(30):
            await writer.wait()  # reaped: its pid is gone
        await until(pilot, lambda: source.info.status == "stale" and state.live == 0, within=30)
        await pilot.pause(0.3)  # a tick or two after
        statuses = {c.status for c in state.conversations.values()}
        assert LIVE not in statuses and STALE in statuses
        summary = app.dashboard.summary
        title = str(summary.query_one("#run-title").render())
        figures = str(summary.query_one("#run-figures").render())
        assert f"tau-sim run --resume {source.info.run_id} --db {db}" in title
        assert "live 0" in figures and "ETA -" in figures
        elapsed = figures.split("elapsed ")[1].split()[0]
        await pilot.pause(1.2)  # the figures are redrawn once a second: time has stopped
        figures = str(summary.query_one("#run-figures").render())
        assert figures.split("elapsed ")[1].split()[0] == elapsed
        done_before = state.done

        resume = [*TAU_SIM, "run", "--resume", source.info.run_id, "--db", str(db), "--quiet"]
        async with await anyio.open_process(resume, stdout=subprocess.DEVNULL) as again:
            await until(pilot, lambda: source.info.status == "running", within=30)
            await until(pilot, lambda: app.settled, within=90)
            with anyio.fail_after(30):
                assert await again.wait() == 0
        await pilot.pause(0.3)
        rows = app.dashboard.table.row_count
    stored = stored_counts(db, source.info.run_id)
    assert stored["completed"] == 40 and source.info.status == "completed"
    assert state.done == 40 > done_before and state.live == 0
    assert {c.status for c in state.conversations.values()} <= {"passed", "failed", "abandoned"}
    assert rows == 40
