"""The launcher against real subprocesses: a tiny OpenAI-compatible server started as replicas."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import anyio
import openai
import psutil
import pytest

from tau_sim.simulator.core.chat import ChatMessage, ChatResponse, ModelError
from tau_sim.simulator.core.errors import OptionError, UsageError
from tau_sim.simulator.models._server_process import LaunchError, redact_argv
from tau_sim.simulator.models.launcher import (
    LaunchOptions,
    ReplicaPool,
    ReplicaSpec,
    ReplicaState,
    StaticPool,
)
from tau_sim.simulator.models.servers import make_server_provider

pytestmark = pytest.mark.anyio

TINY = str(Path(__file__).parents[2] / "helpers" / "tiny_server.py")


def tiny_spec(*flags: str) -> ReplicaSpec:
    return ReplicaSpec(argv=(sys.executable, TINY, "--port", "{port}", *flags), name="tiny")


def options(tmp_path: Path, **kw: float) -> LaunchOptions:
    base: dict[str, float] = {"startup_timeout_s": 20.0, "stop_grace_s": 2.0}
    base.update(kw)
    return LaunchOptions(log_dir=tmp_path, watch_interval_s=0.1, **base)  # type: ignore[arg-type]


def tree_pids(pool: ReplicaPool) -> set[int]:
    pids: set[int] = set()
    for status in pool.status():
        assert status.pid is not None
        proc = psutil.Process(status.pid)
        pids |= {proc.pid, *(c.pid for c in proc.children(recursive=True))}
    return pids


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


async def wait_until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    with anyio.fail_after(seconds):
        while not condition():  # noqa: ASYNC110 - polling processes, there is no event
            await anyio.sleep(0.05)


async def wait_all_gone(pids: set[int]) -> None:
    await wait_until(lambda: all(gone(p) for p in pids))


async def ask(pool: ReplicaPool | StaticPool, retries: int = 0) -> str:
    """One chat completion through the openai client against a replica the pool picks."""
    for attempt in range(retries + 1):
        try:
            async with (
                pool.acquire() as base_url,
                openai.AsyncOpenAI(
                    base_url=base_url, api_key="x", max_retries=0, timeout=10
                ) as client,
            ):
                reply = await client.chat.completions.create(
                    model="tiny", messages=[{"role": "user", "content": "hi"}]
                )
            return reply.choices[0].message.content or ""
        except openai.APIConnectionError:
            if attempt == retries:
                raise
            await anyio.sleep(0.2)
    raise AssertionError("unreachable")


async def test_two_replicas_share_load_and_leave_nothing(tmp_path: Path) -> None:
    pool = ReplicaPool([tiny_spec("--delay", "0.3", "--spawn-child")] * 2, options(tmp_path))
    async with pool:
        pids = tree_pids(pool)
        assert len(pids) == 6  # two guards, each with its server and its sleeping child
        ports = {s.url.split(":")[2].split("/")[0] for s in pool.status()}
        assert len(ports) == 2
        replies: list[str] = []

        async def one() -> None:
            replies.append(await ask(pool))

        async with anyio.create_task_group() as tg:
            for _ in range(8):
                tg.start_soon(one)
        counts = Counter(replies)
        assert set(counts) == {f"port {p}" for p in ports}
        assert sorted(counts.values()) == [4, 4]  # least outstanding: an even split
        assert all(s.outstanding == 0 for s in pool.status())
        assert all(s.log_path.exists() for s in pool.status())
    await wait_all_gone(pids)
    assert all(s.state is ReplicaState.STOPPED for s in pool.status())


async def test_sequential_requests_alternate(tmp_path: Path) -> None:
    async with ReplicaPool([tiny_spec()] * 2, options(tmp_path)) as pool:
        replies = [await ask(pool) for _ in range(6)]
    assert len(set(replies)) == 2
    assert replies[0::2] == [replies[0]] * 3


async def test_killed_replica_is_restarted(tmp_path: Path) -> None:
    async with ReplicaPool([tiny_spec("--spawn-child")] * 2, options(tmp_path)) as pool:
        first = pool.status()
        old_tree = tree_pids(pool)
        assert first[0].pid is not None
        os.kill(first[0].pid, signal.SIGKILL)
        for _ in range(10):  # one retry each, as the providers' retry policy would do
            assert (await ask(pool, retries=1)).startswith("port ")
        await wait_until(
            lambda: pool.status()[0].state is ReplicaState.UP and pool.status()[0].restarts == 1,
            10,
        )
        now = pool.status()[0]
        assert now.pid != first[0].pid and now.restarts == 1
        assert now.url == first[0].url  # back on its port: clients of that URL stay valid
        replies = {await ask(pool) for _ in range(4)}
        assert len(replies) == 2  # the restarted replica is back in rotation
        new_tree = tree_pids(pool)
    await wait_all_gone(old_tree | new_tree)


async def test_replica_out_of_rotation_while_down(tmp_path: Path) -> None:
    async with ReplicaPool([tiny_spec()] * 2, options(tmp_path, max_restarts=0)) as pool:
        victim = pool.status()[1]
        assert victim.pid is not None
        os.kill(victim.pid, signal.SIGKILL)
        await wait_until(lambda: pool.status()[1].state is ReplicaState.FAILED)
        survivor = pool.status()[0].url.split(":")[2].split("/")[0]
        assert {await ask(pool) for _ in range(4)} == {f"port {survivor}"}
        assert pool.urls == [pool.status()[0].url]


async def test_all_replicas_failed_is_a_model_error(tmp_path: Path) -> None:
    async with ReplicaPool([tiny_spec()], options(tmp_path, max_restarts=0)) as pool:
        pid = pool.status()[0].pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        await wait_until(lambda: pool.status()[0].state is ReplicaState.FAILED)
        with pytest.raises(ModelError, match="no replica of tiny is running"):
            async with pool.acquire():
                pass


async def test_server_that_exits_reports_its_log(tmp_path: Path) -> None:
    pool = ReplicaPool([tiny_spec("--fail-start")] * 2, options(tmp_path))
    with pytest.raises(LaunchError, match="exited with code 3") as info:
        async with pool:
            raise AssertionError("the block must not run when a replica fails to start")
    assert "failing on purpose" in str(info.value)
    assert "tiny replica" in str(info.value)
    assert all(s.state is ReplicaState.STOPPED for s in pool.status())
    with pytest.raises(RuntimeError, match="already started"):  # a pool runs once
        async with pool:
            pass


async def test_server_never_healthy_times_out(tmp_path: Path) -> None:
    opts = LaunchOptions(
        log_dir=tmp_path, health_paths=("/health",), startup_timeout_s=1.0, stop_grace_s=1.0
    )
    pool = ReplicaPool([tiny_spec("--unhealthy", "--spawn-child")], opts)
    started = time.monotonic()
    with pytest.raises(LaunchError, match=r"was not healthy after 1 s") as info:
        async with pool:
            pass
    assert time.monotonic() - started < 5
    assert "listening on" in str(info.value)
    pid = pool.status()[0].pid
    assert pid is not None and gone(pid)


async def test_missing_executable_is_a_launch_error(tmp_path: Path) -> None:
    pool = ReplicaPool([ReplicaSpec(argv=("/nonexistent/server", "{port}"))], options(tmp_path))
    with pytest.raises(LaunchError, match="cannot start '/nonexistent/server'"):
        async with pool:
            pass


async def test_sigterm_ignored_escalates_to_sigkill(tmp_path: Path) -> None:
    pool = ReplicaPool([tiny_spec("--ignore-term")], options(tmp_path, stop_grace_s=0.5))
    async with pool:
        pids = tree_pids(pool)
        started = time.monotonic()
    assert 0.4 < time.monotonic() - started < 5
    await wait_all_gone(pids)


async def test_cancellation_stops_servers(tmp_path: Path) -> None:
    pids: set[int] = set()
    with anyio.CancelScope() as scope:
        async with ReplicaPool([tiny_spec("--spawn-child")] * 2, options(tmp_path)) as pool:
            pids = tree_pids(pool)
            scope.deadline = anyio.current_time() + 0.2  # cancelled while the block waits
            await anyio.sleep_forever()
    assert pids and scope.cancelled_caught
    await wait_all_gone(pids)


async def test_an_error_in_the_block_stops_servers_and_propagates_as_is(tmp_path: Path) -> None:
    pids: set[int] = set()
    with pytest.raises(KeyError, match="from the block"):
        async with ReplicaPool([tiny_spec("--spawn-child")] * 2, options(tmp_path)) as pool:
            pids = tree_pids(pool)
            raise KeyError("from the block")
    assert len(pids) == 6  # two guards, two servers, two children
    await wait_all_gone(pids)


async def test_cancelled_while_starting_stops_servers(tmp_path: Path) -> None:
    opts = LaunchOptions(log_dir=tmp_path, health_paths=("/health",), startup_timeout_s=60)
    pool = ReplicaPool([tiny_spec("--unhealthy")] * 2, opts)
    with anyio.move_on_after(1.0) as scope:
        async with pool:
            pass
    assert scope.cancelled_caught
    pids = {s.pid for s in pool.status() if s.pid is not None}
    assert len(pids) == 2
    await wait_all_gone(pids)


STATE_WITHIN = 120
"""The longest a state of the child's process tree may take to come on a loaded machine (the
tests go on as soon as it holds)."""


def run_pool_in_child(tmp_path: Path, how: signal.Signals, flags: str, processes: int) -> set[int]:
    """Start a pool in a child Python, wait until its tree holds ``processes`` processes (the
    guards, the servers and what they start), end the child with ``how``; their pids."""
    script = tmp_path / "main.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import asyncio, sys
            from tau_sim.simulator.models.launcher import LaunchOptions, ReplicaPool, ReplicaSpec

            async def main():
                spec = ReplicaSpec(argv=(sys.executable, {TINY!r}, "--port", "{{port}}", {flags}))
                pool = ReplicaPool([spec, spec], LaunchOptions(log_dir={str(tmp_path)!r}))
                async with pool:
                    print(" ".join(str(s.pid) for s in pool.status()), flush=True)
                    await asyncio.sleep(60)

            asyncio.run(main())
            """
        )
    )
    child = subprocess.Popen(
        [sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.strip()[:1].isdigit(), line + child.stdout.read()
        leaders = [int(p) for p in line.split()]
        assert len(leaders) == 2
        pids = set(leaders)
        deadline = time.monotonic() + STATE_WITHIN
        while len(pids) < processes and time.monotonic() < deadline:
            for pid in leaders:
                pids |= {c.pid for c in psutil.Process(pid).children(recursive=True)}
            time.sleep(0.02)
        child.send_signal(how)
        child.wait(timeout=STATE_WITHIN)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        if child.stdout is not None:
            child.stdout.close()
    return pids


def wait_gone_blocking(pids: set[int]) -> bool:
    deadline = time.monotonic() + STATE_WITHIN
    while not all(gone(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return all(gone(p) for p in pids)


def test_ctrl_c_in_asyncio_run_leaves_no_server(tmp_path: Path) -> None:
    pids = run_pool_in_child(tmp_path, signal.SIGINT, '"--spawn-child"', 6)
    assert len(pids) == 6  # two guards, two servers, two children
    assert wait_gone_blocking(pids)


@pytest.mark.skipif(sys.platform != "linux", reason="parent-death signal is Linux-only")
def test_servers_die_with_a_killed_tau_sim(tmp_path: Path) -> None:
    pids = run_pool_in_child(tmp_path, signal.SIGKILL, "", 4)  # no cleanup code runs at all
    assert len(pids) == 4  # two guards, two servers
    assert wait_gone_blocking(pids)


async def test_static_pool_balances_by_outstanding() -> None:
    pool = StaticPool(["http://a/v1/", "http://b/v1"])
    async with pool.acquire() as first, pool.acquire() as second:
        assert {first, second} == {"http://a/v1", "http://b/v1"}
        async with pool.acquire() as third:
            assert third == "http://a/v1"
    async with pool.acquire() as again:
        assert again == "http://b/v1"  # b was picked less recently


def test_secrets_are_masked_in_logged_command_lines() -> None:
    argv = [
        "vllm",
        "serve",
        "m",
        "--api-key",
        "sk-123",
        "--hf-token=abc",
        "--max-num-batched-tokens",
        "8",
    ]
    assert redact_argv(argv) == [
        "vllm",
        "serve",
        "m",
        "--api-key",
        "***",
        "--hf-token=***",
        "--max-num-batched-tokens",
        "8",
    ]


async def test_server_provider_through_the_openai_chat_model(tmp_path: Path) -> None:
    serve = f"{sys.executable} {TINY} --port {{port}} --delay 0.2"
    provider = make_server_provider(
        "tiny", {"serve": serve, "replicas": 2, "log_dir": str(tmp_path), "max_retries": 2}
    )
    async with provider:
        model = provider.for_conversation(None, "agent")  # type: ignore[arg-type]
        assert model.backend == "server"
        replies: list[ChatResponse] = []

        async def one() -> None:
            replies.append(await model.chat([ChatMessage(role="user", content="hi")], []))

        async with anyio.create_task_group() as tg:
            for _ in range(4):
                tg.start_soon(one)
        assert len({r.message.content for r in replies}) == 2
        assert all(r.usage.tokens_in == 3 and r.usage.tokens_out == 2 for r in replies)
        pids = tree_pids(provider.pool)  # type: ignore[arg-type]
    await wait_all_gone(pids)


def test_server_provider_needs_a_command_with_a_port() -> None:
    with pytest.raises(UsageError, match=r"serve=\"\.\.\. --port \{port\}"):
        make_server_provider("tiny", {"serve": "python -m http.server"})
    with pytest.raises(UsageError, match=r"serve=\"\.\.\. --port \{port\}"):
        make_server_provider("tiny", {})


def test_server_unknown_key_lists_the_server_launcher_and_client_keys() -> None:
    with pytest.raises(OptionError) as caught:
        make_server_provider("tiny", {"serve": "x --port {port}", "bogus": 1})
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(
        "server/tiny: unknown option 'bogus' (known: health, replicas, serve; "
    )
    assert "; launcher: log_dir, max_restarts, startup_timeout, stop_grace; " in message
    assert "; client: api_key, api_key_env, " in message and "max_connections" in message


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"replicas": 0}, r"replicas=0: Expected `int` >= 1"),
        ({"replicas": "many"}, r"replicas='many': Expected `int`, got `str`"),
        ({"startup_timeout": 0}, r"startup_timeout=0: Expected `float` > 0"),
        ({"health": {"a": 1}}, r"health=\{'a': 1\}: Expected `array`, got `object`"),
        ({"max_connections": "lots"}, r"max_connections='lots': Expected `int`, got `str`"),
    ],
)
def test_server_bad_values_name_key_value_and_reason(args: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=rf"^server/tiny: invalid option {message}"):
        make_server_provider("tiny", {"serve": "x --port {port}", **args})


