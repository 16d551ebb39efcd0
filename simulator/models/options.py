"""Options: ``key=value`` strings, a ``--config run.toml`` file, the one merge, typed checks.

A run file holds run settings and options by role and by model::

    [run]                         # run settings (the command line's flags)
    concurrency = 256

    [agent]                       # every agent model
    temperature = 0.0

    [user]                        # every user (here LLM users: scripted ones take no
    temperature = 1.0             # temperature, and an unknown key is an error)

    [models."openai/gpt-4.1"]     # one model, whatever its role
    max_connections = 64

``merge`` is the one rule: the most specific layer wins, the command line over the file.
A run setting is ``RunConfig``'s default, then ``[run]``, then its flag; a model's option is
``[agent]``/``[user]``, then ``[models."NAME"]``, then ``--agent-arg``/``--user-arg``
(``model_options``). Each provider checks its options once, into a typed struct
(``convert_options``): an unknown key or a bad value is a one-line ``OptionError``.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from simulator.errors import OptionError, UsageError

_S = TypeVar("_S", bound=msgspec.Struct)
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
ROLES = ("agent", "user")
SECRET_KEYS = frozenset({"api_key"})
"""Option keys whose values are secrets: never stored, sent to a worker or printed."""


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
    strings (command line): ``"0.5"`` becomes a float. Unknown keys are refused
    (``temprature`` is a typo, not an option to ignore); the value of a secret key is never
    repeated in an error.
    """
    known = sorted(cls.__struct_fields__)
    for key in args:
        if key not in cls.__struct_fields__:
            raise OptionError(f"{where}: unknown option {key!r} (known: {', '.join(known)})")
    typed = {k: parse_value(v) if isinstance(v, str) else v for k, v in args.items()}
    for key in typed:  # strings stay strings where the field wants text (URLs, names)
        if _wants_str(cls, key) and isinstance(args[key], str):
            typed[key] = args[key]
    try:
        return msgspec.convert(typed, cls, strict=False)
    except msgspec.ValidationError as exc:
        reason, _, path = str(exc).partition(" - at `$.")
        key = path.split("`")[0].split(".")[0].split("[")[0]
        if key not in args:
            raise OptionError(f"{where}: invalid option: {exc}") from None
        value = "***" if key in SECRET_KEYS else repr(args[key])
        if where.startswith("--"):  # a flag: reads like the command line that set it
            raise OptionError(f"{where} {key}={value}: {reason}") from None
        raise OptionError(f"{where}: invalid option {key}={value}: {reason}") from None


def _wants_str(cls: type[msgspec.Struct], key: str) -> bool:
    hints = msgspec.structs.fields(cls)
    for field in hints:
        if field.name == key:
            return field.type in (str, str | None)
    return False


class RunFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The contents of a ``--config`` TOML file."""

    agent: dict[str, Any] = {}
    user: dict[str, Any] = {}
    models: dict[str, dict[str, Any]] = {}
    run: dict[str, Any] = {}


def load_config(path: str | Path) -> RunFile:
    """Read a run file; a syntax error or an unknown table is a ``UsageError`` naming the file."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UsageError(f"--config: cannot read {path}: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"--config {path}: invalid TOML: {exc}") from None
    for key, value in data.items():
        if key not in RunFile.__struct_fields__:
            known = ", ".join(RunFile.__struct_fields__)
            raise UsageError(f"--config {path}: unknown table [{key}] (known: {known})")
        if not isinstance(value, dict):
            raise UsageError(f"--config {path}: {key} must be a table, got {type(value).__name__}")
    for name, table in data.get("models", {}).items():
        if not isinstance(table, dict):
            raise UsageError(f'--config {path}: models."{name}" must be a table of options')
        if "/" not in name:
            raise UsageError(f'--config {path}: models."{name}" is not a provider/model name')
    return msgspec.convert(data, RunFile)


def merge(*layers: Mapping[str, Any] | None) -> dict[str, Any]:
    """Merge layers of settings, least specific first: a key set in a later layer wins.

    This is the one precedence rule of every setting (``model_options``, the CLI's run
    settings): defaults, then the run file's broad table, then its specific table, then the
    command line. A layer that is None or leaves a key out changes nothing for that key.
    """
    merged: dict[str, Any] = {}
    for layer in layers:
        if layer:
            merged.update(layer)
    return merged


def model_options(
    config: RunFile | None, role: str, model: str, cli_args: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Options of ``model`` in ``role``: ``[role]``, then ``[models."model"]``, then the CLI.

    The most specific table wins: a key in the model's own table overrides the role's table,
    and ``--agent-arg``/``--user-arg`` override both.
    """
    if role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}, not {role!r}")
    if config is None:
        return merge(cli_args)
    role_table = {k: v for k, v in getattr(config, role).items() if not isinstance(v, dict)}
    return merge(role_table, config.models.get(model), cli_args)
