"""Tool calls for the domains' own tests: plain, one that must succeed, one that must fail."""

from __future__ import annotations

from typing import Any

import msgspec

from tau_sim.simulator.world.database import Database
from tau_sim.simulator.world.domain import Action, Domain


def call(domain: Domain, db: Database, name: str, **arguments: Any) -> tuple[bool, str]:
    """(error, content) of the tool ``name`` (the agent's or the user's) called on ``db``."""
    outcome = domain.call(db, Action(name, arguments))
    return outcome.error, outcome.content


def ok(domain: Domain, db: Database, name: str, **arguments: Any) -> Any:
    """The result of a call that must succeed: decoded JSON, or the plain string it returned."""
    error, content = call(domain, db, name, **arguments)
    assert not error, content
    try:
        return msgspec.json.decode(content)
    except msgspec.DecodeError:  # plain strings (ids, messages) are returned as they are
        return content


def refused(domain: Domain, db: Database, name: str, expect: str = "", **arguments: Any) -> str:
    """The message of a call that must fail: an ``Error:`` naming ``expect``, nothing changed."""
    before = db.state_hash()
    error, content = call(domain, db, name, **arguments)
    assert error and content.startswith("Error") and expect in content, content
    assert db.state_hash() == before, "a refused call changed the database"
    return content
