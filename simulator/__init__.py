"""simulator package.

Importing it first loads sqlite-utils without pandas and numpy (``simulator.lean_imports``), so
every ``tau-sim`` process starts in a fraction of the time.
"""

from simulator.lean_imports import import_sqlite_utils

import_sqlite_utils()
