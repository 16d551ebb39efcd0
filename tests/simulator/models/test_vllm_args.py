"""``vllm/MODEL``: the command lines it builds, its parser table and its errors.

vLLM cannot run on these machines; a fake ``vllm`` executable (the tiny test server behind a
shell script) checks the launch path: one replica per tensor-parallel group, each with its GPUs.
"""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import openai
import pytest

from tau_sim.simulator.core.errors import OptionError, UsageError
from tau_sim.simulator.models.launcher import ReplicaPool, StaticPool
from tau_sim.simulator.models.openai_provider import OpenAIChatModel
from tau_sim.simulator.models.servers import ServerModelProvider
from tau_sim.simulator.models.vllm_provider import (
    make_vllm_provider,
    reasoning_parser_for,
    tool_parser_for,
    visible_gpus,
    vllm_replicas,
)

TINY = Path(__file__).parents[2] / "helpers" / "tiny_server.py"


@pytest.mark.parametrize(
    ("model", "parser"),
    [
        ("Qwen/Qwen3-8B", "hermes"),
        ("Qwen/Qwen3-30B-A3B-Instruct-2507", "hermes"),
        ("Qwen/Qwen2.5-7B-Instruct", "hermes"),
        ("Qwen/QwQ-32B", "hermes"),
        ("Qwen/Qwen3-Coder-30B-A3B-Instruct", "qwen3_xml"),
        ("meta-llama/Llama-3.1-8B-Instruct", "llama3_json"),
        ("meta-llama/Meta-Llama-3.1-70B-Instruct", "llama3_json"),
        ("meta-llama/Llama-3.3-70B-Instruct", "llama3_json"),
        ("meta-llama/Llama-4-Scout-17B-16E-Instruct", "llama4_pythonic"),
        ("mistralai/Mistral-7B-Instruct-v0.3", "mistral"),
        ("mistralai/Mistral-Small-3.2-24B-Instruct-2506", "mistral"),
        ("NousResearch/Hermes-3-Llama-3.1-8B", "hermes"),
        ("Salesforce/Llama-xLAM-2-8b-fc-r", "xlam"),
        ("ibm-granite/granite-3.1-8b-instruct", "granite"),
        ("ibm-granite/granite-4.0-h-small", "granite4"),
        ("openai/gpt-oss-20b", "openai"),
        ("deepseek-ai/DeepSeek-V3.1", "deepseek_v31"),
        ("moonshotai/Kimi-K2-Instruct", "kimi_k2"),
        ("zai-org/GLM-4.5-Air", "glm45"),
        ("/models/qwen3_8b_awq", "hermes"),
    ],
)
def test_tool_parser_by_family(model: str, parser: str) -> None:
    assert tool_parser_for(model) == parser


def test_reasoning_parser_only_for_thinking_models() -> None:
    assert reasoning_parser_for("Qwen/Qwen3-8B") == "qwen3"
    assert reasoning_parser_for("Qwen/Qwen3-4B-Thinking-2507") == "qwen3"
    assert reasoning_parser_for("Qwen/Qwen3-30B-A3B-Instruct-2507") is None
    assert reasoning_parser_for("Qwen/Qwen3-Coder-30B-A3B-Instruct") is None
    assert reasoning_parser_for("Qwen/QwQ-32B") == "deepseek_r1"
    assert reasoning_parser_for("meta-llama/Llama-3.1-8B-Instruct") is None


def test_one_replica_per_gpu() -> None:
    specs = vllm_replicas("Qwen/Qwen3-8B", gpus=["0", "1"], tool_parser="hermes")
    assert len(specs) == 2
    assert specs[0].command("127.0.0.1", 8001) == [
        "vllm",
        "serve",
        "Qwen/Qwen3-8B",
        "--host",
        "127.0.0.1",
        "--port",
        "8001",
        "--enable-auto-tool-choice",
        "--tool-call-parser",
        "hermes",
    ]
    assert [s.env["CUDA_VISIBLE_DEVICES"] for s in specs] == ["0", "1"]


def test_tensor_parallel_groups_and_extra_flags() -> None:
    specs = vllm_replicas(
        "Qwen/Qwen3-32B",
        gpus=["0", "1", "2", "3"],
        tp=2,
        tool_parser="hermes",
        reasoning_parser="qwen3",
        extra=["--max-model-len", "16384"],
    )
    assert [s.env["CUDA_VISIBLE_DEVICES"] for s in specs] == ["0,1", "2,3"]
    argv = specs[1].command("127.0.0.1", 9000)
    assert argv[argv.index("--tensor-parallel-size") + 1] == "2"
    assert argv[argv.index("--reasoning-parser") + 1] == "qwen3"
    assert argv[-2:] == ["--max-model-len", "16384"]


