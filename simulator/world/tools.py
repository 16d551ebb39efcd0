"""Domain tools: a decorator that declares them, derives their schema and validates arguments.

A tool is a plain function whose first parameter is the conversation's database; the other
parameters are what the model passes. The JSON schema the model sees comes from the signature
(through msgspec) and the Google-style docstring. Arguments are converted and validated by
msgspec before the function runs; any exception becomes an error result, never a crash. Bad
arguments get a plain sentence naming what is wrong (``simulator.world.toolerrors``).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any, get_type_hints

import msgspec

from tau_sim.simulator.core.chat import ToolSpec
from tau_sim.simulator.core.endings import TerminationReason
from tau_sim.simulator.world.toolerrors import invalid_arguments, not_an_object, raw_text


class ToolKind(StrEnum):
    """Whether a tool only reads the database or may change it."""

    READ = "read"
    WRITE = "write"


class ToolError(Exception):
    """Raised by a tool to tell the agent why its call was refused."""


class ToolOutcome(msgspec.Struct, frozen=True):
    """The text the agent sees and whether the call failed."""

    content: str
    error: bool = False


_ARG_LINE = re.compile(r"^\s{2,}(\w+)(?:\s*\([^)]*\))?:\s*(.*)$")
_encoder = msgspec.json.Encoder()


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into its description and per-argument texts."""
    lines = inspect.cleandoc(doc).splitlines()
    description: list[str] = []
    args: dict[str, str] = {}
    section = "description"
    current: str | None = None
    for line in lines:
        stripped = line.strip()
        if stripped in ("Args:", "Arguments:"):
            section = "args"
            continue
        if stripped in ("Returns:", "Raises:", "Example:", "Examples:"):
            section = "other"
            continue
        if section == "description":
            description.append(stripped)
        elif section == "args":
            match = _ARG_LINE.match("  " + line if not line.startswith("  ") else line)
            if match and line.startswith("    ") and not line.startswith("        "):
                current = match.group(1)
                args[current] = match.group(2).strip()
            elif current and stripped:
                args[current] = f"{args[current]} {stripped}"
    return " ".join(part for part in description if part).strip(), args


