"""A sub-package's public names, each imported from its module on first use (PEP 562).

A package ``__init__`` that imported every module it names would make importing any one of
them (``tau_sim.simulator.results.stats``) import the whole package (``results.report`` and
rich with it), and every ``tau-sim`` call would pay for it. Instead the ``__init__`` lists its
names with their modules, imports them only for the type checker, and takes
``__getattr__ = lazy_names(__name__, globals(), MODULE_OF)``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, namespace: dict[str, Any], module_of: Mapping[str, str]
) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: a public name from its module, kept once imported.

    ``module_of`` maps each public name to the module of ``package`` that defines it; any other
    name is an ``AttributeError``, as Python's own lookup would raise.
    """

    def attribute(name: str) -> Any:
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        namespace[name] = value
        return value

    return attribute
