"""The SQLite store: runs, conversations and every event, written by one batching writer.

The database is the run's truth. ``Store`` (``runs``) is what the runner holds: the batching
writer (``writer``) with the run lifecycle. ``open_database`` (``opening``) opens a file,
checked, in WAL mode, migrating an older one (``schema``); storage faults are ``StoreError``
(exit code 1) naming the file and the cause. Readers use ``get_run``, ``iter_events`` and
``role_usage`` (``reads``); a run's status as it stands is ``run_state`` (``stale`` for a run
whose process died). Events are kept with integer keys (``event_rows``); per-role model usage is
summed by ``usage``; the waits are in ``timeouts``. Files written for the user (exports,
selections, dataset folders) are written whole or not at all by ``atomic_output`` and
``write_outputs`` (``outputs``).

Each name is imported from its module on first use (``core.exports.lazy_names``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tau_sim.simulator.core.exports import lazy_names

if TYPE_CHECKING:
    from tau_sim.simulator.store.event_rows import ordered_rows
    from tau_sim.simulator.store.opening import DEFAULT_DB, open_database, storage_faults
    from tau_sim.simulator.store.outputs import atomic_output, check_output, write_outputs
    from tau_sim.simulator.store.reads import (
        get_run,
        iter_events,
        played_seconds,
        role_usage,
        run_state,
        run_states,
    )
    from tau_sim.simulator.store.runs import Store
    from tau_sim.simulator.store.schema import (
        CONVERSATION_COLUMNS,
        SCHEMA_VERSION,
        create_rescores_table,
    )
    from tau_sim.simulator.store.usage import ROLE_COLUMN_NAMES, ROLE_FIELDS, ROLES

MODULE_OF = {
    "CONVERSATION_COLUMNS": "schema",
    "DEFAULT_DB": "opening",
    "ROLES": "usage",
    "ROLE_COLUMN_NAMES": "usage",
    "ROLE_FIELDS": "usage",
    "SCHEMA_VERSION": "schema",
    "Store": "runs",
    "atomic_output": "outputs",
    "check_output": "outputs",
    "create_rescores_table": "schema",
    "get_run": "reads",
    "iter_events": "reads",
    "open_database": "opening",
    "ordered_rows": "event_rows",
    "played_seconds": "reads",
    "role_usage": "reads",
    "run_state": "reads",
    "run_states": "reads",
    "storage_faults": "opening",
    "write_outputs": "outputs",
}
"""The module of this package that defines each public name."""

__all__ = [
    "CONVERSATION_COLUMNS",
    "DEFAULT_DB",
    "ROLES",
    "ROLE_COLUMN_NAMES",
    "ROLE_FIELDS",
    "SCHEMA_VERSION",
    "Store",
    "atomic_output",
    "check_output",
    "create_rescores_table",
    "get_run",
    "iter_events",
    "open_database",
    "ordered_rows",
    "played_seconds",
    "role_usage",
    "run_state",
    "run_states",
    "storage_faults",
    "write_outputs",
]

__getattr__ = lazy_names(__name__, globals(), MODULE_OF)
