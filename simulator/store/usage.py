"""Per-role accounting of model calls: the roles, their columns, and the sums the writer stores.

Every ``ModelUsage`` event is counted for its role (``ROLES``; any other role counts as the
agent's): tokens in, out and cached, dollars, calls of a real model without a price, and turns a
scripted actor played (``SIMULATED_BACKENDS``: no model, no tokens, no dollars, never
unpriced). ``UsageTally`` keeps the sums of each conversation the writer has seen start until it
ends; ``conversations`` stores them in the ``ROLE_COLUMN_NAMES`` columns.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tau_sim.simulator.core.events import ModelUsage
from tau_sim.simulator.core.registry import SIMULATED_BACKENDS

ROLES = ("agent", "user", "judge")
"""The roles whose model calls are accounted apart (the judge's: ``run --judge`` and
``tau-sim review``)."""
ROLE_FIELDS = {
    "tokens_in": "integer",
    "tokens_out": "integer",
    "tokens_cached": "integer",
    "cost_usd": "float",
    "unpriced": "integer",
    "simulated": "integer",
}
"""Per role: prompt, completion and cached prompt tokens, dollars (NULL: no priced call), how
many calls of a real model had no price, and how many turns a scripted actor played (no model:
no tokens, no dollars)."""
ROLE_COLUMN_NAMES = tuple(f"{role}_{name}" for role in ROLES for name in ROLE_FIELDS)
"""The per-role columns of ``conversations`` (``agent_tokens_in`` …), role by role."""


@dataclass
class RoleCounters:
    """One role's sums over its ``ModelUsage`` events, in ``ROLE_FIELDS`` order."""

    tokens_in: int = 0
    tokens_out: int = 0
    tokens_cached: int = 0
    cost_usd: float | None = None
    unpriced: int = 0
    simulated: int = 0

    def add(self, ev: ModelUsage) -> None:
        """Count one model call (or scripted turn)."""
        self.tokens_in += ev.tokens_in
        self.tokens_out += ev.tokens_out
        self.tokens_cached += ev.tokens_cached
        if ev.backend in SIMULATED_BACKENDS:  # no model: nothing to price, never unpriced
            self.simulated += 1
        elif ev.cost_usd is None:
            self.unpriced += 1
        else:
            self.cost_usd = (self.cost_usd or 0.0) + ev.cost_usd

    def values(self) -> tuple[Any, ...]:
        """The sums as the ``ROLE_FIELDS`` columns hold them (cost None: no priced call)."""
        return (
            self.tokens_in,
            self.tokens_out,
            self.tokens_cached,
            self.cost_usd,
            self.unpriced,
            self.simulated,
        )


@dataclass
class Counters:
    """One conversation's model calls, summed per role."""

    model_calls: int = 0
    roles: dict[str, RoleCounters] = field(default_factory=dict)

    def add(self, ev: ModelUsage) -> None:
        """Count one call for its role (a role outside ``ROLES`` counts as the agent's)."""
        self.model_calls += 1
        role = ev.role if ev.role in ROLES else "agent"
        self.roles.setdefault(role, RoleCounters()).add(ev)

    def totals(self) -> tuple[int, int, float | None]:
        """(tokens in, tokens out, dollars: NULL when no role has a priced call)."""
        roles = self.roles.values()
        costs = [r.cost_usd for r in roles if r.cost_usd is not None]
        return (
            sum(r.tokens_in for r in roles),
            sum(r.tokens_out for r in roles),
            sum(costs) if costs else None,
        )

    def by_role(self) -> tuple[Any, ...]:
        """The per-role columns, in ``ROLE_COLUMN_NAMES`` order (NULL cost: no priced call)."""
        empty = RoleCounters()
        return tuple(v for role in ROLES for v in self.roles.get(role, empty).values())


class UsageTally:
    """The sums of the conversations whose ``ModelUsage`` events came and whose end has not."""

    def __init__(self) -> None:
        self._counters: dict[str, Counters] = {}

    def add(self, ev: ModelUsage) -> None:
        """Count one model call for its conversation."""
        self._counters.setdefault(ev.conversation, Counters()).add(ev)

    def pop(self, conversation: str) -> tuple[Any, ...]:
        """A finished conversation's sums, forgotten here: the calls, the totals, the roles.

        ``(model_calls, tokens_in, tokens_out, cost_usd, *ROLE_COLUMN_NAMES values)``; zeros (and
        NULL dollars) for a conversation without a model call.
        """
        c = self._counters.pop(conversation, Counters())
        return (c.model_calls, *c.totals(), *c.by_role())
