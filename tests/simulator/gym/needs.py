"""The skip rule of the environment tests: skip only where Gymnasium is not installed.

The test extra installs it and CI sets ``TAU_SIM_REQUIRE_GYM=1``: there a failing import fails
the tests instead of skipping them (``tests.helpers.require``).
"""

from __future__ import annotations

from tests.helpers.require import import_or_require

REASON = "Gymnasium is not installed: pip install -e '.[gym]' (the test extra installs it)"


def require_gym() -> None:
    """Import Gymnasium, or skip the calling test module where it is missing."""
    __tracebackhide__ = True
    import_or_require("gymnasium", "GYM", REASON)