def test_server_toml_lists_and_strings_give_the_same_command() -> None:
    as_strings = make_server_provider(
        "org/m",
        {
            "serve": "srv --port {port} --name 'a b'",
            "health": "/ready, /v1/models",
            "replicas": "2",
        },
    )
    as_lists = make_server_provider(
        "org/m",
        {"serve": ["srv", "--port", "{port}", "--name", "a b"], "health": ["/ready", "/v1/models"]},
    )
    pools = [as_strings.pool, as_lists.pool]
    assert all(isinstance(p, ReplicaPool) for p in pools)
    a, b = (p for p in pools if isinstance(p, ReplicaPool))
    assert a._replicas[0].spec.argv == b._replicas[0].spec.argv
    assert a._replicas[0].spec.command("h", 7) == ["srv", "--port", "7", "--name", "a b"]
    assert a._replicas[0].spec.name == "org_m"
    assert a.options.health_paths == b.options.health_paths == ("/ready", "/v1/models")
    assert (len(a._replicas), len(b._replicas)) == (2, 1)
    assert a.options.startup_timeout_s == 120.0


def test_server_default_health_paths() -> None:
    for health in ({}, {"health": ""}):
        provider = make_server_provider("tiny", {"serve": "x --port {port}", **health})
        assert isinstance(provider.pool, ReplicaPool)
        assert provider.pool.options.health_paths == ("/health", "/v1/models")
