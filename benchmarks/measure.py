"""Shared measurement of one benchmark run: wall time, CPU, RSS and steady-state efficiency.

Both benchmarks play a real ``tau-sim`` run (the runner, the store, the actors) and read their
figures back from the run's own database.
"""

from __future__ import annotations

import resource
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import psutil

from tau_sim.simulator.grid import RunConfig
from tau_sim.simulator.run import Runner, backend_options
from tau_sim.simulator.store import Store


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


def whole_waves(tasks: list[str], concurrency: int, waves: int) -> tuple[list[str], int]:
    """Tasks and trials giving exactly ``concurrency x waves`` conversations.

    A grid that is not a whole number of waves ends with a nearly empty wave whose slots idle
    for a whole conversation, which no harness could avoid; the batch figures would measure the
    grid's shape instead of the harness. The fewest trials whose task count divides the batch
    and fits the domain are chosen (the first tasks, in the domain's order).
    """
    batch = concurrency * waves
    for trials in range(max(1, -(-batch // len(tasks))), batch + 1):
        if batch % trials == 0:
            return tasks[: batch // trials], trials
    raise AssertionError("unreachable: trials == batch always divides it")


def steady_state(db: Any, concurrency: int, latency: float) -> dict[str, float]:
    """Model calls/s while every slot is busy (from the concurrency-th start to the last start).

    The ideal there is ``concurrency / latency`` calls/s: each slot always waiting on a model.
    """
    starts = [r[0] for r in db.execute("select started_at from conversations order by 1")]
    if len(starts) <= concurrency:
        return {
            "steady_s": 0.0,
            "steady_calls_per_s": float("nan"),
            "steady_efficiency": float("nan"),
        }
    t0, t1 = starts[concurrency - 1], starts[-1]
    calls = db.execute(
        "select count(*) from events where kind = 'model_usage' and ts between ? and ?", [t0, t1]
    ).fetchone()[0]
    span = max(t1 - t0, 1e-9)
    return {
        "steady_s": span,
        "steady_calls_per_s": calls / span,
        "steady_efficiency": calls / span / (concurrency / latency),
    }


def measure(config: RunConfig, latency: float, *, uvloop: bool = True) -> dict[str, float]:
    """Play ``config`` into a fresh store and return its figures."""
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.db")
        runner = Runner(store, config, "bench", create=True)
        base_rss = psutil.Process().memory_info().rss
        peak = [base_rss]
        stop = threading.Event()
        sampler = threading.Thread(target=_rss_sampler, args=(stop, peak), daemon=True)
        sampler.start()
        cpu0 = time.process_time() + _children_cpu()
        t0 = time.perf_counter()
        anyio.run(runner.run, backend_options=backend_options() if uvloop else {})
        wall = time.perf_counter() - t0
        cpu = time.process_time() + _children_cpu() - cpu0
        stop.set()
        sampler.join()
        db = store.db
        calls, turns, completed, reasons = db.execute(
            "select sum(model_calls), sum(turns), count(*), group_concat(distinct reason) "
            "from conversations where status = 'completed'"
        ).fetchone()
        events = store.events_written
        rewards = db.execute("select avg(reward) from conversations").fetchone()[0]
        steady = steady_state(db, config.concurrency, latency)
    ideal_wall = calls * latency / config.concurrency
    return {
        "concurrency": config.concurrency,
        "latency": latency,
        "workers": config.workers,
        "conversations": completed,
        "model_calls": calls,
        "calls_per_conversation": calls / completed,
        "turns": turns,
        "wall_s": wall,
        "conv_per_s": completed / wall,
        "ideal_conv_per_s": completed / ideal_wall,
        "efficiency": ideal_wall / wall,
        **steady,
        "cpu_ms_per_call": 1000 * cpu / calls,
        "rss_base_mb": base_rss / 2**20,
        "rss_peak_mb": peak[0] / 2**20,
        "rss_peak_kb_per_conv": (peak[0] - base_rss) / 1024 / config.concurrency,
        "events": events,
        "events_per_s": events / wall,
        "mean_reward": rewards,
        "reasons": reasons,
    }
