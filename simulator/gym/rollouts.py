"""Episodes on one event loop: the engine's conversations, with an outside policy as the agent.

``Rollouts`` holds what a run holds (its ``Player``: the domain, the tasks, the user provider,
the evaluator; a bus; the store when asked for one) and starts ``Episode``s, each one cell of
the run played by the real engine (``Player.play_cells``) with the agent's model calls
waiting on a ``Seat``. Any number of episodes share the loop: stepping N of them is gathering
N ``step`` calls, no thread per episode. The sync environments (``simulator.gym.env``,
``simulator.gym.vector``) drive the same classes from their own loop.

An episode's cell is what ``tau-sim run`` would play for the task: its seed is the grid's
(``grid.conversation_seed`` of the run seed, user, task, condition and trial, the trial
counting the task's earlier episodes since the last seeding), so the same cells played here
and by ``tau-sim run`` meet the same users.

With a store, the episodes are a run there (``runs`` row, conversation ids ``<run>/<index>``):
``report``, ``show``, ``tracer`` and ``tui --attach`` read them like any run's. Once closed,
the episodes left unfinished are discarded and the run's cells are its finished episodes.
"""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import anyio
import msgspec

from tau_sim.simulator.core.chat import ChatMessage, ChatResponse, ModelError
from tau_sim.simulator.core.endings import TerminationReason
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.events import ConversationEnded
from tau_sim.simulator.engine.bus import Bus
from tau_sim.simulator.grid.cells import Cell, cell_at, new_run_id
from tau_sim.simulator.grid.config import RunConfig
from tau_sim.simulator.gym.options import episode_config
from tau_sim.simulator.gym.seat import SeatProvider
from tau_sim.simulator.gym.wire import ObservationWriter, decode_action
from tau_sim.simulator.run.player import open_providers, task_condition
from tau_sim.simulator.run.preparing import prepare_run
from tau_sim.simulator.store.opening import storage_faults
from tau_sim.simulator.store.runs import Store
from tau_sim.simulator.world.domain import Task

TRUNCATING = frozenset({TerminationReason.MAX_STEPS.value, TerminationReason.TIMEOUT.value})
"""Endings that cut an episode short (``truncated``); every other ending ``terminated`` it."""


@dataclass(frozen=True, slots=True)
class Turn:
    """What one ``reset`` or ``step`` gives: Gymnasium's five values (``reset``: two of them)."""

    observation: str
    reward: float = 0.0
    terminated: bool = False
    truncated: bool = False
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        """Whether the episode is over."""
        return self.terminated or self.truncated


def ending_info(ended: ConversationEnded) -> dict[str, Any]:
    """The ``info`` of an episode's last step: the referee's ending and the evaluator's verdict."""
    return {
        "reason": ended.reason,
        "reward": ended.reward,
        "breakdown": msgspec.to_builtins(ended.breakdown) if ended.breakdown else None,
        "detail": ended.detail,
        "failure": ended.failure,
        "failure_detail": ended.failure_detail,
        "turns": ended.turns,
        "tool_calls": ended.tool_calls,
        "questions": ended.questions,
    }


