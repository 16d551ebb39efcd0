"""``TauSimVectorEnv``: N conversations stepped together on one event loop, no thread per env.

``gymnasium.make_vec("tau-sim/retail-v0", num_envs=N, ...)`` makes one (the ids' vector entry
point). A step answers every waiting agent turn at once and runs the loop until each
conversation is back at its agent's turn or over, so the users and environments of all N play
concurrently (an LLM user's calls are in flight together). Autoreset is Gymnasium's
``NEXT_STEP``: the step after an episode's end starts that slot's next episode (its action is
ignored) and gives its first view. The N slots draw their tasks from one generator, in slot
order; with ``options={"task": T}`` every slot plays ``T``, each its own trial (a group of
rollouts of one task, as GRPO samples them).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from tau_sim.simulator.gym.env import action_space, check_action, draw_task, observation_space
from tau_sim.simulator.gym.loop import LoopHost
from tau_sim.simulator.gym.options import check_option_names, named_as_options, rollout_config
from tau_sim.simulator.gym.rollouts import Episode, Rollouts, Turn


class TauSimVectorEnv(VectorEnv[tuple[str, ...], tuple[str, ...], np.ndarray]):
    """``num_envs`` conversations of one domain on one loop (options: ``rollout_config``'s)."""

    metadata: dict[str, Any] = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        domain: str,
        num_envs: int = 1,
        *,
        store: str | Path | None = None,
        run_id: str | None = None,
        **options: Any,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1 (got {num_envs})")
        self.num_envs = num_envs
        check_option_names(options)
        with named_as_options():
            self.config = rollout_config(domain, **options)
            self.rollouts = Rollouts(self.config, store=store, run_id=run_id)
        self.single_observation_space = observation_space()
        self.single_action_space = action_space()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._host = LoopHost(self.rollouts)
        self._episodes: list[Episode | None] = [None] * num_envs
        self._ended = np.zeros(num_envs, dtype=np.bool_)
        self._options: dict[str, Any] | None = None

    @property
    def run_id(self) -> str:
        """The run the episodes belong to (in the store, when there is one)."""
        return self.rollouts.run_id

    async def _start(self, slot: int, task: str) -> Turn:
        old = self._episodes[slot]
        if old is not None and not old.done:
            await old.abandon()
        episode = self._episodes[slot] = await self.rollouts.start(task)
        return episode.first

    async def _step(self, slot: int, action: str) -> Turn:
        episode = self._episodes[slot]
        assert episode is not None  # reset() started every slot
        return await episode.step(action)

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[tuple[str, ...], dict[str, Any]]:
        """Start a conversation in every slot; their first views and tasks."""
        if isinstance(seed, list):
            seed = seed[0]
        if seed is not None or self._np_random is None:
            first = self.config.seed if seed is None else seed
            self._np_random, self._np_random_seed = seeding.np_random(first)
        if seed is not None:
            self.rollouts.reseed(seed)
        self._options = options
        tasks = [draw_task(self.rollouts, options, self.np_random) for _ in range(self.num_envs)]
        turns = self._gather([self._start(slot, task) for slot, task in enumerate(tasks)])
        self._ended[:] = False
        infos: dict[str, Any] = {}
        for slot, turn in enumerate(turns):
            infos = self._add_info(infos, turn.info, slot)
        return tuple(turn.observation for turn in turns), infos

    def step(
        self, actions: tuple[str, ...] | list[str]
    ) -> tuple[tuple[str, ...], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play one assistant turn in every slot (a slot whose episode ended starts its next)."""
        if self._episodes[0] is None:
            raise RuntimeError("call reset() before step()")
        for action in actions:
            check_action(action)
        steps = []
        for slot, action in enumerate(actions):
            if self._ended[slot]:
                task = draw_task(self.rollouts, self._options, self.np_random)
                steps.append(self._start(slot, task))
            else:
                steps.append(self._step(slot, action))
        turns = self._gather(steps)
        rewards = np.array([float(turn.reward) for turn in turns], dtype=np.float64)
        terminated = np.array([turn.terminated for turn in turns], dtype=np.bool_)
        truncated = np.array([turn.truncated for turn in turns], dtype=np.bool_)
        self._ended = terminated | truncated
        infos: dict[str, Any] = {}
        for slot, turn in enumerate(turns):
            infos = self._add_info(infos, turn.info, slot)
        return tuple(turn.observation for turn in turns), rewards, terminated, truncated, infos

    def _gather(self, steps: list[Any]) -> list[Turn]:
        async def together() -> list[Turn]:
            return list(await asyncio.gather(*steps))

        return self._host.run(together())

    def close_extras(self, **kwargs: Any) -> None:
        """Abandon the conversations still going, flush the store and close the run."""
        self._host.close()
