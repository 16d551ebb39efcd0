"""Registering a domain built on the kit: one call from the package's ``__init__``.

Every kit domain is a package with the same files: ``tools`` (the agent's tools), ``data``
(``build_base(seed)``), ``rules`` (``PHRASINGS``, where the policy words a required output its
own way), ``scenario`` (``HINTS``; ``STEP_HINTS`` where the user holds a device), ``policy.md``,
``tasks.jsonl``, for dual control ``device`` (the user's tools), and the task factory
``factory`` (``INTENTS``). ``register_world`` reads them by these names and registers the
domain's factory. A run reads the task file and never imports ``factory``: only generating
tasks, Tracer and ``domains show`` do, on first use of ``Domain.intents``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from tau_sim.simulator.core import DOMAINS
from tau_sim.simulator.world import Domain, Generation, Toolkit


def register_world(
    package: str,
    title: str,
    base_seed: int,
    generation: Generation,
    *,
    user_tools: bool = False,
) -> Callable[[], Domain]:
    """Register the domain of ``package`` (its ``__name__``) and return its factory.

    The name is the package's last part, ``title`` what ``tau-sim domains`` shows; the base is
    ``data.build_base(base_seed)``; the task set is regenerated with ``generation``. With
    ``user_tools``, ``device`` holds the tools only the user can run and ``scenario.STEP_HINTS``
    how an agent asks for each; ``rules.PHRASINGS`` (if any) the ways of saying a required
    output that count. The factory's docstring is the package docstring's first line.
    """
    name = package.rsplit(".", 1)[-1]
    modules = {
        part: importlib.import_module(f"{package}.{part}")
        for part in ("tools", "data", "rules", "scenario")
    }
    toolkit = Toolkit.from_module(modules["tools"])
    scenario = modules["scenario"]
    user_toolkit = None
    if user_tools:
        user_toolkit = Toolkit.from_module(importlib.import_module(f"{package}.device"))
    init = importlib.import_module(package)
    folder = Path(init.__file__ or "").parent
    build_base = modules["data"].build_base

    def factory() -> Domain:
        return Domain.from_folder(
            folder,
            name=name,
            title=title,
            toolkit=toolkit,
            build_base=lambda: build_base(base_seed),
            intents=lambda: importlib.import_module(f"{package}.factory").INTENTS,
            generation=generation,
            slot_hints=scenario.HINTS,
            user_toolkit=user_toolkit,
            user_tool_hints=scenario.STEP_HINTS if user_tools else None,
            phrasings=getattr(modules["rules"], "PHRASINGS", None),
        )

    factory.__name__ = factory.__qualname__ = name
    factory.__doc__ = (init.__doc__ or name).strip().splitlines()[0]
    DOMAINS.add(name, factory)
    return factory
