"""``TauSimEnv``: one conversation at a time as a Gymnasium environment.

``gymnasium.make("tau-sim/retail-v0", ...)`` makes one (``simulator.gym`` registers an id per
domain). ``reset`` starts a conversation of a task (``options={"task": ID}``, else one drawn
from the environment's tasks with its ``np_random``) and gives the agent's first view;
``step`` plays one assistant turn and gives the next, or the last with the reward. The
observation and action are JSON text (``simulator.gym.wire``) in ``Text`` spaces of printable
ASCII; an action outside them (plain text with other characters, a longer one) is taken all
the same.

Seeding: the environment plays the cells of a run of seed ``seed`` (the option);
``reset(seed=S)`` seeds the task draws and makes the following episodes those of a run of seed
``S``, each task from its first trial, so ``reset(seed=S, options={"task": T})`` plays the
conversation ``tau-sim run --seed S --tasks T`` plays. A first ``reset`` without a seed seeds
the task draws with the option ``seed``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium
from gymnasium import spaces

from tau_sim.simulator.gym.loop import LoopHost
from tau_sim.simulator.gym.options import check_option_names, named_as_options, rollout_config
from tau_sim.simulator.gym.rollouts import Episode, Rollouts
from tau_sim.simulator.gym.wire import CHARSET, MAX_ACTION, MAX_OBSERVATION


def observation_space() -> spaces.Text:
    """An observation: one JSON object, ASCII (``wire.ObservationWriter``)."""
    return spaces.Text(MAX_OBSERVATION, min_length=2, charset=CHARSET)


def action_space() -> spaces.Text:
    """An action: reply text, or an assistant message as a JSON object (``wire.decode_action``)."""
    return spaces.Text(MAX_ACTION, min_length=0, charset=CHARSET)


def check_action(action: object) -> None:
    """Refuse an action that is not text: it would reach the user as ``"None"`` or ``"42"``."""
    if not isinstance(action, str):
        raise TypeError(
            "action: expected a string (the reply, or an assistant message as a JSON object), "
            f"got {type(action).__name__}"
        )


def draw_task(rollouts: Rollouts, options: dict[str, Any] | None, rng: Any) -> str:
    """The task of the next episode: ``options["task"]``, else one drawn with ``rng``."""
    task = (options or {}).get("task")
    if task is not None:
        return str(task)
    return rollouts.tasks[int(rng.integers(len(rollouts.tasks)))].id


class TauSimEnv(gymnasium.Env[str, str]):
    """One domain's conversations, the policy as the agent (options: ``rollout_config``'s).

    ``store`` (a SQLite path) records every finished episode as a conversation of run
    ``run_id`` (``simulator.gym.rollouts``).
    """

    metadata: dict[str, Any] = {"render_modes": []}

    def __init__(
        self,
        domain: str,
        *,
        store: str | Path | None = None,
        run_id: str | None = None,
        **options: Any,
    ) -> None:
        check_option_names(options)
        with named_as_options():
            self.config = rollout_config(domain, **options)
            self.rollouts = Rollouts(self.config, store=store, run_id=run_id)
        self.observation_space = observation_space()
        self.action_space = action_space()
        self._host = LoopHost(self.rollouts)
        self._episode: Episode | None = None

    @property
    def run_id(self) -> str:
        """The run the episodes belong to (in the store, when there is one)."""
        return self.rollouts.run_id

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        """Start a conversation (abandoning one still going); the agent's view and its task."""
        first_seed = self.config.seed if self._np_random is None and seed is None else seed
        super().reset(seed=first_seed)
        if seed is not None:
            self.rollouts.reseed(seed)
        task = draw_task(self.rollouts, options, self.np_random)
        episode, self._episode = self._episode, None
        if episode is not None and not episode.done:
            self._host.run(episode.abandon())
        self._episode = self._host.run(self.rollouts.start(task))
        first = self._episode.first
        return first.observation, dict(first.info)

    def step(self, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play one assistant turn; the next view, the reward (at the end), and the ending."""
        if self._episode is None:
            raise RuntimeError("call reset() before step()")
        check_action(action)
        turn = self._host.run(self._episode.step(action))
        return turn.observation, turn.reward, turn.terminated, turn.truncated, dict(turn.info)

    def close(self) -> None:
        """Abandon the conversation still going, flush the store and close the run."""
        self._episode = None
        self._host.close()
