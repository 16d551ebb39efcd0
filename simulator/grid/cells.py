"""The grid of a run: its cells in a fixed order, their seeds, and sets of them as bitmaps.

Apart from the runner so that the worker processes and their dealers import it without
importing the runner; the run's configuration is ``simulator.grid.config``.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec

from tau_sim.simulator.core.condition import Condition
from tau_sim.simulator.core.conditions import NEUTRAL, TASK_EMOTION
from tau_sim.simulator.grid.config import RunConfig
from tau_sim.simulator.world.domain import DEFAULT_TIER
from tau_sim.simulator.world.taskformat import without_data


class Cell(msgspec.Struct, frozen=True):
    """One grid cell: one conversation to play, under ``condition``."""

    index: int
    agent: str
    user: str
    task_id: str
    condition: Condition
    trial: int
    seed: int


_SINGLE = (NEUTRAL, TASK_EMOTION)
"""Emotion entries played at one intensity: neutral, and each task's own profile."""


def grid(config: RunConfig) -> Iterator[Cell]:
    """The cells of a run in a fixed order (neutral and ``task`` appear once, at intensity 0).

    Agent outermost, then user, task, condition (emotion, intensity), dimension levels
    (politeness, then urgency, then trust) and trial innermost; ``cell_at`` makes each.
    """
    return pending(config, CellSet(grid_size(config)))


def _axes(config: RunConfig) -> tuple[list[tuple[str, float]], list[tuple[Any, Any, Any]]]:
    """(emotion, intensity) conditions and (politeness, urgency, trust) levels, in grid order."""
    conditions = [
        (emotion, intensity)
        for emotion in config.emotions
        for intensity in ([0.0] if emotion in _SINGLE else config.intensities)
    ]
    levels = [(p, u, t) for p in config.politeness for u in config.urgency for t in config.trust]
    return conditions, levels


def cell_at(config: RunConfig, index: int) -> Cell:
    """The cell ``index`` of ``grid(config)``, made without the cells before it.

    The grid's order is a mixed-radix number (agent, user, task, condition, levels, trial), so
    a worker or a resumed run makes any cell it needs on its own; ``IndexError`` outside it.
    """
    if not 0 <= index < grid_size(config):
        raise IndexError(f"cell {index} is outside the grid of {grid_size(config)} cells")
    conditions, levels = _axes(config)
    rest, trial = divmod(index, config.trials)
    rest, level = divmod(rest, len(levels))
    rest, condition = divmod(rest, len(conditions))
    rest, task = divmod(rest, len(config.tasks))
    agent, user = divmod(rest, len(config.users))
    emotion, intensity = conditions[condition]
    politeness, urgency, trust = levels[level]
    user_name, task_id = config.users[user], config.tasks[task]
    played = Condition(
        emotion=emotion, intensity=intensity, politeness=politeness, urgency=urgency, trust=trust
    )
    seed = conversation_seed(config.seed, user_name, task_id, played, trial)
    return Cell(index, config.agents[agent], user_name, task_id, played, trial, seed)


class CellSet:
    """A set of cell indexes of one grid as a bitmap: one bit per cell (125 KB for 10^6 cells).

    What a run has done travels in this form (``bytes()``) to its workers, so neither the
    parent nor a worker holds a list of cells.
    """

    def __init__(self, size: int, bits: bytes = b"") -> None:
        self.size = size
        self.bits = bytearray(bits) if bits else bytearray((size + 7) // 8)
        if len(self.bits) != (size + 7) // 8:
            raise ValueError(f"a set over {size} cells takes {(size + 7) // 8} bytes")

    def add(self, index: int) -> None:
        """Put cell ``index`` in the set."""
        self.bits[index >> 3] |= 1 << (index & 7)

    def __contains__(self, index: object) -> bool:
        if not isinstance(index, int) or not 0 <= index < self.size:
            return False
        return bool(self.bits[index >> 3] & (1 << (index & 7)))

    def __len__(self) -> int:
        return sum(byte.bit_count() for byte in self.bits)

    def __bytes__(self) -> bytes:
        return bytes(self.bits)


def pending(config: RunConfig, done: CellSet, part: int = 0, parts: int = 1) -> Iterator[Cell]:
    """The cells of ``config`` not in ``done``, lazily; with ``parts``, every ``parts``-th one.

    Part ``part`` (0-based) holds the cells whose index is ``part`` modulo ``parts``: how a
    run's cells are dealt to its workers.
    """
    for index in range(part, grid_size(config), parts):
        if index not in done:
            yield cell_at(config, index)


def conversation_id(run_id: str, index: int) -> str:
    """The id of the conversation of cell ``index`` of run ``run_id`` (stable across resumes)."""
    return f"{run_id}/{index:06d}"


def cell_index(conversation: str) -> int | None:
    """The cell index inside a ``conversation_id``; None for an id of another form."""
    tail = conversation.rpartition("/")[2]
    return int(tail) if tail.isdigit() else None


def grid_size(config: RunConfig) -> int:
    """How many cells ``grid(config)`` yields, without making them."""
    emotional = sum(e not in _SINGLE for e in config.emotions)
    conditions = (len(config.emotions) - emotional) + emotional * len(config.intensities)
    levels = len(config.politeness) * len(config.urgency) * len(config.trust)
    return (
        len(config.agents)
        * len(config.users)
        * len(config.tasks)
        * conditions
        * levels
        * config.trials
    )


def conversation_seed(
    run_seed: int, user: str, task_id: str, condition: Condition, trial: int
) -> int:
    """Seed of one conversation: independent of the agent, so agents meet identical users.

    Only the levels that are set enter the key, so a condition without levels keeps the seed it
    had before dimensions existed.
    """
    key = f"{run_seed}|{user}|{task_id}|{condition.emotion}|{condition.intensity:.4f}|{trial}"
    for name, level in condition.levels.items():
        if level is not None:
            key += f"|{name}={level}"
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big") >> 1


def task_set_hash(tasks: Sequence[msgspec.Struct]) -> str:
    """A hash of the tasks a run plays: their full content, in order (``--resume`` checks it).

    A task of the ``base`` tier hashes without its tier, as every task did before tasks had
    tiers, and every task without the data of task formats 2-3 (``taskformat.TASK_DATA``, what its
    generator read from it), so a run stored before either resumes with the same hash.
    """
    digest = hashlib.blake2b(digest_size=16)
    for task in tasks:
        fields = msgspec.to_builtins(task)
        if isinstance(fields, dict):
            fields = without_data(fields)
        if isinstance(fields, dict) and fields.get("tier") == DEFAULT_TIER:
            del fields["tier"]
        digest.update(msgspec.json.encode(fields))
        digest.update(b"\n")
    return digest.hexdigest()


def new_run_id() -> str:
    """A sortable, unique run id."""
    return time.strftime("run-%Y%m%d-%H%M%S-") + secrets.token_hex(2)
