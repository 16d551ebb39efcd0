"""N conversations on one event loop: the vector environment and the async ``Rollouts``.

Gold-driven (the scripted gold agent, test-side, with the answer key: it calibrates the
harness), every slot scores 1.0; slots of one task play distinct trials; a finished slot
starts its next episode on the following step (``NEXT_STEP``); no thread is started.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading

from tests.simulator.gym.needs import require_gym

require_gym()

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402

from tau_sim.simulator.gym import Episode, Rollouts, rollout_config  # noqa: E402
from tests.simulator.gym.play import gold_action, gold_action_async, gold_agent  # noqa: E402

SLOTS = 4


def test_slots_of_one_task_are_its_trials_and_gold_scores_one_in_each() -> None:
    threads = set(threading.enumerate())
    envs = gymnasium.make_vec("tau-sim/banking-v0", num_envs=SLOTS, emotion="anger")
    with contextlib.closing(envs):
        task = envs.unwrapped.config.tasks[2]
        observations, infos = envs.reset(seed=11, options={"task": task})
        assert list(infos["task_id"]) == [task] * SLOTS
        assert sorted(infos["trial"]) == list(range(SLOTS))
        assert len(set(infos["seed"])) == SLOTS
        agents = [
            gold_agent({k: infos[k][i] for k in infos if not k.startswith("_")})
            for i in range(SLOTS)
        ]
        ended = np.zeros(SLOTS, dtype=bool)
        rewards = np.zeros(SLOTS)
        while not ended.all():
            actions = tuple(
                "" if ended[i] else gold_action(agents[i], observations[i]) for i in range(SLOTS)
            )
            observations, reward, terminated, truncated, infos = envs.step(actions)
            assert set(threading.enumerate()) <= threads  # one loop, no thread per slot
            done = (terminated | truncated) & ~ended
            rewards[done] = reward[done]
            for slot in np.flatnonzero(done):
                assert infos["reason"][slot] == "user_stop" and infos["_reason"][slot]
            ended |= done
        assert list(rewards) == [1.0] * SLOTS

        # the step after an end starts that slot's next episode: its first view, no reward
        observations, reward, terminated, truncated, infos = envs.step(("",) * SLOTS)
        assert list(reward) == [0.0] * SLOTS and not terminated.any() and not truncated.any()
        restarted = [t for t, shown in zip(infos["trial"], infos["_trial"], strict=True) if shown]
        assert restarted != [] and all(t >= SLOTS for t in restarted)


def test_rollouts_play_many_episodes_on_the_callers_loop() -> None:
    config = rollout_config("hotel", user="scripted", emotion="neutral", seed=2)

    async def play() -> list[float]:
        async with Rollouts(config) as rollouts:
            episodes = [await rollouts.start(t) for t in config.tasks[:16]]

            async def drive(episode: Episode) -> float:
                turn = episode.first
                agent = gold_agent(turn.info)
                while not turn.done:
                    turn = await episode.step(await gold_action_async(agent, turn.observation))
                return float(turn.reward)

            return list(await asyncio.gather(*(drive(e) for e in episodes)))

    assert asyncio.run(play()) == [1.0] * 16
