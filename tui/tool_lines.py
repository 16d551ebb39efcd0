"""Tool calls typed as command lines (``/name key=value ...``), and the tools listed as such.

``tau-sim human``'s players call tools this way: the agent player the domain's tools, the user
player its phone's (``tui.human``). One line may hold several calls, each starting with ``/``
after a ``;`` (``CALL_SEPARATOR``: ``/a x=1 ; /b y=2``); they are sent as one turn. Values are
read by the tool's schema (``read_value``), the same way for a typed line and the tool form
(``tui.tool_form``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from rich.text import Text

from tau_sim.simulator.core import ToolCallSpec, ToolSpec


class CallError(ValueError):
    """A tool command line that does not name a tool or whose arguments do not parse."""


def read_value(text: str, schema: dict[str, Any]) -> Any:
    """The value of one argument written as text, read by its JSON schema (``CallError``: not so).

    Enums must be one of their values; integers, numbers and booleans must parse as such; a
    list is JSON (``["1", "2"]``) or its items separated by commas (``1, 2``); objects and
    unions are JSON where they parse, the rest is text as written (quote nothing).
    """
    text = text.strip()
    if "enum" in schema:
        choices = schema["enum"]
        chosen = next((c for c in choices if str(c) == text), None)
        if chosen is None:
            raise CallError(f"{text!r} is not one of: {', '.join(map(str, choices))}")
        return chosen
    kind = schema.get("type")
    if kind in ("integer", "number", "boolean"):
        value = _json(text)
        allowed = {"integer": (int,), "number": (int, float), "boolean": (bool,)}[kind]
        if not isinstance(value, allowed) or (kind != "boolean" and isinstance(value, bool)):
            raise CallError(f"{text!r} is not {'an' if kind == 'integer' else 'a'} {kind}")
        return value
    if kind == "array":
        if text.startswith("["):
            value = _json(text)
            if not isinstance(value, list):
                raise CallError(f"{text!r} is not a JSON list")
            return value
        items: dict[str, Any] = schema.get("items", {})
        return [read_value(part, items) for part in text.split(",") if part.strip()]
    if kind == "object" or "anyOf" in schema:
        value = _json(text)
        return text if value is _NOT_JSON else value
    return text


_NOT_JSON = object()


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return _NOT_JSON


KEY = re.compile(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=")
"""Where an argument starts in ``/name key=value ...``: a name and ``=`` after a blank."""
CALL_SEPARATOR = re.compile(r"\s*;\s*(?=/)")
"""What separates the calls of one line: a ``;`` before the ``/`` of the next call (a ``;`` in a
value that is not followed by ``/`` stays in the value)."""


def split_calls(line: str) -> list[str]:
    """The calls of one command line, each ``/name ...`` (``CALL_SEPARATOR`` between them)."""
    return [part.strip() for part in CALL_SEPARATOR.split(line.strip()) if part.strip()]


def parse_calls(line: str, tools: list[ToolSpec], call_id: str) -> list[ToolCallSpec]:
    """The tool calls of a command line ``/a x=1 ; /b y=2`` (each as ``parse_call`` reads it).

    One call is ``call_id``; several are ``call_id.1``, ``call_id.2``, ... in the line's order.
    """
    parts = split_calls(line)
    if len(parts) == 1:
        return [parse_call(parts[0], tools, call_id)]
    return [parse_call(part, tools, f"{call_id}.{n}") for n, part in enumerate(parts, 1)]


def parse_call(line: str, tools: list[ToolSpec], call_id: str) -> ToolCallSpec:
    """The tool call of a command line ``/name key=value ...`` or ``/name {json}``.

    A value runs to the next `` key=`` (so it may hold spaces: ``reason=ordered by mistake``);
    values are read by the tool's schema (``read_value``). A value that does not fit its schema
    or a required argument left out is a ``CallError`` naming it with the tool's usage (one
    line); the tool validates the values again when it runs.
    """
    name, _, rest = line.removeprefix("/").strip().partition(" ")
    tool = next((t for t in tools if t.name == name), None)
    if tool is None:
        raise CallError(f"no tool {name!r} (tools: {', '.join(t.name for t in tools)})")
    rest = rest.strip()
    if rest.startswith("{"):
        try:
            arguments = json.loads(rest)
        except json.JSONDecodeError as exc:
            raise CallError(f"{name}: arguments are not a JSON object ({exc.msg})") from None
        if not isinstance(arguments, dict):
            raise CallError(f"{name}: arguments are not a JSON object")
        _check_required(tool, arguments)
        return ToolCallSpec(call_id, name, arguments)
    properties: dict[str, Any] = tool.parameters.get("properties", {})
    keys = list(KEY.finditer(rest))
    if rest and (not keys or rest[: keys[0].start()].strip()):
        raise CallError(f"{name}: write key=value ... or a JSON object, not {rest!r}")
    arguments = {}
    for key, after in zip(keys, [*keys[1:], None][: len(keys)], strict=True):
        field = key.group(1)
        if field not in properties:
            raise CallError(f"{name}: no argument {field!r} (takes {', '.join(properties)})")
        text = rest[key.end() : after.start() if after else len(rest)].strip()
        try:
            arguments[field] = read_value(text, properties[field])
        except CallError as exc:
            raise CallError(f"{name}: {field} {exc}; usage: {usage(tool)}") from None
    _check_required(tool, arguments)
    return ToolCallSpec(call_id, name, arguments)


def usage(tool: ToolSpec) -> str:
    """A tool's command line as text: ``/name key=type ...``."""
    properties: dict[str, Any] = tool.parameters.get("properties", {})
    return " ".join([f"/{tool.name}", *(f"{k}={kind_of(v)}" for k, v in properties.items())])


def _check_required(tool: ToolSpec, arguments: dict[str, Any]) -> None:
    missing = [k for k in tool.parameters.get("required", []) if k not in arguments]
    if missing:
        raise CallError(f"{tool.name}: missing {', '.join(missing)}; usage: {usage(tool)}")


def kind_of(schema: dict[str, Any]) -> str:
    """What an argument takes, in a word: its type, its enum's values, or ``[...]`` for a list."""
    if "enum" in schema:
        return "|".join(map(str, schema["enum"]))
    if schema.get("type") == "array":
        return "[...]"
    return str(schema.get("type", "value"))


def tools_text(tools: list[ToolSpec]) -> Text:
    """The tools as command lines: ``/name key=type ...`` (required keys in bold), one a line."""
    text = Text()
    for tool in tools:
        text.append(f"/{tool.name}", style="bold")
        properties: dict[str, Any] = tool.parameters.get("properties", {})
        required = set(tool.parameters.get("required", []))
        for key, schema in properties.items():
            text.append(f" {key}={kind_of(schema)}", style="bold" if key in required else "dim")
        text.append("\n")
    return text