class Tool:
    """One declared tool: its function, kind, the ending it causes, argument type and schema.

    ``ends`` is the termination reason a successful call causes (a transfer to a human ends the
    conversation with ``TerminationReason.TRANSFER``); None for every other tool. ``composed``
    names the parameters the agent fills in its own words (a summary for a human agent): they
    state no fact, so ``told.untold`` does not look for them earlier in the dialogue.
    """

    composed: frozenset[str] = frozenset()

    def __init__(
        self,
        fn: Callable[..., Any],
        kind: ToolKind,
        name: str | None = None,
        ends: TerminationReason | None = None,
        composed: tuple[str, ...] = (),
    ) -> None:
        self.fn = fn
        self.kind = kind
        self.ends = ends
        self.composed = frozenset(composed)
        self.name = name or fn.__name__
        hints = get_type_hints(fn)
        params = list(inspect.signature(fn).parameters.values())[1:]
        fields: list[tuple[str, Any] | tuple[str, Any, Any]] = []
        for param in params:
            annotation = hints.get(param.name, Any)
            if param.default is inspect.Parameter.empty:
                fields.append((param.name, annotation))
            else:
                fields.append((param.name, annotation, param.default))
        self.args_type: type[msgspec.Struct] = msgspec.defstruct(
            f"{self.name}_args", fields, forbid_unknown_fields=True, kw_only=True
        )
        description, arg_docs = _parse_docstring(fn.__doc__ or self.name)
        schema = msgspec.json.schema(self.args_type)
        parameters = dict(schema["$defs"][self.args_type.__name__])
        parameters.pop("title", None)
        properties = {
            key: {**value, **({"description": arg_docs[key]} if key in arg_docs else {})}
            for key, value in parameters.get("properties", {}).items()
        }
        parameters["properties"] = properties
        parameters.setdefault("required", [])
        if "$defs" in schema and len(schema["$defs"]) > 1:
            parameters["$defs"] = {
                k: v for k, v in schema["$defs"].items() if k != self.args_type.__name__
            }
        self.spec = ToolSpec(name=self.name, description=description, parameters=parameters)

    def validate(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Convert and check arguments against the signature.

        ``ToolError`` says, in a plain sentence, which argument is wrong and how
        (``toolerrors.invalid_arguments``).
        """
        try:
            struct = msgspec.convert(arguments, self.args_type)
        except msgspec.ValidationError as exc:
            parameters = self.spec.parameters
            raise ToolError(invalid_arguments(self.name, parameters, arguments, exc)) from None
        return {f: getattr(struct, f) for f in struct.__struct_fields__}

    def __repr__(self) -> str:
        return f"Tool({self.name!r}, {self.kind.value})"


def tool(
    kind: ToolKind = ToolKind.READ,
    name: str | None = None,
    *,
    ends: TerminationReason | None = None,
    composed: tuple[str, ...] = (),
) -> Callable[[Callable[..., Any]], Tool]:
    """Declare a domain tool.

    ``kind`` says whether it may change the database, ``ends`` which termination reason a
    successful call causes (None: the conversation goes on), ``composed`` which parameters the
    agent writes in its own words (see ``Tool``).
    """

    def deco(fn: Callable[..., Any]) -> Tool:
        return Tool(fn, kind, name, ends, composed)

    return deco


def render_result(value: Any) -> str:
    """The text an agent sees for a tool's return value (strings as they are, the rest as JSON).

    Every field of a record is shown, those at their default too: a record stored without its
    defaults (``omit_defaults``) would hide a guest's "blue" tier or a traveller's "regular"
    membership that the tool's description promises.
    """
    if isinstance(value, str):
        return value
    return _encoder.encode(every_field(value)).decode()


def every_field(value: Any) -> Any:
    """``value`` with each Struct inside it as a dict of all its fields, defaults included."""
    if isinstance(value, msgspec.Struct):
        return {f: every_field(getattr(value, f)) for f in value.__struct_fields__}
    if isinstance(value, list | tuple):
        return [every_field(item) for item in value]
    if isinstance(value, dict):
        return {k: every_field(v) for k, v in value.items()}
    return value


class Toolkit:
    """The tools of one domain, with their specs computed once."""

    def __init__(self, tools: Iterable[Tool]) -> None:
        self.tools: dict[str, Tool] = {}
        for t in tools:
            if t.name in self.tools:
                raise ValueError(f"duplicate tool name {t.name!r}")
            self.tools[t.name] = t
        self.specs: list[ToolSpec] = [t.spec for t in self.tools.values()]
        self.endings: dict[str, TerminationReason] = {
            t.name: t.ends for t in self.tools.values() if t.ends is not None
        }
        self.composed: dict[str, frozenset[str]] = {
            t.name: t.composed for t in self.tools.values() if t.composed
        }

    @classmethod
    def from_module(cls, module: Any) -> Toolkit:
        """Collect every ``Tool`` defined at the top level of a module, in definition order."""
        return cls(v for v in vars(module).values() if isinstance(v, Tool))

    def kind(self, name: str) -> ToolKind | None:
        """The kind of tool ``name``, or None when the domain has no such tool."""
        t = self.tools.get(name)
        return t.kind if t else None

    def ends(self, name: str) -> TerminationReason | None:
        """The termination reason a successful call of tool ``name`` causes, or None."""
        return self.endings.get(name)

    def call(self, db: Any, name: str, arguments: dict[str, Any] | Any) -> ToolOutcome:
        """Run tool ``name`` on ``db``; unknown tools, bad arguments and exceptions are errors.

        Arguments that are not an object (not a dict, or the model's text kept under
        ``core.toolargs.RAW``) are refused before the tool sees them, for every tool.
        """
        t = self.tools.get(name)
        if t is None:
            return ToolOutcome(f"Error: unknown tool {name!r}", error=True)
        text = raw_text(arguments)
        if text is not None:
            return ToolOutcome(f"Error: {not_an_object(name, t.spec.parameters, text)}", error=True)
        try:
            kwargs = t.validate(arguments)
            return ToolOutcome(render_result(t.fn(db, **kwargs)))
        except ToolError as exc:
            return ToolOutcome(f"Error: {exc}", error=True)
        except Exception as exc:  # a buggy tool must not crash the run
            return ToolOutcome(f"Error: {type(exc).__name__}: {exc}", error=True)
