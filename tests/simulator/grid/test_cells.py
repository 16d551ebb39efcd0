"""A grid's cells: the order ``cell_at`` computes without making the cells before, and done sets."""

from __future__ import annotations

import pytest

from tau_sim.simulator.core import Condition
from tau_sim.simulator.grid import (
    Cell,
    CellSet,
    RunConfig,
    cell_at,
    conversation_seed,
    grid,
    grid_size,
)


def nested_grid(config: RunConfig) -> list[Cell]:
    """The grid's order written out as nested loops: what ``cell_at`` must compute."""
    single = ("neutral", "task")
    combos = [(p, u, t) for p in config.politeness for u in config.urgency for t in config.trust]
    cells = []
    for agent in config.agents:
        for user in config.users:
            for task_id in config.tasks:
                for emotion in config.emotions:
                    for intensity in [0.0] if emotion in single else config.intensities:
                        for politeness, urgency, trust in combos:
                            for trial in range(config.trials):
                                played = Condition(
                                    emotion=emotion,
                                    intensity=intensity,
                                    politeness=politeness,
                                    urgency=urgency,
                                    trust=trust,
                                )
                                seed = conversation_seed(config.seed, user, task_id, played, trial)
                                cells.append(
                                    Cell(len(cells), agent, user, task_id, played, trial, seed)
                                )
    return cells


def test_cell_at_is_the_grid_cell_of_that_index() -> None:
    config = RunConfig(
        tasks=["a", "b", "c"],
        agents=["x", "y"],
        users=["u", "v"],
        emotions=["neutral", "anger", "task"],
        intensities=[0.3, 0.9],
        politeness=[None, "warm"],
        trust=["cautious", None],
        trials=3,
        seed=5,
    )
    cells = nested_grid(config)
    assert len(cells) == grid_size(config) == 576
    assert [cell_at(config, i) for i in range(len(cells))] == cells
    assert list(grid(config)) == cells
    with pytest.raises(IndexError, match="cell 576 is outside the grid of 576 cells"):
        cell_at(config, 576)


def test_a_cell_set_is_a_bitmap_over_the_grid() -> None:
    done = CellSet(20)
    for index in (0, 7, 8, 19):
        done.add(index)
    assert len(done) == 4 and 7 in done and 9 not in done and 20 not in done
    assert len(bytes(done)) == 3
    again = CellSet(20, bytes(done))
    assert [i for i in range(20) if i in again] == [0, 7, 8, 19]
    with pytest.raises(ValueError, match="a set over 20 cells takes 3 bytes"):
        CellSet(20, b"\x00")
