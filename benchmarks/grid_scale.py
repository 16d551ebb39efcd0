"""Grid-size benchmark: start-up, memory and disk of a run against the size of its grid.

For each grid size (default 10^3, 10^5 and 10^6 cells: the first 50 retail tasks x trials,
scripted/gold agent and scripted user, no model latency) a fresh process plays the run into a
new SQLite store; the smallest grid is played whole, every larger one is stopped through the
runner's interrupt after ``--stop`` conversations (as many as the smallest grid holds), so each
store holds the same work. Then a second fresh process computes the run's report from the
store, and ``tau-sim run --dry-run`` counts the grid. Printed per grid:

- ``first_s``: seconds from opening the store to the first conversation started (the run's
  row, the pending cells and the first admission included; imports are not);
- ``rss_run_mb`` / ``rss_report_mb``: the peak RSS of the playing and of the reporting process;
- ``dry_run_s``: wall time of ``tau-sim run --dry-run`` (a whole process);
- ``bytes_per_conv``: the store's size over the conversations it holds.

Each figure is also given as a ratio against the first (smallest) grid: the claim is that
they stay flat. With ``--before BYTES`` (the bytes per conversation an older tau-sim needed
on the grid played whole, measured with that release: 17,699 for 10^3 cells before issue 14's
part 4), ``bytes_per_conv`` of each grid played whole is also given as a ratio against it
(``vs_before``); a stopped grid holds other conversations (the first cells: the first task's
trials), so it gets none. The run has an id of the form ``tau-sim run`` gives
(``grid.new_run_id``), so every event's conversation id is as long as in a real run. The
scripted agents calibrate the harness; they are not benchmark subjects.

Usage: python benchmarks/grid_scale.py [--sizes 1000,100000,1000000] [--stop N] [--quick]
[--before BYTES] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TASKS = 50
"""Tasks of the grid (the first 50 retail tasks); the trials make up its size."""
FIGURES = ("first_s", "rss_run_mb", "rss_report_mb", "dry_run_s", "bytes_per_conv")


def grid_args(size: int) -> list[str]:
    """The ``tau-sim run`` grid flags of a grid of ``size`` cells (a multiple of ``TASKS``)."""
    return ["--domain", "retail", "--tasks", str(TASKS), "--trials", str(size // TASKS)]


def peak_rss_mb() -> float:
    """Peak RSS of this process in MB (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def play_grid(size: int, stop: int, db: Path, run_id: str) -> dict[str, Any]:
    """Play the grid of ``size`` cells into ``db`` as ``run_id`` until ``stop`` ended."""
    import anyio

    from tau_sim.simulator.core.events import Event
    from tau_sim.simulator.core.registry import get_domain, load_plugins
    from tau_sim.simulator.engine.bus import LiveFeed
    from tau_sim.simulator.grid import RunConfig
    from tau_sim.simulator.run import Runner, backend_options
    from tau_sim.simulator.store import Store

    load_plugins()
    tasks = [t.id for t in get_domain("retail").tasks[:TASKS]]
    config = RunConfig(domains=["retail"], tasks=tasks, trials=size // TASKS, seed=1)

    class FirstStart(LiveFeed):
        """Notes when the first event (a conversation's start) is published."""

        first: float | None = None

        def offer(self, event: Event) -> bool:
            if self.first is None:
                self.first = time.perf_counter()
            return True

    feed = FirstStart()
    ended = 0
    t0 = time.perf_counter()
    store = Store(db)
    runner: Runner | None = None

    def count(cell: object, event: object) -> None:
        nonlocal ended
        ended += 1
        if ended == stop and runner is not None:
            runner.interrupt()

    runner = Runner(store, config, run_id, create=True, feed=feed, on_end=count)
    anyio.run(runner.run, backend_options=backend_options())
    wall = time.perf_counter() - t0
    store.close_sync()
    conn = sqlite3.connect(db)
    completed = conn.execute(
        "select count(*) from conversations where status = 'completed'"
    ).fetchone()[0]
    conn.execute("pragma wal_checkpoint(truncate)")
    conn.close()
    size_bytes = db.stat().st_size + _size(Path(f"{db}-wal"))
    return {
        "cells": size,
        "conversations": completed,
        "first_s": (feed.first or time.perf_counter()) - t0,
        "run_s": wall,
        "rss_run_mb": peak_rss_mb(),
        "store_bytes": size_bytes,
        "bytes_per_conv": size_bytes / max(completed, 1),
    }


def _size(path: Path) -> int:
    return path.stat().st_size if path.exists() else 0


def report(db: Path, run_id: str) -> dict[str, Any]:
    """Compute the stored run's report (as ``tau-sim report`` does) and time it."""
    from tau_sim.simulator.core.registry import load_plugins
    from tau_sim.simulator.results.metrics import run_report
    from tau_sim.simulator.store import get_run, open_database

    load_plugins()
    t0 = time.perf_counter()
    store = open_database(db, readonly=True)
    figures = run_report(store, get_run(store, run_id))
    return {
        "report_s": time.perf_counter() - t0,
        "rss_report_mb": peak_rss_mb(),
        "reported": figures["completed"],
    }


def child(*args: str) -> dict[str, Any]:
    """Run this script in a fresh process (one measurement each) and read its JSON line."""
    out = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, check=False
    )
    if out.returncode != 0:
        raise SystemExit(f"grid_scale {' '.join(args)} failed:\n{out.stderr}")
    return dict(json.loads(out.stdout.splitlines()[-1]))


def dry_run(size: int) -> float:
    """Wall seconds of ``tau-sim run --dry-run`` on the grid (a whole process)."""
    t0 = time.perf_counter()
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "tau_sim.simulator.cli.main",
            "run",
            *grid_args(size),
            "--dry-run",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        raise SystemExit(f"--dry-run failed:\n{out.stderr}")
    counted = json.loads(out.stdout)["conversations"]
    if counted != size:
        raise SystemExit(f"--dry-run counted {counted} conversations, expected {size}")
    return time.perf_counter() - t0


def measure(size: int, stop: int, folder: Path) -> dict[str, Any]:
    """Every figure of one grid size."""
    from tau_sim.simulator.grid import new_run_id

    db = folder / f"grid-{size}.db"
    run_id = new_run_id()
    row = child("--play", str(size), str(stop), str(db), run_id)
    row.update(child("--report", str(db), run_id))
    row["dry_run_s"] = dry_run(size)
    return row


def with_ratios(rows: list[dict[str, Any]], before: float | None) -> list[dict[str, Any]]:
    """Each figure also as a ratio against the first row's (and bytes against ``before``)."""
    base = rows[0]
    for row in rows:
        row["ratio"] = {f: row[f] / base[f] if base[f] else float("nan") for f in FIGURES}
        if before:
            whole = row["conversations"] >= row["cells"]
            row["vs_before"] = row["bytes_per_conv"] / before if whole else None
    return rows


def print_table(rows: list[dict[str, Any]]) -> None:
    print(
        f"{'cells':>9} {'stored':>7} {'first_s':>13} {'rss_run_mb':>15} "
        f"{'rss_report_mb':>15} {'dry_run_s':>13} {'bytes/conv':>15} {'report_s':>9}"
        + (f" {'vs_before':>9}" if "vs_before" in rows[0] else "")
    )
    for r in rows:
        q = r["ratio"]
        print(
            f"{r['cells']:>9} {r['conversations']:>7} "
            f"{r['first_s']:>6.2f} ({q['first_s']:>4.1f}x) "
            f"{r['rss_run_mb']:>7.0f} ({q['rss_run_mb']:>4.2f}x) "
            f"{r['rss_report_mb']:>7.0f} ({q['rss_report_mb']:>4.2f}x) "
            f"{r['dry_run_s']:>6.2f} ({q['dry_run_s']:>4.2f}x) "
            f"{r['bytes_per_conv']:>7.0f} ({q['bytes_per_conv']:>4.2f}x) "
            f"{r['report_s']:>9.2f}" + (f" {_ratio(r['vs_before']):>9}" if "vs_before" in r else "")
        )
    print("scripted/gold agent and scripted user calibrate the harness: not benchmark subjects")


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,100000,1000000")
    parser.add_argument("--stop", type=int, default=None, help="conversations per grid")
    parser.add_argument("--quick", action="store_true", help="tiny grids for CI")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--before",
        type=float,
        metavar="BYTES",
        help="bytes per conversation an older release needed on the played grid",
    )
    parser.add_argument(
        "--play", nargs=4, metavar=("SIZE", "STOP", "DB", "RUN"), help=argparse.SUPPRESS
    )
    parser.add_argument("--report", nargs=2, metavar=("DB", "RUN"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        size, stop, db, run_id = args.play
        print(json.dumps(play_grid(int(size), int(stop), Path(db), run_id)))
        return
    if args.report:
        print(json.dumps(report(Path(args.report[0]), args.report[1])))
        return
    sizes = [100, 1000, 5000] if args.quick else [int(s) for s in args.sizes.split(",")]
    if any(s % TASKS or s < TASKS for s in sizes):
        raise SystemExit(f"--sizes: each size must be a positive multiple of {TASKS}")
    stop = args.stop or min(sizes)
    with tempfile.TemporaryDirectory(dir=os.environ.get("GRID_SCALE_TMP")) as tmp:
        rows = with_ratios([measure(size, stop, Path(tmp)) for size in sizes], args.before)
    if args.json:
        print(json.dumps(rows))
    else:
        print_table(rows)


if __name__ == "__main__":
    main()
