"""Per-call seconds of the embedded model (``local/smollm2-135m``) with and without prefix reuse.

The agent requests of one real retail conversation are captured first (a ``tau-sim run`` with
an ``openai/…`` agent against ``fake_openai_server``'s plausible handler: the policy, the 15
tool schemas, a tool call and its result). They are then sent, in order, to a llama.cpp server
that the real launcher starts (``make_local_provider``), twice:

- ``reuse``: one request after the other, as a conversation sends them; llama.cpp keeps the
  tokens it evaluated last and evaluates only what follows their longest common prefix;
- ``no reuse``: a short unrelated request before each one, so its slot holds other tokens and
  the whole prompt (policy and tools included) is evaluated again.

Each line gives the call's wall seconds and prompt tokens; the last lines give the seconds a
conversation of ``--calls`` agent calls would take at those speeds (the first call never has
a prefix to reuse).

    python benchmarks/local_prefix.py              # n_threads: the cores
    python benchmarks/local_prefix.py --threads 1
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fake_openai_server import HTTPServer, plausible_handler  # noqa: E402
from tau_sim.simulator.models.local_provider import make_local_provider  # noqa: E402

MODEL = "smollm2-135m"


async def agent_bodies(folder: Path) -> list[dict[str, Any]]:
    """The agent request bodies (those with tools) of one retail conversation, in order."""
    async with HTTPServer(plausible_handler(0.0, user_turns=3)) as server:
        url = server.url + "/v1"
        command = [sys.executable, "-m", "tau_sim.simulator.cli.main", "run"]
        command += ["--domain", "retail", "--tasks", "1", "--quiet", "--user", "scripted"]
        command += ["--agent", "openai/m", "--agent-arg", f"base_url={url}"]
        command += ["--db", str(folder / "capture.db")]
        done = await anyio.run_process(command, check=False)
        if done.returncode != 0:
            raise SystemExit(done.stderr.decode())
        posts = [json.loads(r.body) for r in server.requests if r.method == "POST"]
    return [body for body in posts if body.get("tools")]


async def call(client: httpx.AsyncClient, url: str, body: dict[str, Any]) -> tuple[float, int]:
    """One chat completion; (wall seconds, prompt tokens)."""
    request = {**body, "model": MODEL, "max_tokens": 64, "temperature": 0, "stream": False}
    request.setdefault("tool_choice", "auto")
    start = time.perf_counter()
    reply = await client.post(url + "/chat/completions", json=request, timeout=1800)
    reply.raise_for_status()
    return time.perf_counter() - start, int(reply.json()["usage"]["prompt_tokens"])


async def main(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="tau-sim-prefix-"))
    bodies = await agent_bodies(folder)
    options: dict[str, Any] = {"log_dir": str(folder / "logs")}
    if args.threads:
        options["n_threads"] = args.threads
    provider = make_local_provider(MODEL, options)
    filler = {"messages": [{"role": "user", "content": "Say hi."}]}
    figures: dict[str, list[float]] = {"reuse": [], "no reuse": []}
    async with provider, httpx.AsyncClient() as client:
        assert provider.pool is not None
        async with provider.pool.acquire() as url:
            for mode in ("no reuse", "reuse"):
                await call(client, url, filler)
                for i, body in enumerate(bodies):
                    if mode == "no reuse":
                        await call(client, url, filler)
                    seconds, tokens = await call(client, url, body)
                    figures[mode].append(seconds)
                    print(f"{mode:8}  call {i + 1}: {seconds:7.1f} s  {tokens:5d} prompt tokens")
    for mode, seconds in figures.items():
        later = seconds[1:] or seconds
        total = seconds[0] + (args.calls - 1) * (sum(later) / len(later))
        print(f"{mode:8}  a {args.calls}-call conversation: about {total:.0f} s")
    print(f"server log: {folder / 'logs'}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=0, help="n_threads (0: the cores)")
    parser.add_argument("--calls", type=int, default=4, help="agent calls per conversation")
    anyio.run(main, parser.parse_args())
