"""Engine benchmark: scripted actors whose every model call waits a fixed latency.

For each concurrency level (default 32, 128, 512) a fresh process runs ``waves x concurrency``
retail conversations (scripted/gold agent, scripted user, both waiting ``--latency`` seconds
per call) into a new SQLite store, and prints:

- conversations/s achieved against the ideal (``concurrency`` slots, each only ever waiting on a
  model: ``concurrency / (calls per conversation x latency)``), as two ratios: ``eff`` over the
  whole batch (ramp-up and the last, partly empty wave included) and ``steady`` while every slot
  is busy (model calls/s between the concurrency-th start and the last start, against
  ``concurrency / latency``);
- CPU time per model call (the engine's own work: routing, tools, hashing, storing);
- peak RSS per live conversation: (peak RSS during the run - RSS before it) / concurrency;
- the store's sustained events/s: a separate saturation run that pushes events through the
  writer as fast as it takes them.

``--domain tau2/retail,tau2/airline,tau2/telecom`` measures those domains beside retail at each
level, in the same terms, and prints CPU per conversation and conversations/s with their ratio
to retail's. The scripted user cannot read τ²-bench's free-text scenarios, so there the harness's
``FollowingUser`` (``tests/domains/tau2/play.py``: it follows the task, waiting ``--latency``
per turn like the scripted user) plays the user; both users and the gold agent calibrate the
harness, they are not benchmark subjects. Those domains run in this process only (no workers).

With ``--ray`` each level plays on ``--workers`` Ray actors of a local cluster (started before
the run, its start-up printed apart; CPU per call then counts every process of the cluster).

Usage: python benchmarks/engine.py [--latency 0.2] [--levels 32,128,512] [--waves 4] [--quick]
       [--workers N] [--ray] [--domain tau2/retail,...]
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
sys.path.insert(1, str(Path(__file__).resolve().parent.parent))  # the harness's tests package

from measure import measure, whole_waves

from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.events import AgentMessage
from tau_sim.simulator.grid import RunConfig
from tau_sim.simulator.run import LOCAL, NAMESPACE
from tau_sim.simulator.store import Store

USE_UVLOOP = os.environ.get("UVLOOP", "1") == "1"


FOLLOWING = "following"
"""The user kind registered for τ²-bench domains in the measuring process (``FollowingUser``)."""


def register_following_user() -> None:
    """Register ``following``: the harness's ``FollowingUser``, each turn after ``latency`` s."""
    from tau_sim.simulator.core.registry import USERS, NothingToStart, get_domain
    from tests.domains.tau2.play import FollowingUser

    class Delayed:
        def __init__(self, inner: FollowingUser, latency: float) -> None:
            self.inner, self.latency = inner, latency

        async def respond(self, transcript: Any) -> Any:
            await anyio.sleep(self.latency)
            return await self.inner.respond(transcript)

    class Provider(NothingToStart):
        def __init__(self, name: str, args: dict[str, Any]) -> None:
            self.name = name
            self.latency = float(args.get("latency", 0.0))
            self.domain = get_domain(str(args["domain"]))
            self.tasks = {t.id: t for t in self.domain.tasks}

        def for_conversation(self, view: Any) -> Delayed:
            user = FollowingUser(self.domain, self.tasks[view.task_id], view)
            return Delayed(user, self.latency)

    USERS.add(FOLLOWING, Provider)