def test_gpus_that_do_not_split_by_tp() -> None:
    with pytest.raises(UsageError, match=r"3 GPU\(s\) \(0,1,2\) do not split .* tp=2"):
        vllm_replicas("Qwen/Qwen3-8B", gpus=["0", "1", "2"], tp=2, tool_parser="hermes")


def provider_argv(provider: ServerModelProvider) -> list[list[str]]:
    pool = provider.pool
    assert isinstance(pool, ReplicaPool)
    return [[*r.spec.command("h", 1), r.spec.env["CUDA_VISIBLE_DEVICES"]] for r in pool._replicas]


def test_provider_arguments_from_cli_strings() -> None:
    provider = make_vllm_provider(
        "Qwen/Qwen3-8B",
        {"gpus": "2,3", "tp": "2", "extra": "--max-model-len 8192 --gpu-memory-utilization 0.85"},
    )
    [argv] = provider_argv(provider)
    assert argv[:3] == ["vllm", "serve", "Qwen/Qwen3-8B"]
    assert "--reasoning-parser" in argv and argv[-1] == "2,3"
    assert argv[-5:-1] == ["--max-model-len", "8192", "--gpu-memory-utilization", "0.85"]


def test_provider_arguments_from_toml_values() -> None:
    provider = make_vllm_provider(
        "my-org/custom-7b",
        {"gpus": [0, 1], "tool_parser": "hermes", "reasoning_parser": "off", "startup_timeout": 9},
    )
    argvs = provider_argv(provider)
    assert [a[-1] for a in argvs] == ["0", "1"]
    assert all("--reasoning-parser" not in a for a in argvs)
    assert all(a[a.index("--tool-call-parser") + 1] == "hermes" for a in argvs)
    pool = provider.pool
    assert isinstance(pool, ReplicaPool)
    assert pool.options.startup_timeout_s == 9
    assert pool.options.health_paths == ("/health",)


def test_unknown_family_is_a_usage_error_before_the_run() -> None:
    with pytest.raises(UsageError, match=r"no known vLLM tool-call parser.*tool_parser=NAME"):
        make_vllm_provider("google/gemma-3-27b-it", {})


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"tp": "two"}, r"tp='two': Expected `int`, got `str`"),
        ({"tp": 0}, r"tp=0: Expected `int` >= 1"),
        ({"startup_timeout": "-1"}, r"startup_timeout='-1': Expected `float` > 0"),
        ({"stop_grace": 0}, r"stop_grace=0: Expected `float` > 0"),
        ({"max_restarts": -1}, r"max_restarts=-1: Expected `int` >= 0"),
        ({"gpus": {"a": 1}}, r"gpus=\{'a': 1\}: Expected `array`, got `object`"),
        (
            {"extra": "--chat-template 'a b"},
            r"extra=\"--chat-template 'a b\": No closing quotation",
        ),
    ],
)
def test_bad_values_name_key_value_and_reason(args: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=rf"^vllm/Qwen/Qwen3-8B: invalid option {message}"):
        make_vllm_provider("Qwen/Qwen3-8B", args)


@pytest.mark.parametrize("key", ["gpus", "tp", "extra", "startup_timeout", "log_dir"])
def test_launching_keys_cannot_go_with_base_url(key: str) -> None:
    with pytest.raises(UsageError, match=rf"{key}=\.\.\. launches servers; .* with base_url"):
        make_vllm_provider("Qwen/Qwen3-8B", {"base_url": "http://x/v1", key: "1"})


def test_unknown_key_lists_the_vllm_launcher_and_client_keys() -> None:
    with pytest.raises(OptionError) as caught:
        make_vllm_provider("Qwen/Qwen3-8B", {"tensor_parallel": 2})
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("vllm/Qwen/Qwen3-8B: unknown option 'tensor_parallel' (known: ")
    own, launcher, client = message.partition("(known: ")[2].rstrip(")").split("; ")
    assert own == "base_url, extra, gpus, reasoning_parser, tool_parser, tp, vllm"
    assert launcher == "launcher: log_dir, max_restarts, startup_timeout, stop_grace"
    assert client.startswith("client: api_key, api_key_env, connect_timeout")
    assert "temperature" in client.split(", ")


