"""Engine benchmark: scripted actors whose every model call waits a fixed latency.

For each concurrency level (default 32, 128, 512) a fresh process runs ``waves x concurrency``
retail conversations (scripted/gold agent, scripted user, both waiting ``--latency`` seconds
per call) into a new SQLite store, and prints:

- conversations/s achieved against the ideal (``concurrency`` slots, each only ever waiting on a
  model: ``concurrency / (calls per conversation x latency)``), as two ratios: ``eff`` over the
  whole batch (ramp-up and the tail included; the grid is exactly ``waves`` full waves, see
  ``measure.whole_waves``) and ``steady`` while every slot is busy (model calls/s between the
  concurrency-th start and the last start, against ``concurrency / latency``);
- CPU time per model call (the engine's own work: routing, tools, hashing, storing);
- peak RSS per live conversation: (peak RSS during the run - RSS before it) / concurrency;
- the store's sustained events/s: a separate saturation run that pushes events through the
  writer as fast as it takes them.

With ``--ray`` each level plays on ``--workers`` Ray actors of a local cluster (started before
the run, its start-up printed apart; CPU per call then counts every process of the cluster).

Usage: python benchmarks/engine.py [--latency 0.2] [--levels 32,128,512] [--waves 4] [--quick]
       [--workers N] [--ray]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import measure, whole_waves

from simulator.events import AgentMessage
from simulator.grid import RunConfig
from simulator.rayshards import LOCAL, NAMESPACE
from simulator.referee import Limits
from simulator.store import Store

USE_UVLOOP = os.environ.get("UVLOOP", "1") == "1"


def one_level(
    concurrency: int, latency: float, waves: int, workers: int = 1, ray: bool = False
) -> dict[str, Any]:
    """Run one concurrency level in this process and return its figures.

    With ``ray`` the run plays on ``workers`` Ray actors of a local cluster started first
    (its start-up is ``ray_start_s``, outside the run's wall time).
    """
    from simulator.registry import get_domain

    tasks, trials = whole_waves([t.id for t in get_domain("retail").tasks], concurrency, waves)
    config = RunConfig(
        domains=["retail"],
        tasks=tasks,
        agents=["scripted/gold"],
        users=["scripted"],
        emotions=["neutral"],
        trials=trials,
        seed=1,
        concurrency=concurrency,
        workers=workers,
        ray=LOCAL if ray else None,
        limits=Limits(timeout_s=600),
        agent_options={"scripted/gold": {"latency": str(latency)}},
        user_options={"scripted": {"latency": str(latency)}},
    )
    if not ray:
        return measure(config, latency, uvloop=USE_UVLOOP)
    return on_ray(config, latency)


def on_ray(config: RunConfig, latency: float) -> dict[str, Any]:
    """``measure`` on a local Ray cluster of ``config.workers`` CPUs started beforehand.

    ``cpu_ms_per_call`` counts every process of the cluster (the actors and Ray's own
    daemons, sampled every 20 ms while the run plays: Ray does not reap its workers into this
    process's child CPU time), and ``rss_peak_kb_per_conv`` is measured above the RSS of the
    whole idle cluster, not of the driver alone.
    """
    import logging

    import psutil
    import ray

    t0 = time.perf_counter()
    ray.init(
        address="local",
        num_cpus=config.workers,
        namespace=NAMESPACE,
        include_dashboard=False,
        logging_level=logging.WARNING,
    )
    started = time.perf_counter() - t0
    me = psutil.Process()
    base_rss = me.memory_info().rss + sum(_each(me, lambda p: p.memory_info().rss))
    first: dict[int, float] = {}
    last: dict[int, float] = {}
    stop = threading.Event()

    def sample() -> None:
        while True:
            for pid, cpu in _each(me, lambda p: (p.pid, sum(p.cpu_times()[:2]))):
                first.setdefault(pid, cpu)
                last[pid] = cpu
            if stop.wait(0.02):
                return

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    own = time.process_time()
    figures = measure(config, latency, uvloop=USE_UVLOOP)
    own = time.process_time() - own
    stop.set()
    sampler.join()
    ray.shutdown()
    cluster = sum(last[pid] - first[pid] for pid in last)
    figures["cpu_ms_per_call"] = 1000 * (own + cluster) / figures["model_calls"]
    peak = figures["rss_peak_mb"] * 2**20
    figures["rss_peak_kb_per_conv"] = (peak - base_rss) / 1024 / config.concurrency
    figures["ray_start_s"] = started
    return figures


def _each(process: Any, read: Any) -> list[Any]:
    """``read(p)`` of every live descendant ``p`` of ``process`` (those that vanish skipped)."""
    import psutil

    found = []
    for child in process.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            found.append(read(child))
    return found


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
    parser.add_argument(
        "--ray",
        action="store_true",
        help="play on --workers Ray actors of a local cluster (tau-sim[ray]) instead",
    )
    parser.add_argument("--store-events", type=int, default=200_000)
    parser.add_argument("--quick", action="store_true", help="tiny smoke run for CI")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.quick:
        args.levels, args.waves, args.latency, args.store_events = "8,32", 1, 0.05, 20_000
    if args.one:
        print(json.dumps(one_level(args.one, args.latency, args.waves, args.workers, args.ray)))
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
                *(["--ray"] if args.ray else []),
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
        f"engine benchmark: scripted gold + scripted user, {args.latency * 1000:.0f} ms per "
        f"model call, {args.waves} waves per level, {args.workers} "
        f"{'Ray actor(s) on a local cluster' if args.ray else 'worker process(es)'}, "
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
    if args.ray:
        starts = ", ".join(f"{r['ray_start_s']:.1f}" for r in rows)
        print(f"Ray local cluster start-up per level (outside wall s): {starts} s")
    print(
        f"store saturation: {saturation['events']} events in {saturation['wall_s']:.2f} s = "
        f"{saturation['events_per_s']:.0f} events/s sustained"
    )


if __name__ == "__main__":
    main()
