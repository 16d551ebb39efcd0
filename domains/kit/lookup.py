"""Record lookups: `load`, `loader` for tools (ToolError when missing); `record`, `pick`, `picker`.

``order_key`` and ``require_status`` are the order checks of the worlds that sell orders.

Tools look records up by what the agent typed, intents sample records known to exist.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from tau_sim.simulator.world import Database, ToolError

R = TypeVar("R")


def load(db: Database, table: str, key: str, label: str) -> Any:
    """The record ``key`` of ``table``; ``ToolError`` ("<label> 'key' not found") when unknown."""
    value = db.get(table, key)
    if value is None:
        raise ToolError(f"{label} {key!r} not found")
    return value


def code_key(text: str) -> str:
    """A code as the tables key it: spaces stripped, upper case (``loader`` keys of codes)."""
    return text.strip().upper()


def order_key(order_id: str) -> str:
    """An order id as the tables key it: spaces stripped, the leading "#" added if omitted."""
    order_id = order_id.strip()
    return order_id if order_id.startswith("#") else f"#{order_id}"


class _Order(Protocol):
    @property
    def order_id(self) -> str: ...

    @property
    def status(self) -> str: ...


def require_status(order: _Order, allowed: tuple[str, ...], action: str) -> None:
    """Refuse (``ToolError``) unless the order's status is one of ``allowed``.

    ``action`` is what the refused tool would have done ("cancelled", "modified").
    """
    if order.status not in allowed:
        wanted = " or ".join(repr(s) for s in allowed)
        raise ToolError(
            f"order {order.order_id} is {order.status!r}: only {wanted} orders can be {action}"
        )


def loader(
    table: str, label: str, kind: type[R], key: Callable[[str], str] = str.strip
) -> Callable[[Database, str], R]:
    """A typed ``load`` of ``table``: ``get(db, text)`` is the ``kind`` record ``key(text)``.

    ``key`` normalizes what the agent typed (spaces stripped by default); an unknown key is a
    ``ToolError`` ("<label> 'key' not found"), a record of another type a ``TypeError``.
    """

    def get(db: Database, text: str) -> R:
        value = load(db, table, key(text), label)
        if not isinstance(value, kind):
            raise TypeError(
                f"{table}/{key(text)} is a {type(value).__name__}, not a {kind.__name__}"
            )
        return value

    return get


def record(db: Database, table: str, key: str) -> Any:
    """A record known to exist in the base (intents sample existing keys)."""
    value = db.get(table, key)
    if value is None:
        raise KeyError(f"{table}/{key}")
    return value


def pick(
    db: Database, rng: random.Random, table: str, accept: Callable[[Any], bool], tries: int = 300
) -> Any | None:
    """A random record of ``table`` that ``accept`` likes, or None after ``tries`` draws."""
    keys = list(db.keys(table))
    for _ in range(tries):
        value = record(db, table, rng.choice(keys))
        if accept(value):
            return value
    return None


def picker(
    table: str, kind: type[R]
) -> Callable[[Database, random.Random, Callable[[R], bool]], R | None]:
    """A typed ``pick`` of ``table``: ``get(db, rng, accept)``, a random ``kind`` record or None."""

    def get(db: Database, rng: random.Random, accept: Callable[[R], bool]) -> R | None:
        found = pick(db, rng, table, accept)
        if found is not None and not isinstance(found, kind):
            raise TypeError(f"{table} holds a {type(found).__name__}, not a {kind.__name__}")
        return found

    return get
