"""Python functions made from tool schemas: a signature, type hints and a Google-style docstring.

Trainers that take tools as Python callables (TRL's ``environment_factory``, chat templates'
``tools=[...]``) read a tool's name, arguments and descriptions from the function itself:
``inspect.signature``, ``typing.get_type_hints`` and the docstring's ``Args:`` block. Here each
function is a closure set up with ``__signature__``, ``__annotations__`` and ``__doc__`` made from
a ``ToolSpec``'s JSON schema (no source text is generated or evaluated). The function takes
keyword arguments only and hands them, unchecked, to ``call``: the domain's toolkit validates
them as it does a model's.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Callable
from typing import Any

from tau_sim.simulator.core.chat import ToolSpec

ToolCall = Callable[[Any, str, dict[str, Any]], str]
"""What a tool method calls: (the environment, the tool's name, the arguments) -> the result."""

_SCALARS: dict[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool}
_SECTION = re.compile(r"\b(Args|Returns|Raises):")


def python_type(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """The type hint of a JSON schema (an enum: its values' type; an object: ``dict``)."""
    schema = resolve(schema, defs)
    if "enum" in schema:
        kinds = {type(value) for value in schema["enum"]}
        return kinds.pop() if len(kinds) == 1 else Any
    kind = schema.get("type")
    if kind in _SCALARS:
        return _SCALARS[kind]
    if kind == "array":
        items = schema.get("items")
        item = python_type(items, defs) if isinstance(items, dict) else Any
        return list[item]  # type: ignore[valid-type]
    if kind == "object":
        return dict[str, Any]
    return Any


def resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with a local ``$ref`` (``#/$defs/<name>``) replaced by its definition."""
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        found = defs.get(ref.removeprefix("#/$defs/"))
        if isinstance(found, dict):
            return {**found, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def one_line(text: str) -> str:
    """``text`` on one line, with no word a docstring parser takes for a section header."""
    return _SECTION.sub(r"\1 -", " ".join(text.split()))


def argument_text(name: str, schema: dict[str, Any], defs: dict[str, Any]) -> str:
    """An argument's line in the ``Args:`` block: its description and what the type hint loses.

    A scalar enum ends with ``(choices: [...])``, the form chat-template schema builders turn
    into an ``enum``; an enum of list items, and the fields of an object, are spelt out.
    """
    schema = resolve(schema, defs)
    text = one_line(str(schema.get("description") or f"The {name.replace('_', ' ')}."))
    if "enum" in schema:
        return f"{text} (choices: {json.dumps(schema['enum'])})"
    items = schema.get("items")
    if isinstance(items, dict):
        items = resolve(items, defs)
        if "enum" in items:
            text += f" Each one of {json.dumps(items['enum'])}."
        elif items.get("type") == "object":
            text += f" Each item an object: {json.dumps(object_shape(items, defs))}."
    if schema.get("type") == "object" and "properties" in schema:
        text += f" An object: {json.dumps(object_shape(schema, defs))}."
    return text


def object_shape(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """An object schema's fields (references resolved), as the model reads them."""
    fields = {
        name: {k: v for k, v in resolve(field, defs).items() if k != "title"}
        for name, field in schema.get("properties", {}).items()
    }
    return {"properties": fields, "required": schema.get("required", [])}


def docstring(spec: ToolSpec) -> str:
    """The tool's description and one ``Args:`` line per argument (Google style)."""
    params = spec.parameters
    defs = params.get("$defs", {})
    lines = [one_line(spec.description) or f"The {spec.name} tool."]
    properties: dict[str, Any] = params.get("properties", {})
    if properties:
        lines += ["", "Args:"]
        lines += [f"    {name}: {argument_text(name, s, defs)}" for name, s in properties.items()]
    lines += ["", "Returns:", "    The tool's result, or an error message naming what is wrong."]
    return "\n".join(lines)


def tool_signature(spec: ToolSpec) -> tuple[inspect.Signature, dict[str, Any]]:
    """The method's signature (``self``, then each argument keyword-only) and its annotations.

    An argument the schema does not require defaults to None (its hint allows None).
    """
    params = spec.parameters
    defs = params.get("$defs", {})
    required = set(params.get("required", []))
    parameters = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    for name, schema in params.get("properties", {}).items():
        hint = python_type(schema, defs)
        if name in required:
            default: Any = inspect.Parameter.empty
        else:
            hint, default = hint | None, None
        annotations[name] = hint
        parameters.append(
            inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, annotation=hint, default=default
            )
        )
    annotations["return"] = str
    return inspect.Signature(parameters, return_annotation=str), annotations


def tool_method(spec: ToolSpec, call: ToolCall) -> Callable[..., str]:
    """A function to bind as a method: ``method(self, **arguments)`` is ``call(self, name, args)``.

    Arguments left out (None) are not passed on, so the toolkit applies its own defaults.
    """
    name = spec.name

    def method(self: Any, /, **arguments: Any) -> str:
        given = {key: value for key, value in arguments.items() if value is not None}
        return call(self, name, given)

    signature, annotations = tool_signature(spec)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = docstring(spec)
    method.__annotations__ = annotations
    setattr(method, "__signature__", signature)  # noqa: B010 - not a declared attribute
    return method
