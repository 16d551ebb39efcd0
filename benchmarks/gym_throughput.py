"""Gym throughput: episodes/s and steps/s through the environment, against the engine beside it.

The same cells (``--tasks`` tasks of ``--domain`` x ``--trials``, the scripted user, one seed)
are played three ways in this process, each on one event loop, at each concurrency level:

- ``engine``: ``tau-sim run``'s engine (``Player.play_cells``), the scripted gold agent inside
  it: the baseline;
- ``rollouts``: the async ``Rollouts`` API, ``concurrency`` episodes in flight, each driven by
  a scripted gold agent outside the environment (built with the task's answer key, as the
  tests do) that reads every observation's JSON and writes its action's;
- ``vector``: ``gymnasium.make_vec`` with ``concurrency`` slots, stepped by a sync loop that
  computes the slots' gold actions together on a loop of its own (the env's is idle then);
  its slots draw their tasks from the same pool (not the same cells: compare its per-step
  figures); every step and ended episode counts, those past the last wanted one included.

A step is one agent turn. Printed: episodes/s and steps/s of each, CPU ms per step, the mean
reward (1.0: gold solves every task), and two ratios to the engine measured in the same run
(the machines' speed varies from day to day, FACTS.md): steps/s (wall time, which other load
on a shared machine moves) and steps per CPU second (steadier there). None writes a store.
The scripted agents calibrate the harness; these figures measure the environment's overhead,
not an agent.

Usage: python benchmarks/gym_throughput.py [--domain retail] [--tasks 120] [--trials 2]
       [--levels 1,16,128] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' gold driver

import gymnasium
import numpy as np

from tau_sim.simulator.core.events import AgentMessage, ConversationEnded, Event
from tau_sim.simulator.engine import Bus
from tau_sim.simulator.grid import RunConfig, grid
from tau_sim.simulator.gym import Episode, Rollouts, env_id, rollout_config
from tau_sim.simulator.gym.loop import loop_factory
from tau_sim.simulator.run import Player
from tests.simulator.gym.play import gold_action_async, gold_agent

SEED = 5


class Count:
    """A bus subscriber counting agent turns and summing rewards."""

    def __init__(self) -> None:
        self.steps = 0
        self.rewards: list[float] = []

    def offer(self, event: Event) -> bool:
        if isinstance(event, AgentMessage):
            self.steps += 1
        elif isinstance(event, ConversationEnded):
            self.rewards.append(event.reward)
        return True

    async def deliver(self, event: Event) -> None:
        self.offer(event)


def timed(run: Any) -> tuple[Any, float, float]:
    """``run()``'s result, its wall seconds and CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def on_loop(coro: Any) -> Any:
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(coro)


def engine(config: RunConfig, concurrency: int) -> tuple[int, list[float]]:
    """The baseline: the run's cells through the engine, the gold agent inside it."""
    base = RunConfig(
        domains=config.domains,
        tasks=config.tasks,
        agents=["scripted/gold"],
        users=config.users,
        trials=config.trials,
        seed=SEED,
        limits=config.limits,
    )
    player = Player(base, "bench-engine")
    player.prepare()
    count = Count()
    on_loop(player.play_cells(grid(base), Bus([count]), concurrency))
    return count.steps, count.rewards


def cells(config: RunConfig) -> Iterator[str]:
    """The task of each cell, in the grid's order (task-major, then trial)."""
    for task in config.tasks:
        for _ in range(config.trials):
            yield task


def rollouts(config: RunConfig, concurrency: int) -> tuple[int, list[float]]:
    """The async API: ``concurrency`` drivers, each playing episodes to their end."""
    rewards: list[float] = []
    steps = 0

    async def play() -> None:
        nonlocal steps
        queue = cells(config)
        async with Rollouts(config) as env:

            async def driver() -> None:
                nonlocal steps
                for task in queue:
                    episode: Episode = await env.start(task)
                    turn = episode.first
                    agent = gold_agent(turn.info)
                    while not turn.done:
                        turn = await episode.step(await gold_action_async(agent, turn.observation))
                        steps += 1
                    rewards.append(turn.reward)

            await asyncio.gather(*(driver() for _ in range(concurrency)))

    on_loop(play())
    return steps, rewards


def slot_info(infos: dict[str, Any], slot: int) -> dict[str, Any]:
    """One slot's entries of a vector env's ``infos`` (the arrays whose mask is set there)."""
    return {
        key: value[slot]
        for key, value in infos.items()
        if isinstance(value, np.ndarray) and key[0] != "_" and infos[f"_{key}"][slot]
    }


