"""Typed ``key=value`` options (``core.options``) and lenient tool-call arguments (``toolargs``)."""

from __future__ import annotations

import pytest

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.options import parse_key_values, parse_value
from tau_sim.simulator.core.toolargs import dump_arguments, parse_arguments


def test_parse_values_and_pairs() -> None:
    assert [parse_value(v) for v in ["true", "False", "3", "-2.5", "1e3", "none", "abc"]] == [
        True,
        False,
        3,
        -2.5,
        1000.0,
        None,
        "abc",
    ]
    assert parse_value('["a", "b"]') == ["a", "b"]
    assert parse_value('{"k": 1}') == {"k": 1}
    assert parse_key_values(
        ["temperature=0.2", "stream=true", "url=http://x/v1?a=b"], "--agent-arg"
    ) == {
        "temperature": 0.2,
        "stream": True,
        "url": "http://x/v1?a=b",
    }
    with pytest.raises(UsageError, match="--user-arg: expected key=value, got 'oops'"):
        parse_key_values(["oops"], "--user-arg")


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ("", {}),
        (None, {}),
        ({"a": 1}, {"a": 1}),
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ('Sure! {"a": 1} done', {"a": 1}),
        ('"{\\"a\\": 1}"', {"a": 1}),
        ('[{"a": 1}]', {"a": 1}),
        ('{"a": 1', {"__raw__": '{"a": 1'}),
        ("42", {"__raw__": "42"}),
        ("[1, 2]", {"__raw__": "[1, 2]"}),
    ],
)
def test_parse_arguments(raw: str | dict[str, int] | None, expected: dict[str, object]) -> None:
    assert parse_arguments(raw) == expected


def test_dump_arguments() -> None:
    assert dump_arguments({"a": 1}) == '{"a":1}'
    assert dump_arguments({"__raw__": "{bad"}) == "{bad"
