"""τ²-bench's own reward of a simulation, computed by their evaluators in process.

``tau2.evaluator.evaluator.evaluate_simulation`` itself cannot be imported without litellm
(their registry loads their LLM agents), which the ``tau2`` extra does not install; this runs
their three evaluators of ``tau2.evaluator`` (environment, communicate, action) and combines
them as ``evaluate_simulation`` does for ``EvaluationType.ALL``: only a user or agent stop is
scored, and the reward is the product over the task's ``reward_basis``.
"""

from __future__ import annotations

import importlib

from tau2.data_model.simulation import SimulationRun, TerminationReason
from tau2.data_model.tasks import RewardType
from tau2.data_model.tasks import Task as Tau2Task
from tau2.evaluator.evaluator_action import ActionEvaluator
from tau2.evaluator.evaluator_communicate import CommunicateEvaluator
from tau2.evaluator.evaluator_env import EnvironmentEvaluator


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
