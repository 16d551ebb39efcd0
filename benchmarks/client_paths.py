"""Client CPU per call of the openai SDK's request paths: ``post_json`` or typed, aiohttp or httpx.

The figures behind the choice in ``simulator/models/hosted.py``: a local endpoint
(``fake_openai_server.py``, another process) answers at once; ``--calls`` agent requests (the
retail policy as system prompt, its 15 tools) go out at ``--inflight`` at a time, after a
warm-up, and the CPU this process spends is divided by the calls.

    python benchmarks/client_paths.py                  # all four paths
    python benchmarks/client_paths.py --calls 5000
    python benchmarks/client_paths.py --deadline       # the HTTP client tau-sim uses
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PATHS = ("post-aiohttp", "typed-aiohttp", "post-httpx", "typed-httpx")


async def one_path(
    url: str, path: str, calls: int, inflight: int, deadline: bool = False
) -> tuple[float, float]:
    """(client CPU ms per call, calls per second) of one path (``deadline``: as tau-sim sends,
    each attempt bounded by ``timeout`` as a whole)."""
    import httpx2
    import msgspec
    import openai

    from tau_sim.simulator.core.registry import get_domain
    from tau_sim.simulator.models.deadline import deadline_client
    from tau_sim.simulator.models.openai_provider import _completion, to_openai_tools

    retail = get_domain("retail")
    mode, transport = path.split("-")
    limits = httpx2.Limits(max_connections=inflight, max_keepalive_connections=inflight)
    timeout = httpx2.Timeout(60.0)
    http_class = (
        openai.DefaultAioHttpClient if transport == "aiohttp" else openai.DefaultAsyncHttpxClient
    )
    if deadline:
        http_class = deadline_client(http_class)
    client = openai.AsyncOpenAI(
        api_key="EMPTY",
        base_url=url,
        http_client=http_class(limits=limits, timeout=timeout),
        max_retries=2,
        timeout=timeout,
    )
    body: dict[str, Any] = {
        "model": "latency-0.0",
        "tools": to_openai_tools(retail.toolkit.specs),
        "messages": [
            {"role": "system", "content": retail.policy},
            {"role": "user", "content": "I want to return order #W123, it arrived broken."},
        ],
    }
    slots = asyncio.Semaphore(inflight)

    async def call() -> None:
        async with slots:
            if mode == "post":
                raw = await client.post(
                    "/chat/completions", content=msgspec.json.encode(body), cast_to=httpx2.Response
                )
                _completion.decode(raw.content)
            else:
                typed = await client.chat.completions.with_raw_response.create(**body)
                typed.parse()

    await asyncio.gather(*(call() for _ in range(200)))  # connections open, imports done
    cpu0, wall0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*(call() for _ in range(calls)))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    await client.close()
    return 1000 * cpu / calls, calls / wall


def main() -> None:
    """Start the endpoint, measure every path, print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--inflight", type=int, default=256)
    parser.add_argument("--paths", default=",".join(PATHS), help=f"some of {', '.join(PATHS)}")
    parser.add_argument(
        "--deadline", action="store_true", help="bound each attempt as tau-sim does (timeout=)"
    )
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    import uvloop

    server = subprocess.Popen(
        [sys.executable, str(ROOT / "benchmarks" / "fake_openai_server.py"), "--latency", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        url = f"http://127.0.0.1:{int(server.stdout.readline().split()[1])}/v1"
        for path in args.paths.split(","):
            ms, rate = uvloop.run(one_path(url, path, args.calls, args.inflight, args.deadline))
            print(f"{path:14} {ms:5.2f} ms client CPU per call  {rate:6.0f} calls/s", flush=True)
    finally:
        server.terminate()
        server.wait(5)


if __name__ == "__main__":
    main()
