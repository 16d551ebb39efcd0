"""``tau-sim emotions``: emotion families, leaves (aliases), intensity levels and dimensions.

The families come from the emotion taxonomies of the ``EMOTIONS`` registry; ``results.report``
(rich) is imported when the command runs.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from tau_sim.simulator.core.conditions import DEFAULT_LEVEL, DIMENSIONS, INTENSITY_LEVELS
from tau_sim.simulator.core.registry import EMOTIONS, Command, load_plugins


def emotions_catalog() -> dict[str, Any]:
    """Families with their leaves (and aliases), the intensity levels and the dimensions.

    A bare family name on ``--emotions`` runs the family's default leaf (``default_leaf``).
    """
    load_plugins(domains=())  # every plugin but the domains, which bring no taxonomy
    families: dict[str, Any] = {}
    for taxonomy in EMOTIONS.registered():
        families.update(taxonomy.catalog())
    return {
        "families": families,
        "family_name_means": "the family's default leaf",
        "intensities": dict(INTENSITY_LEVELS),
        "intensity_range": [0.0, 1.0],
        "dimensions": {d: list(levels) for d, levels in DIMENSIONS.items()},
        "dimension_default": DEFAULT_LEVEL,
    }


def configure(emotions: argparse.ArgumentParser) -> None:
    """The options of ``tau-sim emotions``."""
    emotions.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Print the emotion catalog (or ``--json``)."""
    from tau_sim.simulator.results.report import render_emotions

    catalog = emotions_catalog()
    if args.json:
        print(json.dumps(catalog, indent=2))
    else:
        render_emotions(catalog)
    return 0


COMMAND = Command(
    "emotions",
    "emotion families, leaves (aliases), intensity levels and dimensions",
    configure,
    run,
)
