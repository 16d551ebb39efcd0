"""One conversation: the bus, the three actors, the referee, the judge and the failure reasons.

``run_conversation`` (``conversation``) is what the runner calls for one grid cell; the rest is the
machinery it wires together. The names below are those code outside the engine uses (the bus and
its live feed) and those the plugin guide names (docs/worlds.md: the actors, ``route``); the rest is
imported from its module.

Each name is imported from its module on first use (``core.exports.lazy_names``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tau_sim.simulator.core.exports import lazy_names

if TYPE_CHECKING:
    from tau_sim.simulator.engine.actors import EnvActor, UserActor
    from tau_sim.simulator.engine.bus import Bus, LiveFeed, route

MODULE_OF = {
    "Bus": "bus",
    "EnvActor": "actors",
    "LiveFeed": "bus",
    "UserActor": "actors",
    "route": "bus",
}
"""The module of this package that defines each public name."""

__all__ = [
    "Bus",
    "EnvActor",
    "LiveFeed",
    "UserActor",
    "route",
]

__getattr__ = lazy_names(__name__, globals(), MODULE_OF)
