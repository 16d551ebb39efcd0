"""Plain sentences for a tool call's bad arguments: what is wrong and how to fix it.

The text is what the calling model reads in its tool result (the agent's, or the LLM user's own
user-side tools), so it names the argument and the expected shape in words a model acts on,
never msgspec's internals (``Object contains unknown field `__raw__```). Every shape has one
sentence, built here and nowhere else:

- not an object (``not_an_object``): text that is not JSON, or JSON that is not an object
  (an array, a string, a number), which the model providers keep under ``RAW``:
  "arguments of `get_order_details` must be a JSON object (the tool takes: order_id); got a
  JSON array: [1, 2]";
- a field (``invalid_arguments``, from msgspec's ``ValidationError`` and its ``$.field``
  path): "`order_id` is required", "unknown argument `ordr_id` (the tool takes: order_id)",
  "`quantity` must be an integer, got "two"", "`reason` must be one of "a", "b"; got "c"".
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from tau_sim.simulator.core.toolargs import RAW

RAW_CUT = 200  # characters of a model's text quoted back to it
VALUE_CUT = 80  # characters of one argument's value quoted back

_TYPES = {
    "str": "a string",
    "int": "an integer",
    "float": "a number",
    "bool": "true or false",
    "array": "a JSON array",
    "object": "a JSON object",
    "null": "null",
}
_AT = re.compile(r"^(?P<message>.*?) - at `\$(?P<path>[^`]*)`$", re.DOTALL)
_MISSING = re.compile(r"^Object missing required field `(?P<field>[^`]+)`$")
_UNKNOWN = re.compile(r"^Object contains unknown field `(?P<field>[^`]+)`$")
_EXPECTED = re.compile(r"^Expected `(?P<type>[^`]+)`(?P<rest>.*?)(?:, got `(?P<got>[^`]+)`)?$")
_ENUM = re.compile(r"^Invalid enum value (?P<value>.*)$")
_STEP = re.compile(r"\.(\w+)|\[(\d+)\]|\[\.\.\.\]")
_MISSING_VALUE = object()


def raw_text(arguments: Any) -> str | None:
    """The model's text when ``arguments`` are not an object (kept under ``RAW``), else None."""
    if isinstance(arguments, dict):
        if len(arguments) == 1 and isinstance(arguments.get(RAW), str):
            return str(arguments[RAW])
        return None
    return msgspec.json.encode(arguments).decode() if _encodable(arguments) else repr(arguments)


def not_an_object(name: str, parameters: dict[str, Any], text: str) -> str:
    """The sentence for arguments that are not a JSON object, quoting (a cut of) ``text``."""
    try:
        value = msgspec.json.decode(text.strip())
    except msgspec.DecodeError as exc:
        got = f"text that is not valid JSON ({_decode_reason(str(exc))})"
    else:
        got = f"a JSON {_json_kind(value)}"
    return (
        f"arguments of `{name}` must be a JSON object ({takes(parameters)}); "
        f"got {got}: {_cut(text, RAW_CUT)}"
    )


def _decode_reason(error: str) -> str:
    """The decode error of msgspec in words: "it ends before ...", "invalid character (byte 0)"."""
    if error == "Input data was truncated":
        return "it ends before the JSON is complete"
    return error.removeprefix("JSON is malformed: ")


def invalid_arguments(
    name: str, parameters: dict[str, Any], arguments: dict[str, Any], error: Exception
) -> str:
    """The sentence for an object whose fields msgspec rejected (``error``'s text and path)."""
    return f"invalid arguments for `{name}`: {_field_sentence(parameters, arguments, str(error))}"


def takes(parameters: dict[str, Any]) -> str:
    """What a tool takes, from its JSON schema: "the tool takes: a, b; optional: c"."""
    names = list(parameters.get("properties", {}))
    if not names:
        return "the tool takes no arguments"
    required = set(parameters.get("required", []))
    needed = [n for n in names if n in required]
    optional = [n for n in names if n not in required]
    text = "the tool takes: " + (", ".join(needed) if needed else "nothing required")
    return text + (f"; optional: {', '.join(optional)}" if optional else "")


