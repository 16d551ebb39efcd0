"""simulator package.

Importing it first loads sqlite-utils without pandas and numpy (``simulator.core.lean_imports``), so
every ``tau-sim`` process starts in a fraction of the time.
"""

from tau_sim.simulator.core.lean_imports import import_sqlite_utils

import_sqlite_utils()
