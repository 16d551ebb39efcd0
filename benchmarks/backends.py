"""Model-backend throughput: the LLM agent and the LLM user through the real openai client.

A local OpenAI-compatible endpoint (``fake_openai_server.py``, another process) answers every
chat completion after a fixed latency: the agent (retail policy, 15 tools) gets a tool call,
then a text once the result is in; the LLM user gets its JSON report and stops after three
turns. Each scenario is a real ``tau-sim`` run (runner, actors, store) with
``--agent openai/… --user openai/…`` pointed at that endpoint, in a fresh process so that CPU
time and RSS are its own. Figures as in ``engine.py``: ``eff`` over the whole batch, ``steady``
while every slot is busy, client CPU per model call (engine and store included) and peak RSS.
The process imports the SDK before the run is timed, as it imports the simulator; ``sdk s``
is that import's wall time (a run pays it once; worker processes pay it inside the run).

The machine's ceiling: with ``cores`` cores, a call costing ``client`` ms of CPU here and
``endpoint`` ms in the endpoint's process, no run can exceed ``cores / (client + endpoint)``
calls/s (``ceil/s``); nor can it exceed ``concurrency / latency`` calls/s, every slot always
waiting on a model. The lower of the two is the run's bound (``bound/s``); ``of bound`` is the
share of it the run reached (calls/s over the bound), and the ``steady`` beside it the same
share while every slot is busy (start-up of the worker processes and the last conversations'
tail left out, as in ``steady`` efficiency).

    python benchmarks/backends.py                    # full table
    python benchmarks/backends.py --workers auto     # one worker process per core
    python benchmarks/backends.py --only 512,1.0,3   # one scenario (repeatable)
    python benchmarks/backends.py --quick            # CI smoke run
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import psutil  # noqa: E402
from measure import measure, whole_waves  # noqa: E402

from tau_sim.simulator.core.endings import Limits  # noqa: E402
from tau_sim.simulator.grid import (  # noqa: E402
    RunConfig,
    auto_workers,
    resolve_workers,
)

FULL = [(512, 1.0, 3), (8, 0.2, 4), (128, 0.2, 4), (512, 0.2, 4)]
QUICK = [(64, 0.5, 2), (8, 0.2, 2)]
"""(concurrency, latency s, waves): each scenario runs about concurrency x waves conversations."""


def scenario(
    url: str, concurrency: int, latency: float, waves: int, workers: int
) -> dict[str, Any]:
    """One real run against the fake endpoint; returns its figures.

    The SDK and its transport are imported before the run is timed, as the simulator's own
    modules are (a process imports them once, whatever the size of its run); the import's
    wall time is reported beside the figures (``sdk_import_s``).
    """
    from tau_sim.simulator.core.registry import get_domain

    began = time.perf_counter()
    import aiohttp  # noqa: F401
    import openai  # noqa: F401

    sdk_import_s = time.perf_counter() - began

    tasks, trials = whole_waves([t.id for t in get_domain("retail").tasks], concurrency, waves)
    model = f"openai/latency-{latency}"
    # no max_connections: a local endpoint takes the run's concurrency
    args = {"base_url": url, "timeout": "60"}
    config = RunConfig(
        domains=["retail"],
        tasks=tasks,
        agents=[model],
        users=[model],
        emotions=["frustration"],
        intensities=[0.6],
        trials=trials,
        seed=1,
        concurrency=concurrency,
        workers=workers,
        limits=Limits(timeout_s=600),
        agent_options={model: dict(args)},
        user_options={model: dict(args)},
    )
    return measure(config, latency) | {"sdk_import_s": sdk_import_s}


def main() -> None:
    """Start the endpoint, run every scenario in its own process, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run for CI")
    parser.add_argument(
        "--workers", default="1", help="worker processes per run, or auto (one per core)"
    )
    parser.add_argument(
        "--only",
        action="append",
        metavar="CONC,LAT,WAVES",
        help="run only this scenario (repeatable), e.g. 512,0.2,4",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--scenario", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.workers = resolve_workers(args.workers)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.scenario:
        c, lat, waves = args.scenario.split(",")
        print(json.dumps(scenario(args.url, int(c), float(lat), int(waves), args.workers)))
        return
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "benchmarks" / "fake_openai_server.py"), "--user-turns", "3"],
        stdout=subprocess.PIPE,
        text=True,
    )
    rows = []
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline().split()[1])
        url = f"http://127.0.0.1:{port}/v1"
        if not args.json:
            print(
                f"backends benchmark: LLM agent + LLM user via the openai client, "
                f"{args.workers} worker process(es), {os.cpu_count()} CPUs, "
                f"load average {os.getloadavg()[0]:.2f} at start"
            )
        endpoint = psutil.Process(server.pid)
        specs = args.only or [f"{c},{lat},{w}" for c, lat, w in (QUICK if args.quick else FULL)]
        for spec in specs:
            before = _cpu_s(endpoint)
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--url",
                    url,
                    "--scenario",
                    spec,
                    "--workers",
                    str(args.workers),
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            row = json.loads(out.stdout.strip().splitlines()[-1])
            rows.append(_with_ceiling(row, _cpu_s(endpoint) - before))
            if not args.json:
                _print_row(rows[-1], header=len(rows) == 1)
    finally:
        server.terminate()
        server.wait(5)
    if args.json:
        print(json.dumps(rows, indent=2))