class Episode:
    """One conversation whose agent is the policy: ``first`` is its start, ``step`` its turns."""

    def __init__(self, rollouts: Rollouts, cell: Cell, task: Task) -> None:
        self.rollouts = rollouts
        self.cell = cell
        self.conversation_id = rollouts.player.conversation_id(cell)
        self.seat = rollouts.seats.seat(self.conversation_id)
        self.ended: ConversationEnded | None = None
        self.first = Turn("")
        self.unplayed_end: Turn | None = None
        """The end of a conversation that ended before the agent's first turn."""
        self._turns = 0
        self._last: Turn | None = None
        self._messages: list[ChatMessage] = []
        self._writer = ObservationWriter(rollouts.player.domains[task.domain].toolkit.specs)
        played = task_condition(cell, task)
        self.start_info: dict[str, Any] = {
            "task_id": task.id,
            "domain": task.domain,
            "tier": task.tier,
            **msgspec.structs.asdict(played.condition),
            "seed": played.seed,
            "trial": played.trial,
            "conversation_id": self.conversation_id,
            "run_id": rollouts.run_id,
        }
        self._play = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        def keep(cell: Cell, ended: ConversationEnded) -> None:
            self.ended = ended

        try:
            await self.rollouts.player.play_cells([self.cell], self.rollouts.bus, 1, keep)
        finally:
            self.seat.close()
            self.rollouts.seats.release(self.conversation_id)

    async def _next(self) -> Turn:
        """Run the user and the environment until the agent's next model call, or the end."""
        await self.seat.wait()
        request = self.seat.request
        if request is not None:
            self._messages = request.messages
            return Turn(self._writer.write(request.messages))
        await self._play  # over: its failure (a bug, never an actor's) is raised here
        ended = self.ended
        assert ended is not None  # play_cells reports every cell it played
        self._last = Turn(
            self._writer.write(self._messages),
            reward=ended.reward,
            terminated=ended.reason not in TRUNCATING,
            truncated=ended.reason in TRUNCATING,
            info=ending_info(ended),
        )
        return self._last

    @property
    def done(self) -> bool:
        """Whether the conversation has ended."""
        return self._play.done()

    @property
    def messages(self) -> list[ChatMessage]:
        """The agent's history as its model was last sent it (then the action, once answered)."""
        return self._messages

    @property
    def last(self) -> Turn | None:
        """The episode's last turn, once it has ended (None while it goes on)."""
        return self._last

    async def stop(self, detail: str) -> Turn:
        """End the conversation at the agent's waiting model call (``model_error``: ``detail``).

        For a policy that stops answering: the conversation ends as a model that failed does
        (reward 0) and is stored as finished. An ended episode gives its last turn.
        """
        if self.unplayed_end is not None:
            end, self.unplayed_end = self.unplayed_end, None
            self._last = end
            return end
        if self._last is not None:
            return self._last
        if self.seat.request is None:
            raise RuntimeError(f"episode {self.conversation_id} is not waiting for the agent")
        self.seat.fail(ModelError(detail))
        return await self._next()

    async def step(self, action: str | dict[str, Any]) -> Turn:
        """Play ``action`` as the agent's turn; the next observation, or the last with the reward.

        An action for a finished episode is a ``RuntimeError``; one for an episode that ended
        before the agent's first turn is ignored and gives that end.
        """
        if self.unplayed_end is not None:
            end, self.unplayed_end = self.unplayed_end, None
            self._last = end
            return end
        if self.seat.request is None:
            raise RuntimeError(f"episode {self.conversation_id} is over: start a new one")
        message = decode_action(action, self._turns)
        self._turns += 1
        self._messages = [*self._messages, message]
        self.seat.answer(ChatResponse(message))
        return await self._next()

    async def abandon(self) -> None:
        """Stop the conversation where it is (it stays unfinished: the store discards it)."""
        self._play.cancel()
        with anyio.CancelScope(shield=True):
            await asyncio.gather(self._play, return_exceptions=True)


