"""Read tools show every field they promise, defaults included (issue 39 item 2).

Records are stored without their defaults (``omit_defaults``), which once hid a guest's "blue"
tier and a traveller's "regular" membership from the agent though the tool descriptions name
them. For every read tool of every built-in domain that a gold path calls, the first such real
call must show each field of the records it returns, and in particular every field whose name
the description says.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from tau_sim.simulator.core.registry import DOMAINS, get_domain, load_plugins
from tau_sim.simulator.world.tools import ToolKind

load_plugins()
NAMES = [name for name in DOMAINS.names() if "/" not in name]


def missing_fields(value: Any, shown: Any, at: str = "") -> list[str]:
    """Where a field of a Struct inside ``value`` is absent from its JSON ``shown``."""
    if isinstance(value, msgspec.Struct):
        out = [f"{at}.{f}" for f in value.__struct_fields__ if f not in shown]
        for f in value.__struct_fields__:
            if f in shown:
                out += missing_fields(getattr(value, f), shown[f], f"{at}.{f}")
        return out
    if isinstance(value, list | tuple):
        return [m for n, v in enumerate(value) for m in missing_fields(v, shown[n], f"{at}[{n}]")]
    if isinstance(value, dict):
        return [m for k, v in value.items() for m in missing_fields(v, shown[k], f"{at}.{k}")]
    return []


def named_fields(value: Any, description: str) -> set[str]:
    """The top-level fields of the record(s) in ``value`` whose name the description says."""
    records = value if isinstance(value, list | tuple) else [value]
    text = description.lower()
    return {
        f
        for r in records
        if isinstance(r, msgspec.Struct)
        for f in r.__struct_fields__
        if f.replace("_", " ") in text
    }


@pytest.mark.parametrize("name", NAMES)
def test_read_tools_show_every_field(name: str) -> None:
    domain = get_domain(name)
    checked: set[str] = set()
    for task in domain.tasks:
        db = domain.new_database(task)
        for action in task.actions:
            tool = domain.tool(action.name)
            assert tool is not None
            if tool.kind is ToolKind.READ and action.name not in checked:
                value = tool.fn(db, **tool.validate(dict(action.arguments)))
                outcome = domain.call(db, action)
                if isinstance(value, str) or outcome.error:
                    continue
                checked.add(action.name)
                shown = json.loads(outcome.content)
                assert not missing_fields(value, shown), (action.name, missing_fields(value, shown))
                records = shown if isinstance(shown, list) else [shown]
                for field in named_fields(value, tool.spec.description):
                    assert all(field in r for r in records), (action.name, field)
            domain.call(db, action)
    assert checked, f"{name}: no read tool returned a record"


@pytest.mark.parametrize(
    ("name", "field", "default"), [("airline", "membership", "regular"), ("hotel", "tier", "blue")]
)
def test_a_default_tier_is_shown(name: str, field: str, default: str) -> None:
    domain = get_domain(name)
    db = domain.new_database()
    user_id, _ = next((k, u) for k, u in db.items("users") if getattr(u, field) == default)
    outcome = domain.toolkit.call(db, "get_user_details", {"user_id": user_id})
    assert json.loads(outcome.content)[field] == default
