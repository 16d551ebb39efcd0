"""The grid of a run: its configuration, its cells in a fixed order, their seeds, its keys.

``config`` holds ``RunConfig``; ``cells`` the cells, their order, seeds and bitmaps; ``keys``
the sealing of a config's literal API keys. Code outside ``simulator.grid`` imports these
names from here.
"""

from tau_sim.simulator.grid.cells import (
    Cell,
    CellSet,
    cell_at,
    cell_index,
    conversation_id,
    conversation_seed,
    grid,
    grid_size,
    new_run_id,
    pending,
    task_set_hash,
)
from tau_sim.simulator.grid.config import RunConfig, decode_config
from tau_sim.simulator.grid.keys import reattach_keys, seal_keys

__all__ = [
    "Cell",
    "CellSet",
    "RunConfig",
    "cell_at",
    "cell_index",
    "conversation_id",
    "conversation_seed",
    "decode_config",
    "grid",
    "grid_size",
    "new_run_id",
    "pending",
    "reattach_keys",
    "seal_keys",
    "task_set_hash",
]
