"""Honest by construction: the policy sees what an LLM agent's model is sent, and no answer key.

Over every domain: the first observation is the system prompt of the LLM agent
(``agents.llm.system_prompt`` of the run's ``AgentView``), the domain's tools in the
chat-completions format and the user's opening message, nothing else; ``info`` holds the task
id and the condition. No string of the answer key (the gold actions' arguments, the required
outputs) or of the user's hidden scenario (its goal, the facts it has not said, its demand and
later need) appears in them, unless the agent is entitled to it (the policy, the tools or what
the user said). A malformed tool call is an error tool result the episode goes on after.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.simulator.gym.needs import require_gym

require_gym()

from tau_sim.agents.llm import system_prompt  # noqa: E402
from tau_sim.simulator.core import Condition  # noqa: E402
from tau_sim.simulator.gym import decode_observation  # noqa: E402
from tau_sim.simulator.models.openai_provider import to_openai_tools  # noqa: E402
from tau_sim.simulator.world import ConversationContext, Task, agent_view  # noqa: E402
from tests.simulator.gym.domains import domain_env, every_domain  # noqa: E402
from tests.simulator.gym.play import domain_named  # noqa: E402

INFO_KEYS = {
    "task_id",
    "domain",
    "tier",
    "emotion",
    "intensity",
    "politeness",
    "urgency",
    "trust",
    "seed",
    "trial",
    "conversation_id",
    "run_id",
}


def secrets_of(task: Task) -> set[str]:
    """The strings of a task's answer key and hidden scenario (4 characters or more)."""
    scenario = task.scenario
    said = set(scenario.volunteered())
    values: list[Any] = [scenario.goal, scenario.demand, scenario.later, *task.required_outputs]
    values += [v for k, v in scenario.known_info.items() if k not in said]
    for action in task.actions:
        values += [v for v in action.arguments.values() if isinstance(v, str | int | float)]
    return {str(v) for v in values if len(str(v)) >= 4}


@pytest.mark.parametrize("domain", every_domain())
def test_the_first_view_is_the_llm_agents_and_holds_no_answer(domain: str) -> None:
    built = domain_named(domain)
    tools = json.loads(json.dumps(to_openai_tools(built.toolkit.specs)))
    with domain_env(domain, emotion="anxiety", intensity="high", trust="skeptical") as env:
        tasks = {t.id: t for t in built.tasks if t.id in env.unwrapped.config.tasks}
        for task in tasks.values():
            obs, info = env.reset(options={"task": task.id})
            assert set(info) == INFO_KEYS
            assert (info["task_id"], info["emotion"], info["trust"]) == (
                task.id,
                "anxiety",
                "skeptical",
            )
            view = decode_observation(obs)
            assert set(view) == {"tools", "messages"}
            assert view["tools"] == tools
            system, *rest = view["messages"]
            ctx = ConversationContext(
                conversation_id=info["conversation_id"],
                run_id=info["run_id"],
                task=task,
                domain=built,
                condition=Condition(emotion=info["emotion"], intensity=info["intensity"]),
                trial=info["trial"],
                seed=info["seed"],
            )
            assert system == {"role": "system", "content": system_prompt(agent_view(ctx))}
            assert [m["role"] for m in rest] == ["user"] and set(rest[0]) == {"role", "content"}
            entitled = system["content"] + json.dumps(tools) + rest[0]["content"]
            # the harness's own ids and numbers (a clock-based run id, the seed's digits)
            entitled += info["conversation_id"] + str(info["seed"])
            shown = json.dumps(view, ensure_ascii=False) + json.dumps(info, ensure_ascii=False)
            leaked = {s for s in secrets_of(task) if s in shown and s not in entitled}
            assert leaked == set(), task.id


BAD_CALLS = [
    {"tool_calls": [{"function": {"name": "no_such_tool", "arguments": "{}"}}]},
    {"tool_calls": [{"function": {"name": "get_order_details", "arguments": "{not json"}}]},
    {"tool_calls": [{"function": {"name": "get_order_details", "arguments": [1, 2]}}]},
    {"tool_calls": [{"function": {"name": "get_order_details", "arguments": {"order_id": 5}}}]},
    {"tool_calls": [{"function": {"name": "get_order_details", "arguments": {"nope": "x"}}}]},
    {"tool_calls": [{"function": "get_order_details"}]},
    {"tool_calls": ["get_order_details"]},
    {"tool_calls": {"function": {"name": 42}}},
]


@pytest.mark.parametrize("call", BAD_CALLS, ids=range(len(BAD_CALLS)))
def test_a_malformed_tool_call_is_an_error_result_and_the_episode_goes_on(
    call: dict[str, Any],
) -> None:
    with domain_env("retail", max_tool_errors=20) as env:
        env.reset(seed=3)
        obs, reward, terminated, truncated, _info = env.step(json.dumps(call))
        assert not (terminated or truncated) and reward == 0.0
        last = decode_observation(obs)["messages"][-1]
        assert last["role"] == "tool" and last["content"].lower().startswith("error"), last
        obs, *_, terminated, truncated, _ = env.step("Could you tell me your order id, please?")
        assert not (terminated or truncated)
        assert decode_observation(obs)["messages"][-1]["role"] == "user"


def test_a_string_that_is_not_the_message_shape_is_a_reply() -> None:
    with domain_env("retail") as env:
        env.reset(seed=3)
        for text in ['{"order": 1}', "{not json", "plain words"]:
            obs, *_ = env.step(text)
            said = decode_observation(obs)["messages"][-2]
            assert said == {"role": "assistant", "content": text}
