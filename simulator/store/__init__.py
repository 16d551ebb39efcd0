"""The SQLite store: runs, conversations and every event, written by one batching writer.

The database is the run's truth. ``Store`` (``runs``) is what the runner holds: the batching
writer (``writer``) with the run lifecycle. ``open_database`` (``opening``) opens a file,
checked, in WAL mode, migrating an older one (``schema``); storage faults are ``StoreError``
(exit code 1) naming the file and the cause. Readers use ``get_run``, ``iter_events`` and
``role_usage`` (``reads``); a run's status as it stands is ``run_state`` (``stale`` for a run
whose process died). Events are kept with integer keys (``event_rows``); per-role model usage is
summed by ``usage``; the waits are in ``timeouts``.
"""

from tau_sim.simulator.store.event_rows import PAGE_SIZE, ordered_rows
from tau_sim.simulator.store.opening import (
    DEFAULT_DB,
    open_database,
    storage_fault,
    storage_faults,
)
from tau_sim.simulator.store.reads import get_run, iter_events, role_usage, run_state, run_states
from tau_sim.simulator.store.runs import Store
from tau_sim.simulator.store.schema import (
    CONVERSATION_COLUMNS,
    LEVEL_COLUMNS,
    RUN_COLUMNS,
    SCHEMA_VERSION,
    create_rescores_table,
)
from tau_sim.simulator.store.timeouts import (
    BUSY_TIMEOUT_ENV,
    STALE_AFTER_ENV,
    default_busy_timeout,
    stale_after,
)
from tau_sim.simulator.store.usage import ROLE_COLUMN_NAMES, ROLE_FIELDS, ROLES
from tau_sim.simulator.store.writer import Writer

__all__ = [
    "BUSY_TIMEOUT_ENV",
    "CONVERSATION_COLUMNS",
    "DEFAULT_DB",
    "LEVEL_COLUMNS",
    "PAGE_SIZE",
    "ROLES",
    "ROLE_COLUMN_NAMES",
    "ROLE_FIELDS",
    "RUN_COLUMNS",
    "SCHEMA_VERSION",
    "STALE_AFTER_ENV",
    "Store",
    "Writer",
    "create_rescores_table",
    "default_busy_timeout",
    "get_run",
    "iter_events",
    "open_database",
    "ordered_rows",
    "role_usage",
    "run_state",
    "run_states",
    "stale_after",
    "storage_fault",
    "storage_faults",
]
