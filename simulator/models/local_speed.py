"""How fast the embedded model runs on this machine, and the per-call timeout that follows.

Once its servers are up, ``local/…`` measures every replica at once (they share the cores) with
three completions of a counting prompt (``measure``): a warm-up, the prompt evaluated with one
token written (prompt tokens per second), then the same prompt again, its evaluated tokens
reused, writing ``WRITE_TOKENS`` (generated tokens per second). The slowest replica counts.

From that speed follow the per-call timeout (``call_timeout``: the whole window evaluated afresh
and ``max_tokens`` written, ``MARGIN`` times over) and the line the run prints before its first
conversation (``estimate_line``): what an agent call costs here.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

MARGIN = 3.0
"""How many times the worst case of one call its timeout allows (the machine's load changes)."""
MIN_TIMEOUT_S = 60.0
FIRST_PROMPT_TOKENS = 4000
"""About a domain's policy and tool schemas: what an agent's first call evaluates."""
LATER_PROMPT_TOKENS = 200
"""About what a later call adds to the prefix it reuses (the last answer, a tool result, a turn)."""
WRITE_TOKENS = 32
_COUNTING = " ".join(str(i) for i in range(1, 121))
"""The calibration prompt (about 400 tokens); the model goes on counting for ``WRITE_TOKENS``."""


@dataclass(frozen=True)
class Speed:
    """Tokens per second of one llama.cpp server: prompt evaluated and answer generated."""

    prompt_tps: float
    generate_tps: float

    def seconds(self, prompt_tokens: int, answer_tokens: int) -> float:
        """Seconds to evaluate ``prompt_tokens`` new prompt tokens and write ``answer_tokens``."""
        return prompt_tokens / self.prompt_tps + answer_tokens / self.generate_tps


def slowest(speeds: Sequence[Speed]) -> Speed:
    """The lowest prompt and generation speeds among ``speeds`` (one per replica)."""
    return Speed(min(s.prompt_tps for s in speeds), min(s.generate_tps for s in speeds))


def call_timeout(speed: Speed, n_ctx: int, max_tokens: int) -> float:
    """Seconds one call may take, at least ``MIN_TIMEOUT_S``.

    ``MARGIN`` times the worst case: the whole window evaluated afresh, ``max_tokens`` written.
    """
    return max(MIN_TIMEOUT_S, MARGIN * speed.seconds(n_ctx, max_tokens))


def estimate_line(name: str, speed: Speed, threads: int, timeout_s: float) -> str:
    """What an agent call of ``name`` costs on this machine, and its timeout, in one line."""
    first = speed.seconds(FIRST_PROMPT_TOKENS, 0)
    later = speed.seconds(LATER_PROMPT_TOKENS, 0)
    per_100 = speed.seconds(0, 100)
    return (
        f"{name} here: {speed.prompt_tps:.0f} prompt tokens/s, {speed.generate_tps:.0f} "
        f"generated tokens/s ({threads} threads); an agent call takes about {first:.0f} s for "
        f"a first prompt of {FIRST_PROMPT_TOKENS} tokens, {later:.1f} s for "
        f"{LATER_PROMPT_TOKENS} new ones after it, plus {per_100:.1f} s per 100 tokens it "
        f"writes; per-call timeout {timeout_s:.0f} s"
    )


class _Usage(msgspec.Struct):
    prompt_tokens: int
    completion_tokens: int


class _Completion(msgspec.Struct):
    usage: _Usage


_decode = msgspec.json.Decoder(_Completion).decode


async def _complete(
    client: Any, url: str, model: str, prompt: str, max_tokens: int
) -> tuple[float, _Usage]:
    """One text completion: (wall seconds, its usage)."""
    body = {"model": model, "prompt": prompt, "max_tokens": max_tokens, "temperature": 0}
    start = time.perf_counter()
    response = await client.post(url + "/completions", content=msgspec.json.encode(body))
    response.raise_for_status()
    return time.perf_counter() - start, _decode(response.content).usage


async def measure(url: str, model: str, timeout_s: float) -> Speed:
    """The speed of the llama.cpp server at ``url`` (``…/v1``), serving ``model``.

    Raises:
        httpx2.HTTPError: the server failed or took longer than ``timeout_s`` per request.
        msgspec.ValidationError: its answer was not a completion with usage.
    """
    import httpx2

    headers = {"content-type": "application/json"}
    async with httpx2.AsyncClient(timeout=timeout_s, headers=headers) as client:
        await _complete(client, url, model, "Hi", 1)  # the first request sets buffers up
        evaluated, usage = await _complete(client, url, model, _COUNTING, 1)
        written, counted = await _complete(client, url, model, _COUNTING, WRITE_TOKENS)
    return Speed(
        prompt_tps=usage.prompt_tokens / evaluated,
        generate_tps=max(1, counted.completion_tokens) / written,
    )
