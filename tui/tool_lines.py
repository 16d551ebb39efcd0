"""Tool calls typed as command lines (``/name key=value ...``), and the tools listed as such.

``tau-sim human``'s players call tools this way: the agent player the domain's tools, the user
player its phone's (``tui.human``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from rich.text import Text

from tau_sim.simulator.core import ToolCallSpec, ToolSpec


class CallError(ValueError):
    """A tool command line that does not name a tool or whose arguments do not parse."""


def _value(text: str, schema: dict[str, Any]) -> Any:
    kind = schema.get("type")
    if kind in ("integer", "number", "boolean", "array", "object") or "anyOf" in schema:
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            if kind in ("integer", "number", "boolean"):
                raise CallError(f"{text!r} is not a {kind}") from None
    return text


_KEY = re.compile(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=")


def parse_call(line: str, tools: list[ToolSpec], call_id: str) -> ToolCallSpec:
    """The tool call of a command line ``/name key=value ...`` or ``/name {json}``.

    A value runs to the next `` key=`` (so it may hold spaces: ``reason=ordered by mistake``);
    values are read by the tool's schema: numbers, booleans, lists and objects as JSON, the
    rest as text (quote nothing). A required argument left out is a ``CallError`` naming it with
    the tool's usage (one line); the tool validates the values itself when it runs.
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
    keys = list(_KEY.finditer(rest))
    if rest and (not keys or rest[: keys[0].start()].strip()):
        raise CallError(f"{name}: write key=value ... or a JSON object, not {rest!r}")
    arguments = {}
    for key, after in zip(keys, [*keys[1:], None][: len(keys)], strict=True):
        field = key.group(1)
        if field not in properties:
            raise CallError(f"{name}: no argument {field!r} (takes {', '.join(properties)})")
        text = rest[key.end() : after.start() if after else len(rest)].strip()
        arguments[field] = _value(text, properties[field])
    _check_required(tool, arguments)
    return ToolCallSpec(call_id, name, arguments)


def usage(tool: ToolSpec) -> str:
    """A tool's command line as text: ``/name key=type ...``."""
    properties: dict[str, Any] = tool.parameters.get("properties", {})
    return " ".join([f"/{tool.name}", *(f"{k}={_kind(v)}" for k, v in properties.items())])


def _check_required(tool: ToolSpec, arguments: dict[str, Any]) -> None:
    missing = [k for k in tool.parameters.get("required", []) if k not in arguments]
    if missing:
        raise CallError(f"{tool.name}: missing {', '.join(missing)}; usage: {usage(tool)}")


def _kind(schema: dict[str, Any]) -> str:
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
            text.append(f" {key}={_kind(schema)}", style="bold" if key in required else "dim")
        text.append("\n")
    return text
