"""``tau-sim emotions``: emotion families, leaves (aliases), intensity levels and dimensions.

The families come from the emotion taxonomies of the ``EMOTIONS`` registry; ``results.catalogs``
(rich) is imported when the command runs.
"""

from __future__ import annotations

from typing import Any

from tau_sim.simulator.cli.options import catalog_command
from tau_sim.simulator.core.conditions import DEFAULT_LEVEL, DIMENSIONS, INTENSITY_LEVELS
from tau_sim.simulator.core.registry import EMOTIONS, load_plugins


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


COMMAND = catalog_command(
    "emotions",
    "emotion families, leaves (aliases), intensity levels and dimensions",
    emotions_catalog,
    "render_emotions",
)
