"""Report-memory benchmark: the peak RSS of ``tau-sim report`` against the number of tasks.

For each task count (default 1,000 and 10,000) ``tau-sim domains generate retail --count N``
writes that many tasks, ``tau-sim run --tasks-file`` plays each once (one condition, the
scripted user and the ``scripted/sloppy`` agent, whose failures give the intervals something
to resample) into a new store, and a fresh process computes ``tau-sim report --json`` from it.
Printed per count: the conversations, the report's peak RSS (``rss_report_mb``), its wall time
(``report_s``) and both as ratios against the first count: the claim is that memory stays
nearly flat (a ratio near 1 for ten times the tasks; before issue 26 it grew with tasks x
bootstrap resamples, 850 MB for 10,000 tasks). Time is printed, never a claim: the report
resamples every task 2,000 times. The scripted agents calibrate the harness; they are not
benchmark subjects.

Usage: python benchmarks/report_memory.py [--tasks 1000,10000] [--quick] [--json]
(``--quick``: 100 and 1,000 tasks.)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

TAU_SIM = [sys.executable, "-m", "tau_sim.simulator.cli.main"]
AGENT = "scripted/sloppy"


def play(tasks: int, folder: Path) -> Path:
    """A store holding one run of ``tasks`` generated retail tasks, each played once."""
    task_file = folder / f"tasks-{tasks}.jsonl"
    db = folder / f"report-{tasks}.db"
    for args in (
        ["domains", "generate", "retail", "--count", str(tasks), "--out", str(task_file)],
        ["run", "--tasks-file", str(task_file), "--agent", AGENT, "--db", str(db), "--quiet"],
    ):
        out = subprocess.run(
            [*TAU_SIM, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        if out.returncode != 0:
            raise SystemExit(f"tau-sim {' '.join(args)} failed:\n{out.stderr}")
    return db


def report(db: str) -> dict[str, Any]:
    """``tau-sim report --json`` of the store in this process: its wall time and peak RSS."""
    from tau_sim.simulator.cli.main import main

    t0 = time.perf_counter()
    with open(os.devnull, "w") as sink, redirect_stdout(sink):
        code = main(["report", "--json", "--db", db])
    if code != 0:
        raise SystemExit(f"tau-sim report exited {code}")
    return {
        "report_s": round(time.perf_counter() - t0, 2),
        "rss_report_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def measure(tasks: int, folder: Path) -> dict[str, Any]:
    """The figures of one task count: play the run, then report it in a fresh process."""
    db = play(tasks, folder)
    out = subprocess.run(
        [sys.executable, __file__, "--report", str(db)], capture_output=True, text=True
    )
    if out.returncode != 0:
        raise SystemExit(f"report of {db} failed:\n{out.stderr}")
    return {"tasks": tasks, **json.loads(out.stdout.splitlines()[-1])}


def main() -> None:
    """Parse the options, measure each task count, print the table (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", default="1000,10000", help="comma-separated task counts")
    parser.add_argument("--quick", action="store_true", help="100 and 1,000 tasks")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--report", help=argparse.SUPPRESS)  # the child: report one store
    args = parser.parse_args()
    if args.report:
        print(json.dumps(report(args.report)))
        return
    counts = [100, 1000] if args.quick else [int(n) for n in args.tasks.split(",")]
    with tempfile.TemporaryDirectory(prefix="report-memory-") as folder:
        rows = [measure(n, Path(folder)) for n in counts]
    base = rows[0]
    for row in rows:
        row["ratio"] = {f: round(row[f] / base[f], 2) for f in ("rss_report_mb", "report_s")}
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'tasks':>7} {'rss_report_mb':>14} {'ratio':>6} {'report_s':>9} {'ratio':>6}")
    for row in rows:
        print(
            f"{row['tasks']:>7} {row['rss_report_mb']:>14.1f} "
            f"{row['ratio']['rss_report_mb']:>6.2f} {row['report_s']:>9.2f} "
            f"{row['ratio']['report_s']:>6.2f}"
        )
    print(f"agent {AGENT} (a calibration agent, not a benchmark subject), one trial each")


if __name__ == "__main__":
    main()
