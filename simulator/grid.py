"""The grid of a run: its configuration, its cells in a fixed order and their seeds.

Apart from the runner so that the worker processes and their dealer import it without
importing the runner.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec

from simulator.conditions import NEUTRAL
from simulator.referee import Limits


class RunConfig(msgspec.Struct, frozen=True, kw_only=True):
    """Everything that defines a run; stored with it so ``--resume`` needs nothing else.

    Its defaults (and those of ``Limits``) are the defaults of ``tau-sim run``: the CLI
    fills only what the command line or the run file set (``simulator.models.options.merge``).
    ``agent_options`` and ``user_options`` hold each model's merged options by name; an
    ``api_key`` among them never reaches the store or a worker (``simulator.keys``).
    """

    domain: str = "retail"
    tasks: list[str] = []
    tasks_file: str | None = None
    agents: list[str] = msgspec.field(default_factory=lambda: ["scripted/oracle"])
    users: list[str] = msgspec.field(default_factory=lambda: ["scripted"])
    emotions: list[str] = msgspec.field(default_factory=lambda: [NEUTRAL])
    intensities: list[float] = msgspec.field(default_factory=lambda: [0.6])
    trials: int = 1
    seed: int = 0
    concurrency: int = 32
    limits: Limits = Limits()
    workers: int = 1
    agent_options: dict[str, dict[str, Any]] = {}
    user_options: dict[str, dict[str, Any]] = {}


class Cell(msgspec.Struct, frozen=True):
    """One grid cell: one conversation to play."""

    index: int
    agent: str
    user: str
    task_id: str
    emotion: str
    intensity: float
    trial: int
    seed: int


def grid(config: RunConfig) -> Iterator[Cell]:
    """The cells of a run in a fixed order (neutral appears once, at intensity 0)."""
    index = 0
    for agent in config.agents:
        for user in config.users:
            for task_id in config.tasks:
                for emotion in config.emotions:
                    levels = [0.0] if emotion == NEUTRAL else config.intensities
                    for intensity in levels:
                        for trial in range(config.trials):
                            seed = conversation_seed(
                                config.seed, user, task_id, emotion, intensity, trial
                            )
                            yield Cell(index, agent, user, task_id, emotion, intensity, trial, seed)
                            index += 1


def conversation_seed(
    run_seed: int, user: str, task_id: str, emotion: str, intensity: float, trial: int
) -> int:
    """Seed of one conversation: independent of the agent, so agents meet identical users."""
    key = f"{run_seed}|{user}|{task_id}|{emotion}|{intensity:.4f}|{trial}"
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big") >> 1


def task_set_hash(tasks: Sequence[msgspec.Struct]) -> str:
    """A hash of the tasks a run plays: their full content, in order (``--resume`` checks it)."""
    digest = hashlib.blake2b(digest_size=16)
    for task in tasks:
        digest.update(msgspec.json.encode(task))
        digest.update(b"\n")
    return digest.hexdigest()


def new_run_id() -> str:
    """A sortable, unique run id."""
    return time.strftime("run-%Y%m%d-%H%M%S-") + secrets.token_hex(2)
