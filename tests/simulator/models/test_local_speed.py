"""The local model's speed check: measured at start, it sets the per-call timeout and says so.

Stand-in servers on 127.0.0.1 answer the check's completions after a delay: measured speeds are
at most the stand-in's tokens over its delay (a loaded machine only makes them lower), so the
timeout is at least what those speeds give. A stand-in without ``/v1/completions`` shows that a
failed check stops the servers it started.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from benchmarks.fake_openai_server import Response
from tau_sim.simulator.models.launcher import (
    LaunchError,
    LaunchOptions,
    ReplicaPool,
    ReplicaSpec,
    ReplicaState,
    StaticPool,
)
from tau_sim.simulator.models.local_provider import LocalModelProvider, LocalOptions
from tau_sim.simulator.models.local_speed import (
    MARGIN,
    MIN_TIMEOUT_S,
    Speed,
    call_timeout,
    estimate_line,
    slowest,
)
from tau_sim.simulator.models.servers import Pool, openai_model
from tests.helpers.servers import ScriptServer

pytestmark = pytest.mark.anyio
TINY = str(Path(__file__).parents[2] / "helpers" / "tiny_server.py")
CHECK = Response.json(
    {"usage": {"prompt_tokens": 100, "completion_tokens": 32}, "choices": [{"text": "1"}]},
    delay=0.5,
)


def provider(pool: Pool, args: dict[str, object]) -> LocalModelProvider:
    model = openai_model("local/m", "m", pool, {"max_tokens": 512, "max_retries": 0, **args})
    options = LocalOptions(n_threads=2, startup_timeout=30)
    return LocalModelProvider("local/m", pool, model, options, fixed_timeout="timeout" in args)


def test_the_timeout_covers_a_full_window_and_grows_as_the_machine_slows() -> None:
    fast, slow = Speed(200.0, 40.0), Speed(100.0, 20.0)
    worst = 8192 / 200.0 + 512 / 40.0  # the whole window evaluated afresh, max_tokens written
    assert call_timeout(fast, 8192, 512) == pytest.approx(MARGIN * worst)
    assert call_timeout(slow, 8192, 512) == pytest.approx(2 * call_timeout(fast, 8192, 512))
    assert call_timeout(Speed(1e6, 1e6), 8192, 512) == MIN_TIMEOUT_S
    assert slowest([fast, Speed(300.0, 10.0)]) == Speed(200.0, 10.0)


def test_the_estimate_says_what_a_first_and_a_later_call_cost() -> None:
    line = estimate_line("local/m", Speed(100.0, 20.0), 2, 250.0)
    assert line.startswith("local/m here: 100 prompt tokens/s, 20 generated tokens/s (2 threads)")
    assert "about 40 s for a first prompt of 4000 tokens, 2.0 s for 200 new ones" in line
    assert "plus 5.0 s per 100 tokens it writes; per-call timeout 250 s" in line


async def test_the_measured_speed_sets_the_timeout_and_is_printed(
    server: ScriptServer, capfd: pytest.CaptureFixture[str]
) -> None:
    server.then(CHECK)
    local = provider(StaticPool([server.url + "/v1"]), {})
    async with local:
        speed = local.speed
        assert speed is not None
        assert speed.prompt_tps <= 100 / 0.5 and speed.generate_tps <= 32 / 0.5
        timeout = local.chat_model.options.timeout
        assert timeout == call_timeout(speed, 8192, 512)
        assert timeout >= MARGIN * (8192 / 200 + 512 / 64)  # at least what the bounds give
    paths = [r.path for r in server.requests]
    assert paths == ["/v1/completions"] * 3  # a warm-up, the prompt, the prompt reused
    warm, evaluated, reused = server.bodies()
    assert evaluated["prompt"] == reused["prompt"] != warm["prompt"]
    assert (evaluated["max_tokens"], reused["max_tokens"]) == (1, 32)
    err = capfd.readouterr().err
    assert f"tau-sim: local/m here: {speed.prompt_tps:.0f} prompt tokens/s" in err
    assert err.rstrip().endswith(f"per-call timeout {timeout:.0f} s")


async def test_a_given_timeout_is_kept(server: ScriptServer) -> None:
    server.then(CHECK)
    local = provider(StaticPool([server.url + "/v1"]), {"timeout": 42})
    async with local:
        assert local.speed is not None
        assert local.chat_model.options.timeout == 42


async def test_a_failed_speed_check_stops_the_servers(tmp_path: Path) -> None:
    spec = ReplicaSpec(argv=(sys.executable, TINY, "--port", "{port}"), name="tiny")
    pool = ReplicaPool([spec], LaunchOptions(log_dir=tmp_path, stop_grace_s=5))
    with pytest.raises(
        LaunchError, match=r"^local/m: measuring http://127\.0\.0\.1:\d+/v1 failed"
    ) as e:
        async with provider(pool, {}):
            pass
    assert "404 Not Found" in str(e.value) and "\n" not in str(e.value)
    (replica,) = pool.status()
    assert replica.pid is not None and replica.state is ReplicaState.STOPPED
    with pytest.raises(ProcessLookupError):  # the guard's process group, its server included
        os.killpg(replica.pid, 0)