def _cpu_s(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


def _with_ceiling(row: dict[str, Any], endpoint_cpu_s: float) -> dict[str, Any]:
    """``row`` with the endpoint's CPU per call, the machine's ceiling, the run's bound (the
    lower of the ceiling and ``concurrency / latency``) and the share of the bound reached."""
    cores = auto_workers()
    endpoint_ms = 1000 * endpoint_cpu_s / row["model_calls"]
    per_call_ms = row["cpu_ms_per_call"] + endpoint_ms
    ceiling = 1000 * cores / per_call_ms
    bound = min(ceiling, row["concurrency"] / row["latency"])
    calls_per_s = row["model_calls"] / row["wall_s"]
    return row | {
        "cores": cores,
        "endpoint_cpu_ms_per_call": endpoint_ms,
        "calls_per_s": calls_per_s,
        "ceiling_calls_per_s": ceiling,
        "bound_calls_per_s": bound,
        "share_of_bound": calls_per_s / bound,
        "steady_share_of_bound": row["steady_calls_per_s"] / bound,
    }


def _print_row(r: dict[str, Any], header: bool) -> None:
    if header:
        print(
            f"{'conc':>5} {'lat s':>6} {'convs':>6} {'calls/conv':>10} {'conv/s':>8} "
            f"{'ideal':>8} {'eff':>6} {'steady':>6} {'cpu ms/call':>11} {'endp ms':>8} "
            f"{'calls/s':>8} {'ceil/s':>7} {'bound/s':>7} {'of bound':>8} {'steady':>6} "
            f"{'peak RSS MB':>11} "
            f"{'sdk s':>6}"
        )
    print(
        f"{r['concurrency']:>5} {r['latency']:>6.1f} {r['conversations']:>6} "
        f"{r['calls_per_conversation']:>10.1f} {r['conv_per_s']:>8.1f} "
        f"{r['ideal_conv_per_s']:>8.1f} {r['efficiency']:>6.2f} "
        f"{r['steady_efficiency']:>6.2f} {r['cpu_ms_per_call']:>11.2f} "
        f"{r['endpoint_cpu_ms_per_call']:>8.2f} {r['calls_per_s']:>8.0f} "
        f"{r['ceiling_calls_per_s']:>7.0f} {r['bound_calls_per_s']:>7.0f} "
        f"{r['share_of_bound']:>8.2f} {r['steady_share_of_bound']:>6.2f} "
        f"{r['rss_peak_mb']:>11.0f} {r['sdk_import_s']:>6.2f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