def vector(config: RunConfig, concurrency: int, episodes: int) -> tuple[int, list[float]]:
    """``make_vec``: ``concurrency`` slots drawing tasks from the pool until ``episodes`` ended.

    Every step and every ended episode counts (the last steps play episodes past ``episodes``
    that the autoreset started: they are work done in the wall time too).
    """
    envs = gymnasium.make_vec(
        env_id(config.domains[0]), num_envs=concurrency, task=config.tasks, seed=SEED
    )
    rewards: list[float] = []
    steps = 0
    observations, infos = envs.reset(seed=SEED)
    agents = [gold_agent(slot_info(infos, i)) for i in range(concurrency)]
    starting = np.zeros(concurrency, dtype=np.bool_)

    async def actions() -> list[str]:
        return list(
            await asyncio.gather(
                *(
                    asyncio.sleep(0, "")
                    if starting[i]
                    else gold_action_async(agents[i], observations[i])
                    for i in range(concurrency)
                )
            )
        )

    driver = asyncio.Runner(loop_factory=loop_factory())  # the gold agents' loop, kept
    while len(rewards) < episodes:
        step = tuple(driver.run(actions()))
        observations, reward, terminated, truncated, infos = envs.step(step)
        steps += int((~starting).sum())
        for i in np.flatnonzero(starting):
            agents[i] = gold_agent(slot_info(infos, i))
        starting = terminated | truncated
        rewards.extend(float(r) for r in reward[starting])
    driver.close()
    envs.close()
    return steps, rewards


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domain", default="retail")
    parser.add_argument("--tasks", type=int, default=120)
    parser.add_argument("--trials", type=int, default=2)
    parser.add_argument("--levels", default="1,16,128")
    parser.add_argument("--quick", action="store_true", help="8 tasks x 1 trial, levels 1,8")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.tasks, args.trials, args.levels = 8, 1, "1,8"
    config = rollout_config(args.domain, seed=SEED)
    config = RunConfig(
        **{
            **{f: getattr(config, f) for f in config.__struct_fields__},
            "tasks": config.tasks[: args.tasks],
            "trials": args.trials,
        }
    )
    episodes = len(config.tasks) * config.trials
    rows = []
    for level in [int(x) for x in args.levels.split(",")]:
        row: dict[str, Any] = {"concurrency": level, "episodes": episodes}
        for name, play in (
            ("engine", partial(engine, config, level)),
            ("rollouts", partial(rollouts, config, level)),
            ("vector", partial(vector, config, level, episodes)),
        ):
            (steps, rewards), wall, cpu = timed(play)
            row[name] = {
                "steps": steps,
                "episodes_per_s": len(rewards) / wall,
                "steps_per_s": steps / wall,
                "cpu_ms_per_step": 1000 * cpu / max(steps, 1),
                "mean_reward": sum(rewards) / max(len(rewards), 1),
            }
        for name in ("rollouts", "vector"):
            ours, base = row[name], row["engine"]
            ours["ratio"] = ours["steps_per_s"] / base["steps_per_s"]
            ours["cpu_ratio"] = base["cpu_ms_per_step"] / ours["cpu_ms_per_step"]
        rows.append(row)
    if args.json:
        print(json.dumps({"domain": args.domain, "levels": rows}, indent=2))
        return 0
    print(
        f"{args.domain}: {len(config.tasks)} tasks x {config.trials} trials, scripted user, "
        "scripted gold agent (calibration, not a benchmark subject); ratio = steps/s over the "
        "engine's, cpu ratio = steps per CPU second over the engine's, same run"
    )
    print(
        f"{'conc':>5} {'way':>9} {'episodes/s':>11} {'steps/s':>9} {'cpu ms/step':>12} "
        f"{'reward':>7} {'ratio':>6} {'cpu ratio':>9}"
    )
    for row in rows:
        for name in ("engine", "rollouts", "vector"):
            r = row[name]
            ratio, cpu_ratio = r.get("ratio", 1.0), r.get("cpu_ratio", 1.0)
            print(
                f"{row['concurrency']:>5} {name:>9} {r['episodes_per_s']:>11.1f} "
                f"{r['steps_per_s']:>9.0f} {r['cpu_ms_per_step']:>12.3f} "
                f"{r['mean_reward']:>7.3f} {ratio:>6.2f} {cpu_ratio:>9.2f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