def test_a_toml_list_and_a_string_give_the_same_argv() -> None:
    as_strings = make_vllm_provider(
        "Qwen/Qwen3-8B",
        {"gpus": "0, 1", "extra": "--max-model-len 8192 --chat-template '/t/a b.jinja'"},
    )
    as_lists = make_vllm_provider(
        "Qwen/Qwen3-8B",
        {"gpus": [0, 1], "extra": ["--max-model-len", "8192", "--chat-template", "/t/a b.jinja"]},
    )
    argvs = provider_argv(as_strings)
    assert argvs == provider_argv(as_lists)
    assert [a[-1] for a in argvs] == ["0", "1"]
    assert argvs[0][-5:-1] == ["--max-model-len", "8192", "--chat-template", "/t/a b.jinja"]
    # --agent-arg gpus=3 arrives as the integer 3
    assert provider_argv(make_vllm_provider("Qwen/Qwen3-8B", {"gpus": 3}))[0][-1] == "3"


@pytest.mark.parametrize("off", [None, False, "none", "OFF", ""])
def test_reasoning_parser_turned_off(off: object) -> None:
    [argv] = provider_argv(
        make_vllm_provider("Qwen/Qwen3-8B", {"gpus": "0", "reasoning_parser": off})
    )
    assert "--reasoning-parser" not in argv


@pytest.mark.parametrize(("given", "parser"), [(True, "qwen3"), ("deepseek_r1", "deepseek_r1")])
def test_reasoning_parser_by_family_or_given(given: object, parser: str) -> None:
    provider = make_vllm_provider("Qwen/Qwen3-8B", {"gpus": "0", "reasoning_parser": given})
    [argv] = provider_argv(provider)
    assert argv[argv.index("--reasoning-parser") + 1] == parser


def test_launcher_defaults_and_client_options() -> None:
    provider = make_vllm_provider("Qwen/Qwen3-8B", {"gpus": "0", "temperature": "0.5"})
    pool = provider.pool
    assert isinstance(pool, ReplicaPool)
    assert pool.options.startup_timeout_s == 1800.0
    assert (pool.options.stop_grace_s, pool.options.max_restarts) == (10.0, 10)
    assert pool.options.log_dir is None
    assert isinstance(provider.model, OpenAIChatModel)
    assert provider.model.options.temperature == 0.5


def test_no_model_name() -> None:
    with pytest.raises(UsageError, match="name the model"):
        make_vllm_provider("", {})


def test_base_url_list_makes_a_static_pool_and_needs_no_parser() -> None:
    provider = make_vllm_provider(
        "google/gemma-3-27b-it", {"base_url": "http://a:8000/v1, http://b:8000/v1/"}
    )
    pool = provider.pool
    assert isinstance(pool, StaticPool)
    assert pool.urls == ["http://a:8000/v1", "http://b:8000/v1"]


def test_visible_gpus_follows_cuda_visible_devices(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "4, 5")
    assert visible_gpus() == ["4", "5"]
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES")
    assert len(visible_gpus()) >= 1


@pytest.mark.anyio
async def test_missing_vllm_executable_fails_at_start() -> None:
    provider = make_vllm_provider("Qwen/Qwen3-8B", {"vllm": "/nonexistent/vllm", "gpus": "0"})
    with pytest.raises(UsageError, match="'/nonexistent/vllm' is not on PATH"):
        async with provider:
            pass


@pytest.mark.anyio
async def test_fake_vllm_one_replica_per_tp_group(tmp_path: Path) -> None:
    fake = tmp_path / "vllm"
    fake.write_text(
        "#!/bin/sh\n"
        '[ "$1" = serve ] || exit 2\n'
        "shift 2\n"
        f'exec {sys.executable} {TINY} "$@" --echo-env CUDA_VISIBLE_DEVICES\n'
    )
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    provider = make_vllm_provider(
        "Qwen/Qwen3-8B",
        {"vllm": str(fake), "gpus": "0,1,2,3", "tp": 2, "log_dir": str(tmp_path / "logs")},
    )
    async with provider:
        assert provider.pool is not None
        seen: set[str] = set()
        for _ in range(4):
            async with (
                provider.pool.acquire() as url,
                openai.AsyncOpenAI(base_url=url, api_key="x", max_retries=0) as client,
            ):
                reply = await client.chat.completions.create(
                    model="Qwen/Qwen3-8B", messages=[{"role": "user", "content": "hi"}]
                )
            seen.add((reply.choices[0].message.content or "").split()[-1])
        assert seen == {"CUDA_VISIBLE_DEVICES=0,1", "CUDA_VISIBLE_DEVICES=2,3"}
        logs = sorted(p.name for p in (tmp_path / "logs").iterdir())
        assert logs == ["vllm-0.log", "vllm-1.log"]
        assert "--tool-call-parser hermes" in (tmp_path / "logs" / "vllm-0.log").read_text()
