"""Limits, retries, pricing and reasoning of the model backends."""

from __future__ import annotations

import anyio
import pytest

from tau_sim.simulator.models.clients import ClientPool
from tau_sim.simulator.models.hosted import retries_before
from tau_sim.simulator.models.limits import connection_slot
from tau_sim.simulator.models.pricing import cost_usd, price_of
from tau_sim.simulator.models.reasoning import join_reasoning, split_think


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
