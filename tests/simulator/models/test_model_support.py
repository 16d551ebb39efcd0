"""Limits, options, pricing, reasoning and tool-argument parsing."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.models.clients import ClientPool
from tau_sim.simulator.models.hosted import retries_before
from tau_sim.simulator.models.limits import connection_slot
from tau_sim.simulator.models.options import (
    load_config,
    model_options,
    parse_key_values,
    parse_value,
)
from tau_sim.simulator.models.pricing import cost_usd, price_of
from tau_sim.simulator.models.reasoning import join_reasoning, split_think
from tau_sim.simulator.models.toolargs import dump_arguments, parse_arguments


def test_client_pool_grows_on_demand_and_picks_the_least_busy() -> None:
    names = iter("abcd")
    clients = ClientPool(lambda: next(names), per_client=2, most=3)
    with clients.pick() as first, clients.pick() as second:
        assert [first, second] == ["a", "a"]
        with clients.pick() as third, clients.pick() as fourth:
            assert [third, fourth] == ["b", "b"]
        with clients.pick() as fifth:
            assert fifth == "b"  # the least busy, no new client
        assert clients.busy == [2, 0]
    assert clients.busy == [0, 0]
    holds = [clients.pick() for _ in range(7)]
    picked = [hold.__enter__() for hold in holds]
    assert picked == ["a", "b", "a", "b", "c", "c", "a"]  # at most 3: the least busy takes more
    assert clients.busy == [3, 2, 2]
    for hold in holds:
        hold.__exit__(None, None, None)
    assert clients.clients == ["a", "b", "c"]


def test_retries_before_reads_the_sdk_header() -> None:
    import httpx2

    request = httpx2.Request("POST", "http://x/v1", headers={"x-stainless-retry-count": "3"})
    assert retries_before(request) == 3
    assert retries_before(httpx2.Request("POST", "http://x/v1")) == 0
    assert retries_before(None) == 0


@pytest.mark.anyio
async def test_connection_slot_caps_per_key() -> None:
    inside = peak = 0

    async def hold(key: str) -> None:
        nonlocal inside, peak
        async with connection_slot(key, 2):
            inside += 1
            peak = max(peak, inside)
            await anyio.sleep(0.01)
            inside -= 1

    async with anyio.create_task_group() as tg:
        for _ in range(8):
            tg.start_soon(hold, "http://a")
    assert peak == 2


def test_parse_values_and_pairs() -> None:
    assert [parse_value(v) for v in ["true", "False", "3", "-2.5", "1e3", "none", "abc"]] == [
        True,
        False,
        3,
        -2.5,
        1000.0,
        None,
        "abc",
    ]
    assert parse_value('["a", "b"]') == ["a", "b"]
    assert parse_value('{"k": 1}') == {"k": 1}
    assert parse_key_values(
        ["temperature=0.2", "stream=true", "url=http://x/v1?a=b"], "--agent-arg"
    ) == {
        "temperature": 0.2,
        "stream": True,
        "url": "http://x/v1?a=b",
    }
    with pytest.raises(UsageError, match="--user-arg: expected key=value, got 'oops'"):
        parse_key_values(["oops"], "--user-arg")


def test_run_file_merges_model_role_and_cli(tmp_path: Path) -> None:
    path = tmp_path / "run.toml"
    path.write_text(
        """
[agent]
temperature = 0.0
max_tokens = 300

[user]
temperature = 1.0

[models."openai/gpt-4.1"]
max_connections = 16
temperature = 0.5

[run]
concurrency = 64
"""
    )
    config = load_config(path)
    assert config.run == {"concurrency": 64}
    # the model's own table wins over the role's table, the command line over both
    assert model_options(config, "agent", "openai/gpt-4.1", {"max_tokens": 100}) == {
        "max_connections": 16,
        "temperature": 0.5,
        "max_tokens": 100,
    }
    assert model_options(config, "user", "anthropic/claude-x") == {"temperature": 1.0}
    assert model_options(None, "user", "x/y", {"a": 1}) == {"a": 1}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[agnet]\nx = 1\n", r"unknown table \[agnet\]"),
        ("[agent\n", "invalid TOML"),
        ('[models]\n"gpt" = {a = 1}\n', 'models."gpt" is not a provider/model name'),
        ("agent = 3\n", "agent must be a table"),
    ],
)
def test_run_file_errors_name_file_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(UsageError, match=message) as info:
        load_config(path)
    assert str(path) in str(info.value)
    with pytest.raises(UsageError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_prices() -> None:
    assert price_of("gpt-4.1-mini-2025-04-14") == (0.40, 1.60)
    assert price_of("openai/gpt-4o") == (2.50, 10.0)
    assert price_of("claude-sonnet-4-5-20250929") == (3.0, 15.0)
    assert price_of("Qwen/Qwen3-8B") is None
    assert price_of("gpt-4o-mini-turbo") is None  # not a dated snapshot: no guess
    assert cost_usd(2_000_000, 1_000_000, (1.0, 2.0)) == 4.0
    assert cost_usd(5, 5, None) is None


@pytest.mark.parametrize(
    ("content", "text", "reasoning"),
    [
        ("plain", "plain", None),
        ("<think>a</think>b", "b", "a"),
        ("<think>\na\n</think>\n\nb", "b", "a"),
        ("a</think>b", "b", "a"),  # the template opened the block in the prompt
        ("<think>cut off", None, "cut off"),
        ("x<think>1</think>y<think>2</think>z", "xyz", "1\n\n2"),
        ("<think></think>hi", "hi", None),
        (None, None, None),
    ],
)
def test_split_think(content: str | None, text: str | None, reasoning: str | None) -> None:
    assert split_think(content) == (text, reasoning)


def test_join_reasoning() -> None:
    assert join_reasoning(None, " a ", "", "b") == "a\n\nb"
    assert join_reasoning(None, "  ") is None


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ("", {}),
        (None, {}),
        ({"a": 1}, {"a": 1}),
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ('Sure! {"a": 1} done', {"a": 1}),
        ('"{\\"a\\": 1}"', {"a": 1}),
        ('[{"a": 1}]', {"a": 1}),
        ('{"a": 1', {"__raw__": '{"a": 1'}),
        ("42", {"__raw__": "42"}),
        ("[1, 2]", {"__raw__": "[1, 2]"}),
    ],
)
def test_parse_arguments(raw: str | dict[str, int] | None, expected: dict[str, object]) -> None:
    assert parse_arguments(raw) == expected


def test_dump_arguments() -> None:
    assert dump_arguments({"a": 1}) == '{"a":1}'
    assert dump_arguments({"__raw__": "{bad"}) == "{bad"
