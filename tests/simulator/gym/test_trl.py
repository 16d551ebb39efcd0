"""``TauSimToolEnv`` driven the way TRL's ``GRPOTrainer(environment_factory=...)`` drives it.

TRL (read at huggingface/trl f2cd577, 1.10.0.dev0, ``trl/trainer/grpo_trainer.py``) makes one
instance per rollout from the zero-argument factory, finds the tools with
``inspect.getmembers(env, inspect.ismethod)`` less ``reset``, ``get_reward`` and names starting
with ``_``, renders their schemas through transformers' ``get_json_schema`` (signature, type
hints, Google-style docstring), calls ``reset(**row)`` and uses the string as the prompt, calls
each tool as ``tool(**arguments)`` (a raise becomes ``{"error": str(exc)}``), and reads
``get_reward()`` once the rollout is over. TRL itself needs a GPU stack to train and is not
needed here; transformers' schema builder is used where it is importable (required where
``TAU_SIM_REQUIRE_TRL`` is set). The scripted gold agent (built test-side with the answer key)
plays the gold path through the methods; scripted agents calibrate the harness.
"""

from __future__ import annotations

import asyncio
import inspect
import pickle
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.simulator.gym.needs import require_gym

require_gym()

from tau_sim.simulator.core.chat import ChatMessage, ToolCallSpec  # noqa: E402
from tau_sim.simulator.core.errors import UsageError  # noqa: E402
from tau_sim.simulator.core.registry import get_domain  # noqa: E402
from tau_sim.simulator.gym.trl import (  # noqa: E402
    TauSimToolEnv,
    close_tool_env,
    tool_env_factory,
)
from tests.helpers import cli  # noqa: E402
from tests.helpers.require import import_or_require  # noqa: E402
from tests.helpers.servers import plausible_server  # noqa: E402
from tests.simulator.gym.play import gold_agent  # noqa: E402

FIRST = "The customer's first message:\n"
RESERVED = ("reset", "get_reward")


def trl_tools(env: object) -> dict[str, Callable[..., Any]]:
    """The tools TRL finds on an environment: its public bound methods but the reserved two."""
    return {
        name: member
        for name, member in inspect.getmembers(env, predicate=inspect.ismethod)
        if name not in RESERVED and not name.startswith("_")
    }


def trl_call(tools: dict[str, Callable[..., Any]], name: str, arguments: dict[str, Any]) -> str:
    """One tool call as TRL makes it: keyword arguments; a raise becomes an error result."""
    try:
        return str(tools[name](**arguments))
    except Exception as exc:  # TRL's own handling; a test below asserts none happens
        return str({"error": str(exc)})


def play_gold(
    env: TauSimToolEnv, swap: dict[str, Callable[..., str]] | None = None, **reset: Any
) -> float:
    """Reset, then play the gold agent's turns through the tool methods; the reward.

    The agent's history is built from what the methods return, as TRL builds it; ``swap``
    replaces some tools with the test's wrappers.
    """
    prompt = env.reset(**reset)
    agent = gold_agent(env.info)
    tools = {**trl_tools(env), **(swap or {})}
    history = [ChatMessage(role="user", content=prompt.split(FIRST, 1)[1])]
    while not env.ending and len(history) < 120:
        message = asyncio.run(agent.respond(list(history))).message
        for call in message.tool_calls:
            one = ChatMessage(role="assistant", content=None, tool_calls=[call])
            history += [one, tool_message(call, trl_call(tools, call.name, dict(call.arguments)))]
        if not message.tool_calls:
            reply = trl_call(tools, "send_message_to_user", {"text": message.content or ""})
            history += [message, ChatMessage(role="user", content=reply)]
    return env.get_reward()


def tool_message(call: ToolCallSpec, content: str) -> ChatMessage:
    """The tool message TRL appends for a call's result."""
    return ChatMessage(role="tool", content=content, tool_call_id=call.id, name=call.name)


@pytest.fixture(scope="module")
def env() -> Any:
    """One retail environment shared by the tests that only read it."""
    made = tool_env_factory("retail", emotion="anger", intensity="high")()
    yield made
    close_tool_env(made)


def test_the_tools_trl_finds_are_the_domain_tools_and_the_user_channel(env: TauSimToolEnv) -> None:
    specs = get_domain("retail").toolkit.specs
    tools = trl_tools(env)
    assert sorted(tools) == sorted([s.name for s in specs] + ["send_message_to_user"])
    assert all(tool.__name__ == name for name, tool in tools.items())  # TRL's key


def test_each_tool_schema_as_transformers_builds_it_matches_the_domain_schema(
    env: TauSimToolEnv,
) -> None:
    utils = import_or_require(
        "transformers.utils", "TRL", "transformers (TRL's schema builder) is not installed"
    )
    tools = trl_tools(env)
    for spec in get_domain("retail").toolkit.specs:
        built = utils.get_json_schema(tools[spec.name])["function"]
        assert built["name"] == spec.name
        assert built["description"] == " ".join(spec.description.split())
        params = built["parameters"]
        assert set(params.get("required", [])) == set(spec.parameters.get("required", []))
        for name, want in spec.parameters["properties"].items():
            got = params["properties"][name]
            assert got["description"] == " ".join(want["description"].split()), name
            assert got.get("enum") == want.get("enum"), name
            if "type" in want:
                assert got["type"] == want["type"], name
    channel = utils.get_json_schema(tools["send_message_to_user"])["function"]
    assert channel["parameters"]["required"] == ["text"]
    assert channel["parameters"]["properties"]["text"]["type"] == "string"