def one_level(
    concurrency: int,
    latency: float,
    waves: int,
    workers: int = 1,
    domain: str = "retail",
    ray: bool = False,
) -> dict[str, Any]:
    """Run one concurrency level of ``domain`` in this process and return its figures.

    With ``ray`` the run plays on ``workers`` Ray actors of a local cluster started first
    (its start-up is ``ray_start_s``, outside the run's wall time).
    """
    from tau_sim.simulator.core.registry import get_domain

    user, user_options = "scripted", {"latency": str(latency)}
    if domain.startswith("tau2/"):
        register_following_user()
        user, user_options = FOLLOWING, {**user_options, "domain": domain}
    tasks, trials = whole_waves([t.id for t in get_domain(domain).tasks], concurrency, waves)
    config = RunConfig(
        domains=[domain],
        tasks=tasks,
        agents=["scripted/gold"],
        users=[user],
        emotions=["neutral"],
        trials=trials,
        seed=1,
        concurrency=concurrency,
        workers=workers,
        ray=LOCAL if ray else None,
        limits=Limits(timeout_s=600),
        agent_options={"scripted/gold": {"latency": str(latency)}},
        user_options={user: user_options},
    )
    figures = on_ray(config, latency) if ray else measure(config, latency, uvloop=USE_UVLOOP)
    figures["domain"] = domain
    figures["cpu_ms_per_conversation"] = (
        figures["cpu_ms_per_call"] * figures["calls_per_conversation"]
    )
    return figures


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
    parser.add_argument(
        "--domain",
        default="",
        help="comma-separated domains to measure beside retail (tau2/retail, tau2/airline, "
        "tau2/telecom): CPU per conversation and conversations/s against retail's",
    )
    parser.add_argument("--one-domain", default="retail", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.quick:
        args.levels, args.waves, args.latency, args.store_events = "8,32", 1, 0.05, 20_000
    if args.one:
        figures = one_level(
            args.one, args.latency, args.waves, args.workers, args.one_domain, args.ray
        )
        print(json.dumps(figures))
        return
    if args.domain:
        domain_table(args, [d.strip() for d in args.domain.split(",") if d.strip()])
        return
    rows = [level_figures(args, level) for level in (int(x) for x in args.levels.split(","))]
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


def level_figures(args: argparse.Namespace, level: int, domain: str = "retail") -> dict[str, Any]:
    """One level of one domain, measured in a fresh child process (clean memory figures)."""
    out = subprocess.run(
        [
            sys.executable,
            __file__,
            *("--one", str(level), "--latency", str(args.latency), "--waves", str(args.waves)),
            *("--workers", str(args.workers), "--one-domain", domain),
            *(["--ray"] if args.ray else []),
        ],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    figures: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def domain_table(args: argparse.Namespace, domains: list[str]) -> None:
    """Each level of retail and of ``domains``: CPU per conversation, conv/s, ratios to retail."""
    rows = []
    for level in (int(x) for x in args.levels.split(",")):
        retail = level_figures(args, level)
        rows.append((retail, retail))
        rows += [(level_figures(args, level, d), retail) for d in domains if d != "retail"]
    if args.json:
        print(json.dumps([r for r, _ in rows], indent=2))
        return
    print(
        f"engine benchmark by domain: scripted gold agent, scripted user (retail) or the "
        f"harness's following user (tau2/*), {args.latency * 1000:.0f} ms per model call, "
        f"{args.waves} waves per level, {os.cpu_count()} CPUs, load average "
        f"{os.getloadavg()[0]:.2f} at start (calibration actors, not benchmark subjects)"
    )
    print(
        f"{'conc':>5} {'domain':<13} {'convs':>6} {'calls/conv':>10} {'conv/s':>7} "
        f"{'eff':>5} {'cpu ms/conv':>11} {'x retail':>8} {'conv/s x':>8} {'reward':>6}"
    )
    for r, base in rows:
        print(
            f"{r['concurrency']:>5} {r['domain']:<13} {r['conversations']:>6} "
            f"{r['calls_per_conversation']:>10.1f} {r['conv_per_s']:>7.1f} "
            f"{r['efficiency']:>5.3f} {r['cpu_ms_per_conversation']:>11.2f} "
            f"{r['cpu_ms_per_conversation'] / base['cpu_ms_per_conversation']:>8.1f} "
            f"{r['conv_per_s'] / base['conv_per_s']:>8.2f} {r['mean_reward']:>6.3f}"
        )


if __name__ == "__main__":
    main()