class Rollouts:
    """Episodes of one run's cells, on the running event loop; ``async with`` opens them.

    ``config`` is a run's (``simulator.gym.options.rollout_config``); with ``store`` (a path)
    the episodes are stored as run ``run_id`` (a new id when None).
    """

    def __init__(
        self, config: RunConfig, *, store: str | Path | None = None, run_id: str | None = None
    ) -> None:
        self.config = config
        self.run_id = run_id or new_run_id()
        self.player = prepare_run(config, self.run_id)
        seats = getattr(self.player.agent_providers[config.agents[0]], "model_provider", None)
        if not isinstance(seats, SeatProvider):
            raise UsageError(f"agent {config.agents[0]!r} is not an environment's policy")
        self.seats = seats
        self.tasks = [self.player.tasks[task_id] for task_id in config.tasks]
        self.seed = config.seed
        self.episodes = 0
        """How many episodes were started (the next one's cell index)."""
        self._trials: dict[str, int] = {}
        self._store_path = store
        self.store: Store | None = None
        self.bus = Bus()
        self._live: set[Episode] = set()
        self._stack: AsyncExitStack | None = None

    def reseed(self, seed: int) -> None:
        """Play the next episodes as a run of seed ``seed``: each task from its first trial."""
        self.seed = seed
        self._trials.clear()

    async def __aenter__(self) -> Rollouts:
        """Start the providers and, with a store, the run's row and its writer."""
        async with AsyncExitStack() as stack:
            await stack.enter_async_context(open_providers(self.player.providers))
            if self._store_path is not None:
                store = self.store = Store(self._store_path)
                store.create_run(
                    self.run_id,
                    self.config.seed,
                    msgspec.json.encode(self.config).decode(),
                    0,
                    tasks_hash=self.player.tasks_hash,
                )
                store.claim_run(self.run_id)
                writer = asyncio.get_running_loop().create_task(store.run_writer())
                stack.push_async_callback(self._flush, store, writer)
                self.bus = Bus([store])
            self._stack = stack.pop_all()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        """Abandon the unfinished episodes, flush the store and close the run."""
        with anyio.CancelScope(shield=True):
            for episode in list(self._live):
                await episode.abandon()
            self._live.clear()
            if self._stack is not None:
                await self._stack.aclose()
                self._stack = None
            if self.store is not None:
                self._finish(self.store, failed=exc is not None)
                self.store = None

    @staticmethod
    async def _flush(store: Store, writer: asyncio.Task[None]) -> None:
        """Let the writer commit what it holds, then stop it."""
        await store.close()
        await writer

    def _finish(self, store: Store, *, failed: bool) -> None:
        """Drop the unfinished episodes; the run's cells are its finished ones."""
        store.discard_unfinished(self.run_id)
        with storage_faults(store.path), store.db.conn:
            store.db.table("runs").update(
                self.run_id, {"cells": store.completed_count(self.run_id)}
            )
        store.finish_run(self.run_id, "failed" if failed else "completed")
        store.close_sync()

    def cell(self, task_id: str, condition: tuple[str, float] | None = None) -> Cell:
        """The next episode's cell for ``task_id``: the grid's cell of its next trial.

        ``condition`` (a canonical emotion and an intensity) replaces the config's own; trials
        count per task and condition.
        """
        if task_id not in self.player.tasks:
            raise UsageError(f"task: the environment has no task {task_id!r}")
        config = self._under(condition)
        trial = self._trials.get(self._trial_key(task_id, config), 0)
        config = episode_config(config, task_id, trial, self.seed)
        return msgspec.structs.replace(cell_at(config, trial), index=self.episodes)

    def _under(self, condition: tuple[str, float] | None) -> RunConfig:
        if condition is None:
            return self.config
        emotion, intensity = condition
        return msgspec.structs.replace(self.config, emotions=[emotion], intensities=[intensity])

    @staticmethod
    def _trial_key(task_id: str, config: RunConfig) -> str:
        return f"{task_id}|{config.emotions[0]}|{config.intensities[0]}"

    async def start(self, task_id: str, condition: tuple[str, float] | None = None) -> Episode:
        """Start an episode of ``task_id`` (under ``condition``: see ``cell``).

        Its ``first`` turn is the agent's first view.
        """
        if self._stack is None:
            raise RuntimeError("Rollouts: use `async with` before starting episodes")
        cell = self.cell(task_id, condition)
        self._trials[self._trial_key(task_id, self._under(condition))] = cell.trial + 1
        self.episodes += 1
        episode = Episode(self, cell, self.player.tasks[task_id])
        self._live.add(episode)
        episode._play.add_done_callback(lambda _: self._live.discard(episode))
        first = await episode._next()
        episode.first = Turn(first.observation, info=dict(episode.start_info))
        if first.done:  # ended before the agent's first turn: the first step gives the end
            episode.unplayed_end = first
        return episode