def _field_sentence(parameters: dict[str, Any], arguments: dict[str, Any], error: str) -> str:
    """One plain sentence for msgspec's ``error`` text, e.g. "`quantity` must be an integer"."""
    found = _AT.match(error)
    message, path = (found["message"], found["path"]) if found else (error, "")
    steps = _steps(path)
    where = _dotted(steps)
    if missing := _MISSING.match(message):
        field = _join(where, missing["field"])
        return f"`{field}` is required" + ("" if where else f" ({takes(parameters)})")
    if unknown := _UNKNOWN.match(message):
        if where:
            return f"`{where}` has no field `{unknown['field']}`"
        return f"unknown argument `{unknown['field']}` ({takes(parameters)})"
    value = _value_at(arguments, steps)
    shown = _show(value) if value is not _MISSING_VALUE else None
    subject = f"`{where}`" if where else "the arguments"
    if expected := _EXPECTED.match(message):
        kinds = " or ".join(_TYPES.get(t, f"`{t}`") for t in expected["type"].split(" | "))
        got = shown or (_TYPES.get(expected["got"], expected["got"]) if expected["got"] else None)
        return f"{subject} must be {kinds}{expected['rest']}" + (f", got {got}" if got else "")
    if _ENUM.match(message):
        allowed = _enum_at(parameters, steps)
        got = f"; got {shown}" if shown else ""
        if allowed:
            return f"{subject} must be one of {', '.join(_show(v) for v in allowed)}{got}"
        return f"{subject} has a value the tool does not know{got}"
    return f"{subject}: {message}"


def _steps(path: str) -> list[str | int | None]:
    """A msgspec path (``.items[0].id``) as steps: a field name, an index, None for a map key."""
    out: list[str | int | None] = []
    for step in _STEP.finditer(path):
        out.append(step[1] if step[1] else int(step[2]) if step[2] else None)
    return out


def _dotted(steps: list[str | int | None]) -> str:
    """The steps as the model wrote them: ``items[0].id`` (``[...]`` for a map key)."""
    text = ""
    for step in steps:
        if isinstance(step, str):
            text += f".{step}" if text else step
        else:
            text += f"[{step}]" if step is not None else "[...]"
    return text


def _join(where: str, field: str) -> str:
    return f"{where}.{field}" if where else field


def _value_at(arguments: Any, steps: list[str | int | None]) -> Any:
    """The value the model gave at ``steps``, or ``_MISSING_VALUE`` where it cannot be found."""
    value = arguments
    for step in steps:
        in_object = isinstance(step, str) and isinstance(value, dict) and step in value
        in_array = isinstance(step, int) and isinstance(value, list) and 0 <= step < len(value)
        if not (in_object or in_array):
            return _MISSING_VALUE
        value = value[step]
    return value


def _enum_at(parameters: dict[str, Any], steps: list[str | int | None]) -> list[Any]:
    """The allowed values the tool's JSON schema lists at ``steps`` (empty when none is found)."""
    node: Any = parameters
    for step in steps:
        node = _resolve(parameters, node, "properties" if isinstance(step, str) else "items")
        if isinstance(step, str):
            node = node.get("properties", {}).get(step) if isinstance(node, dict) else None
        else:
            node = node.get("items") if isinstance(node, dict) else None
    node = _resolve(parameters, node, "enum")
    values = node.get("enum") if isinstance(node, dict) else None
    return list(values) if isinstance(values, list) else []


def _resolve(parameters: dict[str, Any], node: Any, wanted: str) -> Any:
    """``node`` with its ``$ref`` followed and, for a union, the option that has ``wanted``."""
    for _ in range(8):  # a bounded walk: schemas refer to themselves only through $defs
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            node = parameters.get("$defs", {}).get(ref.removeprefix("#/$defs/"))
            continue
        options = node.get("anyOf") or node.get("oneOf")
        if wanted not in node and isinstance(options, list):
            resolved = [_resolve(parameters, o, wanted) for o in options]
            node = next((o for o in resolved if isinstance(o, dict) and wanted in o), node)
        return node
    return node


def _json_kind(value: Any) -> str:
    """What JSON value ``value`` is, in words: array, string, number, true, false, null."""
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if value is None:
        return "null"
    return "number"


def _show(value: Any) -> str:
    """``value`` as JSON, cut to ``VALUE_CUT`` characters."""
    text = msgspec.json.encode(value).decode() if _encodable(value) else repr(value)
    return _cut(text, VALUE_CUT)


def _encodable(value: Any) -> bool:
    try:
        msgspec.json.encode(value)
    except (TypeError, ValueError, OverflowError):
        return False
    return True


def _cut(text: str, limit: int) -> str:
    """``text`` up to ``limit`` characters, with "…" where it was cut."""
    return text if len(text) <= limit else text[:limit] + "…"
