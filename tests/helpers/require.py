"""Skip a test where an optional dependency is missing, or fail it where CI requires that one.

Each optional dependency has a switch, ``TAU_SIM_REQUIRE_<NAME>`` (``RAY``, ``TAU2``, ``LOCAL``,
``FUSE``, ``TMPFS``, ``TEMPLATES``): .ci/run installs the dependency and sets the switch, so
there a missing dependency fails the tests that need it instead of skipping them silently.
Elsewhere (only ``.[test]`` installed) those tests skip, saying what to install.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from types import ModuleType
from typing import NoReturn

import pytest


def switch(name: str) -> str:
    """The environment variable that requires ``name`` (``RAY`` -> ``TAU_SIM_REQUIRE_RAY``)."""
    return f"TAU_SIM_REQUIRE_{name.upper()}"


def required(name: str) -> bool:
    """Whether this run requires the dependency ``name`` (its switch is set and not empty)."""
    return bool(os.environ.get(switch(name)))


def require(name: str, reason: str) -> NoReturn:
    """The calling test (or test module, when called at import) cannot run: ``reason`` says why.

    Skips it, or fails it where ``name`` is required; pytest reports the caller's line.
    """
    __tracebackhide__ = True
    if required(name):
        pytest.fail(f"{reason} ({switch(name)} is set)", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def import_or_require(module: str, name: str, reason: str) -> ModuleType:
    """Import ``module``; where that fails, ``require(name, reason)`` (``reason`` gets the
    import's error appended)."""
    __tracebackhide__ = True
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        require(name, f"{reason} ({type(exc).__name__}: {exc})")


def missing(module: str, name: str) -> bool:
    """Whether ``module`` cannot be found here and ``name`` is not required: a ``skipif``
    condition (where ``name`` is required the test runs, and fails without the module)."""
    return importlib.util.find_spec(module) is None and not required(name)
