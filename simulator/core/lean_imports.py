"""Import sqlite-utils without letting it import pandas and numpy.

sqlite-utils imports pandas and numpy when they are installed (the ``tau2`` extra brings them),
only to map their value types to column types; tau-sim stores only Python values. Those two
imports cost about half a second, more than the rest of a ``tau-sim`` start-up together, in
every CLI call and every worker process. ``import_sqlite_utils`` hides the two that are not
imported yet while sqlite-utils loads, then unhides them, so a later ``import pandas`` (τ²-bench's
data model) works as usual.
"""

from __future__ import annotations

import sys

HIDDEN = ("pandas", "numpy")


def import_sqlite_utils() -> None:
    """Import ``sqlite_utils`` (once) with pandas and numpy hidden unless already imported."""
    if "sqlite_utils" in sys.modules:
        return
    hidden = [name for name in HIDDEN if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # makes `import name` fail
    try:
        import sqlite_utils  # noqa: F401
    finally:
        for name in hidden:
            if sys.modules.get(name, ...) is None:
                del sys.modules[name]