def test_reset_gives_the_policy_and_the_first_message_and_no_answer_key(
    env: TauSimToolEnv,
) -> None:
    prompt = env.reset(task="retail-000", prompt=[{"role": "user", "content": ""}])
    assert prompt.startswith("You are a customer-service agent of Retail")
    assert "send_message_to_user" in prompt and prompt.split(FIRST, 1)[1].strip()
    assert "#W4803757" not in prompt.split(FIRST, 1)[0]  # the gold order is the user's to say
    assert env.info["task_id"] == "retail-000"
    assert (env.info["emotion"], env.info["intensity"]) == ("frustration", 0.9)


def test_bad_arguments_come_back_as_the_toolkits_error_text_not_a_raise(
    env: TauSimToolEnv,
) -> None:
    env.reset(task="retail-000", emotion="neutral")
    tools = trl_tools(env)
    missing = tools["get_order_details"]()
    wrong_type = tools["get_order_details"](order_id=42)
    unknown = tools["get_order_details"](order_id="#W4803757", colour="red")
    for text in (missing, wrong_type, unknown):
        assert text.startswith("Error"), text
    assert "order_id" in missing
    assert "colour" in unknown


def test_a_rollout_that_stops_talking_scores_0_and_says_why(env: TauSimToolEnv) -> None:
    env.reset(task="retail-010")
    assert env.get_reward() == 0.0
    assert env.ending["reason"] == "model_error"
    assert trl_tools(env)["send_message_to_user"](text="Hello?").startswith("The conversation")


def test_reset_refuses_an_unknown_keyword_in_one_line(env: TauSimToolEnv) -> None:
    with pytest.raises(UsageError, match=r"^emotoin: not a reset keyword \(known: task, seed"):
        env.reset(emotoin="anger")
    with pytest.raises(UsageError, match=r"^emotion: unknown emotion 'confusion'"):
        env.reset(emotion="confusion")
    with pytest.raises(UsageError, match=r"^task: the environment has no task 'nope'"):
        env.reset(task="nope")


def test_the_factory_pickles_for_trls_rollout_worker() -> None:
    factory = pickle.loads(pickle.dumps(tool_env_factory("airline", emotion="dread")))
    made = factory()
    try:
        made.reset()
        assert (made.domain, made.info["emotion"]) == ("airline", "dread")
    finally:
        close_tool_env(made)


def test_one_seed_draws_one_task(env: TauSimToolEnv) -> None:
    env.reset(seed=11)
    first = env.info["task_id"]
    env.reset(seed=11)
    assert env.info["task_id"] == first


GOLD = [
    ("retail-000", "anger", "high"),
    ("retail-010", "neutral", "low"),
    ("retail-024", "sadness", "medium"),
    ("retail-034", "anxiety", 0.3),
    ("retail-001", "desperation", "high"),
    ("retail-002", "anger", 0.5),
]


def test_gold_paths_score_1_on_instances_played_concurrently_and_are_stored(
    tmp_path: Path,
) -> None:
    db = tmp_path / "rollouts.db"
    factory = tool_env_factory("retail", store=db)
    envs = [factory() for _ in GOLD]

    def play(pair: tuple[TauSimToolEnv, tuple[str, str, str | float]]) -> float:
        env, (task, emotion, intensity) = pair
        return play_gold(env, task=task, emotion=emotion, intensity=intensity)

    with ThreadPoolExecutor(len(envs)) as pool:
        rewards = list(pool.map(play, zip(envs, GOLD, strict=True)))
    assert rewards == [1.0] * len(GOLD)
    assert {e.info["task_id"] for e in envs} == {task for task, _, _ in GOLD}
    assert all(e.ending["reason"] == "user_stop" for e in envs)
    for env in envs:
        close_tool_env(env)
    rows = sqlite3.connect(db).execute(
        "select task_id, reward, status from conversations order by task_id"
    )
    assert sorted(rows) == sorted((task, 1.0, "completed") for task, _, _ in GOLD)
    report = cli.report(db, envs[0].info["run_id"])  # a run `tau-sim report` reads
    assert (report["status"], report["completed"], report["success_rate"]) == ("completed", 1, 1.0)
    assert [row["emotion"] for row in report["by_emotion"]] == ["frustration"]


def test_a_wrong_write_scores_0() -> None:
    env = TauSimToolEnv("retail")
    tools = trl_tools(env)
    real = tools["cancel_pending_order"]

    results: list[str] = []

    def wrong_reason(**arguments: Any) -> str:  # the gold order, the reason it was not
        results.append(real(**{**arguments, "reason": "no longer needed"}))
        return results[-1]

    try:
        assert play_gold(env, {"cancel_pending_order": wrong_reason}, task="retail-000") == 0.0
        assert env.ending["reason"] == "user_stop"
        assert len(results) == 1 and "no longer needed" in results[0]  # the write was made
    finally:
        close_tool_env(env)


def test_reset_picks_an_llm_user_and_back_the_scripted_one(
    env: TauSimToolEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "test")  # the fake server reads none
    with plausible_server(user_turns=3) as server:
        llm = {"user": "openai/fake", "user_options": {"base_url": f"{server.url}/v1"}}
        prompt = env.reset(task="retail-000", **llm)
        opening = prompt.split(FIRST, 1)[1]
        reply = trl_tools(env)["send_message_to_user"](text="Could you give me your order id?")
        assert opening and reply and not reply.startswith("The conversation")
        assert env.get_reward() == 0.0  # the rollout stopped before the user was done
    scripted = env.reset(task="retail-000")
    assert scripted.split(FIRST, 1)[1] != opening  # another user: the scripted one
