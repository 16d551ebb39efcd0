"""Model-backend throughput: the LLM agent and the LLM user through the real openai client.

A local OpenAI-compatible endpoint (``fake_openai_server.py``, another process) answers every
chat completion after a fixed latency. Each conversation is an LLM user (JSON mode) and the
LLM tool-calling agent, both ``openai/…`` models, looping turn by turn with real tool calls on
a small domain: 7 model calls per conversation (user, agent tool call, agent text, three
times over, less the last agent turn). Each scenario runs in a fresh process so that CPU time
and peak RSS are its own.

    python benchmarks/backends.py          # full table, under 3 minutes
    python benchmarks/backends.py --quick  # CI smoke run, under 20 s
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simulator.database import Database  # noqa: E402
from simulator.domain import Action, Domain, InfoSlot, Task, UserScenario  # noqa: E402
from simulator.tools import ToolKind, Toolkit, tool  # noqa: E402

FULL = [(512, 1.0, 3), (8, 0.2, 4), (128, 0.2, 4), (512, 0.2, 4)]
QUICK = [(128, 0.5, 2), (8, 0.2, 2)]
"""(concurrency, latency s, waves): each scenario runs concurrency x waves conversations."""


@tool(ToolKind.READ)
def get_order(db: Database, order_id: str) -> dict[str, Any]:
    """Look up an order.

    Args:
        order_id: The order id, like A1.
    """
    return dict(db.get("orders", order_id) or {"status": "unknown"})


@tool(ToolKind.WRITE)
def cancel_order(db: Database, order_id: str, reason: str) -> str:
    """Cancel a pending order.

    Args:
        order_id: The order id.
        reason: Why the customer cancels.
    """
    return "cancelled"


class Shop(Domain):
    """A two-tool shop with one task."""

    name = "bench"
    title = "Bench shop"
    toolkit = Toolkit([get_order, cancel_order])

    def __init__(self) -> None:
        scenario = UserScenario(
            goal="Learn the status of order A1.",
            opening="Hi, where is my order A1?",
            known_info=[InfoSlot("order_id", "A1", ["order"], "your order id")],
        )
        self._task = Task("bench-0", "bench", "status", scenario, [], [Action("get_order")])

    def build_base(self) -> Any:
        return {"orders": {"A1": {"status": "shipped"}}}, {}

    @property  # type: ignore[override]
    def policy(self) -> str:
        return "Help customers with their orders. Look orders up before answering.\n" * 20

    @property  # type: ignore[override]
    def tasks(self) -> list[Task]:
        return [self._task]


async def _conversation(ctx: Any, agent: Any, user: Any) -> int:
    from simulator.models.base import ChatMessage

    transcript: list[Any] = []
    history: list[Any] = []
    calls = 0
    db = ctx.domain.new_database()
    for _ in range(10):
        turn = await user.respond(transcript)
        calls += 1
        transcript.append(ChatMessage("user", turn.text))
        history.append(ChatMessage("user", turn.text))
        if turn.ends:
            return calls
        for _step in range(5):
            response = await agent.respond(history)
            calls += 1
            message = response.message
            history.append(message)
            if not message.tool_calls:
                transcript.append(ChatMessage("assistant", message.content))
                break
            for call in message.tool_calls:
                outcome = ctx.domain.toolkit.call(db, call.name, call.arguments)
                history.append(ChatMessage("tool", outcome.content, tool_call_id=call.id))
    raise RuntimeError("conversation did not end")


async def _scenario(url: str, concurrency: int, latency: float, waves: int) -> dict[str, Any]:
    import agents.llm
    import simulator.models.openai_provider
    import users.llm
    from simulator.context import ConversationContext

    name = f"openai/latency-{latency}"
    args = {"base_url": url, "max_connections": 4096, "timeout": 60, "max_retries": 0}
    agent_provider = simulator.models.openai_provider.make_openai_provider(name[7:], args)
    user_provider = users.llm.make_llm_user(name, args)
    await agent_provider.start()
    await user_provider.start()
    domain = Shop()
    total = concurrency * waves
    done = 0
    calls = 0

    def context(i: int) -> ConversationContext:
        task = domain.tasks[0]
        return ConversationContext(
            conversation_id=f"c{i}",
            run_id="bench",
            task=task,
            domain=domain,
            emotion="frustration",
            intensity=0.6,
            trial=0,
            seed=i,
        )

    next_index = 0

    finished: list[float] = []

    async def worker(slot: int) -> None:
        nonlocal done, calls, next_index
        # start staggered over one call latency, as a steady load is (all at t=0 keeps them in
        # lockstep: every call of a wave would queue behind the whole wave's client CPU)
        await asyncio.sleep(slot * latency / concurrency)
        while next_index < total:
            i = next_index
            next_index += 1
            ctx = context(i)
            agent = agents.llm.make_agent(agent_provider.for_conversation(ctx, "agent"), ctx)
            user = user_provider.for_conversation(ctx)
            made = await _conversation(ctx, agent, user)  # not `calls += await`: it races
            calls += made
            done += 1
            finished.append(time.perf_counter())

    gc.collect()
    gc.freeze()  # the long-lived setup objects need no more scans
    cpu0 = time.process_time()
    wall0 = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(concurrency)))
    wall = time.perf_counter() - wall0
    cpu = time.process_time() - cpu0
    await agent_provider.aclose()
    await user_provider.aclose()
    per_conv = calls / done
    ideal = concurrency / (per_conv * latency)
    # steady state: the conversations after the first wave, from its end to the last one's
    steady = (done - concurrency) / (finished[-1] - finished[concurrency - 1])
    return {
        "concurrency": concurrency,
        "latency": latency,
        "conversations": done,
        "calls": calls,
        "calls_per_conversation": per_conv,
        "wall_s": wall,
        "conv_per_s": steady,
        "end_to_end_conv_per_s": done / wall,
        "ideal_conv_per_s": ideal,
        "efficiency": steady / ideal,
        "cpu_ms_per_call": cpu / calls * 1000,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def _run_one(url: str, spec: str) -> None:
    concurrency, latency, waves = spec.split(",")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    result = asyncio.run(_scenario(url, int(concurrency), float(latency), int(waves)))
    print(json.dumps(result))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run for CI (< 20 s)")
    parser.add_argument("--scenario", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.scenario:
        _run_one(args.url, args.scenario)
        return
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "benchmarks" / "fake_openai_server.py"), "--user-turns", "3"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline().split()[1])
        url = f"http://127.0.0.1:{port}/v1"
        rows = []
        for concurrency, latency, waves in QUICK if args.quick else FULL:
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--url",
                    url,
                    "--scenario",
                    f"{concurrency},{latency},{waves}",
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            rows.append(json.loads(out.stdout.strip().splitlines()[-1]))
            _print_row(rows[-1], header=len(rows) == 1)
    finally:
        server.terminate()
        server.wait(5)


def _print_row(r: dict[str, Any], header: bool) -> None:
    if header:
        print(
            f"{'conc':>5} {'lat s':>6} {'convs':>6} {'calls/conv':>10} {'conv/s':>8} "
            f"{'ideal':>8} {'eff':>6} {'e2e conv/s':>10} {'cpu ms/call':>11} {'peak RSS MB':>11}"
        )
    print(
        f"{r['concurrency']:>5} {r['latency']:>6.1f} {r['conversations']:>6} "
        f"{r['calls_per_conversation']:>10.1f} {r['conv_per_s']:>8.1f} "
        f"{r['ideal_conv_per_s']:>8.1f} {r['efficiency']:>6.2f} "
        f"{r['end_to_end_conv_per_s']:>10.1f} "
        f"{r['cpu_ms_per_call']:>11.2f} "
        f"{r['peak_rss_mb']:>11.0f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
