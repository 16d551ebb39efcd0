"""The grid of a run: its configuration, its cells in a fixed order, their seeds, its keys.

``config`` holds ``RunConfig``; ``cells`` the cells, their order, seeds and bitmaps; ``keys``
the sealing of a config's literal API keys; ``workers`` how many worker processes it takes.
Code outside ``simulator.grid`` imports these names from here.

Each name is imported from its module on first use (``core.exports.lazy_names``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tau_sim.simulator.core.exports import lazy_names

if TYPE_CHECKING:
    from tau_sim.simulator.grid.cells import (
        Cell,
        CellSet,
        cell_at,
        cell_index,
        conversation_seed,
        grid,
        grid_size,
        new_run_id,
        pending,
        task_set_hash,
    )
    from tau_sim.simulator.grid.config import RunConfig, decode_config
    from tau_sim.simulator.grid.keys import reattach_keys, seal_keys
    from tau_sim.simulator.grid.workers import auto_workers, resolve_workers

MODULE_OF = {
    "auto_workers": "workers",
    "resolve_workers": "workers",
    "Cell": "cells",
    "CellSet": "cells",
    "RunConfig": "config",
    "cell_at": "cells",
    "cell_index": "cells",
    "conversation_seed": "cells",
    "decode_config": "config",
    "grid": "cells",
    "grid_size": "cells",
    "new_run_id": "cells",
    "pending": "cells",
    "reattach_keys": "keys",
    "seal_keys": "keys",
    "task_set_hash": "cells",
}
"""The module of this package that defines each public name."""

__all__ = [
    "Cell",
    "CellSet",
    "RunConfig",
    "auto_workers",
    "cell_at",
    "cell_index",
    "conversation_seed",
    "decode_config",
    "grid",
    "grid_size",
    "new_run_id",
    "pending",
    "reattach_keys",
    "resolve_workers",
    "seal_keys",
    "task_set_hash",
]

__getattr__ = lazy_names(__name__, globals(), MODULE_OF)
