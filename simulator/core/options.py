"""Options: ``key=value`` strings typed, and the one typed check of a model's options.

``parse_key_values`` reads ``--agent-arg``, ``--user-arg``, ``--judge-arg`` and a writer's
options; each provider (a model, an agent, a user) checks its options once, into a typed struct
(``convert_options``): an unknown key or a bad value is a one-line ``OptionError``. The run file
(``--config``) and the merge of its tables with the flags are the CLI's (``cli.run_file``).
"""

from __future__ import annotations

import json
import re
import shlex
import types
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

import msgspec

from tau_sim.simulator.core.errors import OptionError, UsageError

_S = TypeVar("_S", bound=msgspec.Struct)
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
SECRET_KEYS = frozenset({"api_key"})
"""Option keys whose values are secrets: never stored, sent to a worker or printed."""

CommaList = Annotated[tuple[str, ...], msgspec.Meta(extra={"split": "comma"})]
"""A list option: a TOML list, or one string split on commas (``gpus=0,1``)."""
ShellWords = Annotated[tuple[str, ...], msgspec.Meta(extra={"split": "shell"})]
"""Command-line words: a TOML list, or one string split like a shell (``extra="--a 'b c'"``)."""


def parse_value(text: str) -> Any:
    """Type a command-line value: bool, int, float, null, JSON list/object/string, else text."""
    value = text.strip()
    lower = value.lower()
    if lower in ("true", "false"):
        return lower == "true"
    if lower in ("null", "none"):
        return None
    if _INT.fullmatch(value):
        return int(value)
    if _FLOAT.fullmatch(value):
        return float(value)
    if value[:1] in ("[", "{", '"'):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value


def parse_key_values(pairs: Iterable[str], flag: str) -> dict[str, Any]:
    """Parse ``key=value`` strings into typed values; ``UsageError`` names the flag."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            shown = "a value without '='" if "key" in pair.lower() else repr(pair)
            raise UsageError(f"{flag}: expected key=value, got {shown}")
        out[key] = parse_value(value)
    return out


def convert_options(args: Mapping[str, Any], cls: type[_S], where: str) -> _S:
    """Check and convert options into ``cls``; an ``OptionError`` names ``where`` and the key.

    ``where`` is a flag (``--agent-arg``: errors read ``--agent-arg key=value: why``) or a
    model name (``openai/m: invalid option key=value: why``). Values may be typed (TOML) or
    strings (command line): ``"0.5"`` becomes a float. Typed values are converted strictly:
    an integer option refuses 2.9 and 2.0, a number or a bool refuses ``true`` and 1, a string
    option takes text only. A ``CommaList`` or ``ShellWords`` field
    takes a list or one string that is split into words. Unknown keys are refused
    (``temprature`` is a typo, not an option to ignore); the value of a secret key is never
    repeated in an error.
    """
    known = sorted(cls.__struct_fields__)
    for key in args:
        if key not in cls.__struct_fields__:
            reason = f"unknown option {key!r} (known: {', '.join(known)})"
            raise OptionError(f"{where}: {reason}", key, reason)
    typed = {k: parse_value(v) if isinstance(v, str) else v for k, v in args.items()}
    for field in msgspec.structs.fields(cls):
        key = field.name
        if key not in args:
            continue
        split = _split_mode(field.type)
        if split is not None:
            try:
                typed[key] = _words(args[key], split)
            except ValueError as exc:  # shlex: an unclosed quote
                raise _invalid(where, key, args[key], str(exc)) from None
        elif field.type in (str, str | None) and isinstance(args[key], str):
            typed[key] = args[key]  # strings stay strings where the field wants text (URLs)
    try:
        return msgspec.convert(typed, cls, strict=True)
    except msgspec.ValidationError as exc:
        reason, _, path = str(exc).partition(" - at `$.")
        key = path.split("`")[0].split(".")[0].split("[")[0]
        if key not in args:
            raise OptionError(f"{where}: invalid option: {exc}") from None
        raise _invalid(where, key, args[key], reason) from None


def _invalid(where: str, key: str, given: Any, reason: str) -> OptionError:
    """The one-line error of a bad value: ``where key=value: reason`` (secrets masked)."""
    value = "***" if key in SECRET_KEYS else repr(given)
    if where.startswith("--"):  # a flag: reads like the command line that set it
        return OptionError(f"{where} {key}={value}: {reason}", key, reason)
    return OptionError(f"{where}: invalid option {key}={value}: {reason}", key, reason)


def _split_mode(hint: Any) -> str | None:
    """``comma`` or ``shell`` for a ``CommaList``/``ShellWords`` field (optional or not)."""
    if get_origin(hint) is Annotated:
        for meta in hint.__metadata__:
            if isinstance(meta, msgspec.Meta) and meta.extra:
                mode = meta.extra.get("split")
                return None if mode is None else str(mode)
        return None
    if get_origin(hint) in (Union, types.UnionType):
        for member in get_args(hint):
            mode = _split_mode(member)
            if mode is not None:
                return mode
    return None


def _words(value: Any, split: str) -> Any:
    """A list option's words: a string split (on commas or shell-like), a list's items as text.

    Numbers become text (``gpus=0`` and TOML ``gpus = [0, 1]`` name GPUs); anything else is
    left for msgspec to refuse.
    """
    if isinstance(value, str):
        if split == "shell":
            return shlex.split(value)
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list | tuple):
        return [_text(v) for v in value]
    return [_text(value)] if _is_number(value) else value


def _text(value: Any) -> Any:
    return str(value) if _is_number(value) else value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
