"""Engine benchmark: scripted actors whose every model call waits a fixed latency.

For each concurrency level (default 32, 128, 512) a fresh process runs ``waves x concurrency``
retail conversations (scripted/oracle agent, scripted user, both waiting ``--latency`` seconds
per call) into a new SQLite store, and prints:

- conversations/s achieved against the ideal: with perfect packing, ``concurrency`` slots each
  busy only with model latency finish ``sum(calls x latency) / concurrency`` seconds of work;
  efficiency = ideal wall time / measured wall time;
- CPU time per model call (the engine's own work: routing, tools, hashing, storing);
- peak RSS per live conversation: (peak RSS during the run - RSS before it) / concurrency;
- the store's sustained events/s: a separate saturation run that pushes events through the
  writer as fast as it takes them.

Usage: python benchmarks/engine.py [--latency 0.2] [--levels 32,128,512] [--waves 4] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import anyio
import msgspec
import psutil

from simulator.events import AgentMessage
from simulator.referee import Limits
from simulator.runner import RunConfig, Runner, backend_options, grid
from simulator.store import Store

USE_UVLOOP = os.environ.get("UVLOOP", "1") == "1"


def _rss_sampler(stop: threading.Event, peak: list[int]) -> None:
    """Peak RSS of this process plus its worker processes."""
    proc = psutil.Process()
    while not stop.is_set():
        total = proc.memory_info().rss
        for child in proc.children(recursive=True):
            try:
                total += child.memory_info().rss
            except psutil.Error:
                continue
        peak[0] = max(peak[0], total)
        time.sleep(0.02)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def steady_state(db: object, concurrency: int, latency: float) -> dict[str, float]:
    """Model calls/s while every slot is busy (from the concurrency-th start to the last start).

    The ideal there is ``concurrency / latency`` calls/s: each slot always waiting on a model.
    """
    starts = [
        r[0]
        for r in db.execute(  # type: ignore[attr-defined]
            "select started_at from conversations order by started_at"
        )
    ]
    if len(starts) <= concurrency:
        return {"steady_s": 0.0, "steady_efficiency": float("nan")}
    t0, t1 = starts[concurrency - 1], starts[-1]
    calls = db.execute(  # type: ignore[attr-defined]
        "select count(*) from events where kind = 'model_usage' and ts between ? and ?", [t0, t1]
    ).fetchone()[0]
    span = max(t1 - t0, 1e-9)
    return {"steady_s": span, "steady_efficiency": calls / span / (concurrency / latency)}


def one_level(concurrency: int, latency: float, waves: int, workers: int = 1) -> dict[str, float]:
    """Run one concurrency level in this process and return its figures."""
    from simulator.registry import get_domain

    domain = get_domain("retail")
    tasks = [t.id for t in domain.tasks]
    wanted = concurrency * waves
    trials = -(-wanted // len(tasks))
    config = RunConfig(
        domain="retail",
        tasks=tasks,
        agents=["scripted/oracle"],
        users=["scripted"],
        emotions=["neutral"],
        trials=trials,
        seed=1,
        concurrency=concurrency,
        workers=workers,
        limits=Limits(timeout_s=600),
        agent_args={"latency": str(latency)},
        user_args={"latency": str(latency)},
    )
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.db")
        cells = sum(1 for _ in grid(config))
        store.create_run("bench", 1, msgspec.json.encode(config).decode(), cells)
        runner = Runner(store, config, "bench")
        for task in domain.tasks:
            domain.gold_hash(task)  # warm the per-task cache outside the timing
        base_rss = psutil.Process().memory_info().rss
        peak = [base_rss]
        stop = threading.Event()
        sampler = threading.Thread(target=_rss_sampler, args=(stop, peak), daemon=True)
        sampler.start()
        cpu0 = time.process_time() + _children_cpu()
        t0 = time.perf_counter()
        anyio.run(runner.run, backend_options=backend_options() if USE_UVLOOP else {})
        wall = time.perf_counter() - t0
        cpu = time.process_time() + _children_cpu() - cpu0
        stop.set()
        sampler.join()
        db = store.db
        calls, turns, completed = db.execute(
            "select sum(model_calls), sum(turns), count(*) from conversations "
            "where status = 'completed'"
        ).fetchone()
        events = store.events_written
        rewards = db.execute("select avg(reward) from conversations").fetchone()[0]
        steady = steady_state(db, concurrency, latency)
    ideal_wall = calls * latency / concurrency
    return {
        "concurrency": concurrency,
        "workers": workers,
        "conversations": completed,
        "model_calls": calls,
        "turns": turns,
        "wall_s": wall,
        "conv_per_s": completed / wall,
        "ideal_conv_per_s": completed / ideal_wall,
        "efficiency": ideal_wall / wall,
        **steady,
        "cpu_ms_per_call": 1000 * cpu / calls,
        "rss_base_mb": base_rss / 2**20,
        "rss_peak_kb_per_conv": (peak[0] - base_rss) / 1024 / concurrency,
        "events": events,
        "events_per_s": events / wall,
        "mean_reward": rewards,
        "ru_maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def store_saturation(n_events: int) -> dict[str, float]:
    """Push ``n_events`` agent messages through the store writer as fast as it accepts them."""

    async def main(store: Store) -> float:
        t0 = time.perf_counter()
        async with anyio.create_task_group() as tg:
            tg.start_soon(store.run_writer)
            for i in range(n_events):
                await store.deliver(
                    AgentMessage(
                        conversation=f"c{i // 40}",
                        seq=i % 40,
                        ts=time.time(),
                        text="Your order #W1234567 has been cancelled; a refund of $123.45 "
                        "is on its way to your original payment method.",
                    )
                )
            await store.close()
        return time.perf_counter() - t0

    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "sat.db")
        wall = anyio.run(main, store)
    return {"events": n_events, "wall_s": wall, "events_per_s": n_events / wall}


def main() -> None:
    """Run every level in a child process (clean memory figures) and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--levels", default="32,128,512")
    parser.add_argument("--waves", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1, help="worker processes per run")
    parser.add_argument("--store-events", type=int, default=200_000)
    parser.add_argument("--quick", action="store_true", help="tiny smoke run for CI")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.quick:
        args.levels, args.waves, args.latency, args.store_events = "8,32", 1, 0.05, 20_000
    if args.one:
        print(json.dumps(one_level(args.one, args.latency, args.waves, args.workers)))
        return
    rows = []
    for level in (int(x) for x in args.levels.split(",")):
        out = subprocess.run(
            [
                sys.executable,
                __file__,
                "--one",
                str(level),
                "--latency",
                str(args.latency),
                "--waves",
                str(args.waves),
                "--workers",
                str(args.workers),
            ],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
        )
        rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
    saturation = store_saturation(args.store_events)
    if args.json:
        print(json.dumps({"levels": rows, "store": saturation}, indent=2))
        return
    print(
        f"engine benchmark: scripted oracle + scripted user, {args.latency * 1000:.0f} ms per "
        f"model call, {args.waves} waves per level, {args.workers} worker process(es), "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start"
    )
    header = (
        f"{'conc':>5} {'convs':>6} {'calls':>6} {'wall s':>7} {'conv/s':>7} {'ideal':>7} "
        f"{'eff':>5} {'steady':>6} {'cpu ms/call':>11} {'KB/conv':>8} {'events/s':>9} "
        f"{'reward':>6}"
    )
    print(header)
    for r in rows:
        print(
            f"{r['concurrency']:>5} {r['conversations']:>6} {r['model_calls']:>6} "
            f"{r['wall_s']:>7.2f} {r['conv_per_s']:>7.1f} {r['ideal_conv_per_s']:>7.1f} "
            f"{r['efficiency']:>5.3f} {r['steady_efficiency']:>6.3f} "
            f"{r['cpu_ms_per_call']:>11.3f} "
            f"{r['rss_peak_kb_per_conv']:>8.1f} {r['events_per_s']:>9.0f} "
            f"{r['mean_reward']:>6.3f}"
        )
    print(
        f"store saturation: {saturation['events']} events in {saturation['wall_s']:.2f} s = "
        f"{saturation['events_per_s']:.0f} events/s sustained"
    )


if __name__ == "__main__":
    main()
