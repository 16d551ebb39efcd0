"""TUI benchmark: the same run of live scripted conversations, headless and under the TUI.

Each mode runs in a fresh process: ``--concurrency`` (default 512) retail conversations at once
(scripted/gold agent and scripted user, both waiting ``--latency`` seconds per call, as a model
would), ``--waves`` times over, into a new SQLite store. ``headless`` plays it as ``tau-sim run
--quiet`` does; ``tui`` plays it inside ``TauSimApp`` in Textual's headless mode (the whole
app: the live feed, the 10 Hz tick, the table of every conversation, layout and rendering).
The scripted agents calibrate the harness here; they are not benchmark subjects.

Prints, per mode, conversations/s between the run's start and its end and the process's CPU
seconds; then the throughput ratio (TUI / headless, goal >= 0.9), the screen updates per second
(ticks that changed what the screen shows), the CPU the tick itself took, and the UI's share of
the process's CPU ((CPU with the TUI - CPU headless) / CPU with the TUI).

Usage: python benchmarks/tui.py [--concurrency 512] [--latency 0.2] [--waves 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# this file is named like the package it measures: keep its folder off the import path
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]

import anyio  # noqa: E402

from tau_sim.simulator.core.endings import Limits  # noqa: E402
from tau_sim.simulator.core.registry import get_domain, load_plugins  # noqa: E402
from tau_sim.simulator.grid import RunConfig  # noqa: E402
from tau_sim.simulator.run import Player, Runner  # noqa: E402
from tau_sim.simulator.store import Store  # noqa: E402


def bench_config(concurrency: int, latency: float, waves: int) -> RunConfig:
    """``waves x concurrency`` scripted retail conversations, ``latency`` s per model call."""
    load_plugins()
    tasks = [t.id for t in get_domain("retail").tasks]
    return RunConfig(
        domains=["retail"],
        tasks=tasks,
        agents=["scripted/gold"],
        users=["scripted"],
        emotions=["frustration"],
        intensities=[0.6],
        trials=-(-concurrency * waves // len(tasks)),
        seed=1,
        concurrency=concurrency,
        limits=Limits(timeout_s=600),
        agent_options={"scripted/gold": {"latency": str(latency)}},
        user_options={"scripted": {"latency": str(latency)}},
    )


def headless(config: RunConfig, db: Path) -> dict[str, Any]:
    """Play the run as ``tau-sim run --quiet`` does (no viewer)."""
    store = Store(db)
    started: list[float] = []
    runner = Runner(
        store, config, "bench", create=True, on_start=lambda _: started.append(time.time())
    )
    cpu0 = time.process_time()
    anyio.run(runner.run)
    ended = time.time()
    cpu = time.process_time() - cpu0
    done = store.completed_count("bench")
    return {"conversations": done, "run_s": ended - started[0], "cpu_s": cpu}


def with_tui(config: RunConfig, db: Path) -> dict[str, Any]:
    """Play the run inside the TUI (Textual headless mode) and quit once it is over."""
    from textual.worker import Worker

    from tau_sim.tui.app import TauSimApp
    from tau_sim.tui.launch import live_source

    tick_cpu = [0.0]

    class BenchApp(TauSimApp):
        def tick(self) -> None:
            t0 = time.process_time()
            super().tick()
            tick_cpu[0] += time.process_time() - t0

        def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
            super().on_worker_state_changed(event)
            if self.done:
                self.exit()

    player = Player(config, "bench")
    player.prepare()
    store = Store(db)
    source = live_source(store, config, "bench", player)
    app = BenchApp(source)
    cpu0 = time.process_time()
    app.run(headless=True, size=(160, 50))
    cpu = time.process_time() - cpu0
    if source.error is not None:
        raise source.error
    info = source.info
    assert info.started_at is not None and info.ended_at is not None, (info, app.return_code)
    run_s = info.ended_at - info.started_at
    return {
        "conversations": store.completed_count("bench"),
        "run_s": run_s,
        "cpu_s": cpu,
        "screen_updates": app.updates,
        "updates_per_s": app.updates / run_s,
        "tick_cpu_s": tick_cpu[0],
        "rows": app.dashboard.table.row_count,
        "dropped": source.feed.dropped,
    }


def child(mode: str, concurrency: int, latency: float, waves: int) -> None:
    """Run one mode in this process and print its figures as JSON."""
    config = bench_config(concurrency, latency, waves)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        figures = headless(config, db) if mode == "headless" else with_tui(config, db)
    figures["conv_per_s"] = figures["conversations"] / figures["run_s"]
    print(json.dumps(figures))


def main() -> None:
    """Run both modes in fresh processes and print the comparison."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--concurrency", type=int, default=512)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--waves", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--mode", choices=("headless", "tui"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.mode:
        child(args.mode, args.concurrency, args.latency, args.waves)
        return
    results: dict[str, dict[str, Any]] = {}
    for mode in ("headless", "tui"):
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--mode",
                mode,
                "--concurrency",
                str(args.concurrency),
                "--latency",
                str(args.latency),
                "--waves",
                str(args.waves),
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        results[mode] = json.loads(out.stdout.strip().splitlines()[-1])
    h, t = results["headless"], results["tui"]
    ui_cpu = t["cpu_s"] - h["cpu_s"]
    summary = {
        "headless": h,
        "tui": t,
        "throughput_ratio": t["conv_per_s"] / h["conv_per_s"],
        "updates_per_s": t["updates_per_s"],
        "ui_cpu_s": ui_cpu,
        "ui_core_share": ui_cpu / t["run_s"],
        "ui_cpu_share": ui_cpu / t["cpu_s"],
    }
    if args.json:
        print(json.dumps(summary, indent=2))
        return
    for mode, r in results.items():
        print(
            f"{mode:9s} {r['conversations']} conversations in {r['run_s']:.2f} s: "
            f"{r['conv_per_s']:.1f} conv/s, CPU {r['cpu_s']:.2f} s"
        )
    print(f"throughput ratio TUI/headless: {summary['throughput_ratio']:.3f} (goal >= 0.9)")
    print(
        f"screen updates: {t['screen_updates']} ({t['updates_per_s']:.1f}/s); tick CPU "
        f"{t['tick_cpu_s']:.2f} s ({t['tick_cpu_s'] / t['run_s']:.1%} of the run's wall time); "
        f"the UI's CPU: {ui_cpu:.2f} s ({summary['ui_core_share']:.1%} of one core over the "
        f"run, {summary['ui_cpu_share']:.1%} of the process's CPU); table rows {t['rows']}, "
        f"feed events dropped {t['dropped']}"
    )
    print("(scripted agents calibrate the harness; they are not benchmark subjects)")


if __name__ == "__main__":
    main()
