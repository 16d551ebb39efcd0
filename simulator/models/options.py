"""Per-model options: ``--agent-arg key=value`` strings, a ``--config run.toml`` file, typed checks.

A run file holds options by role and by model; the command line wins over the file::

    [agent]                       # every agent model
    temperature = 0.0

    [user]                        # every LLM user model
    temperature = 1.0

    [models."openai/gpt-4.1"]     # one model, whatever its role
    max_connections = 64

    [run]                         # other run settings, read by the CLI
    concurrency = 256

``args_for(config, "agent", "openai/gpt-4.1", cli_args)`` merges them: model table, then role
table, then the command line.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from simulator.errors import UsageError

_S = TypeVar("_S", bound=msgspec.Struct)
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?")
ROLES = ("agent", "user")


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
            raise UsageError(f"{flag}: expected key=value, got {pair!r}")
        out[key] = parse_value(value)
    return out


def convert_options(args: Mapping[str, Any], cls: type[_S], where: str) -> _S:
    """Check and convert model options into ``cls``; errors name ``where`` and the key.

    Values may be typed (TOML) or strings (command line): ``"0.5"`` becomes a float.
    """
    known = sorted(cls.__struct_fields__)
    for key in args:
        if key not in cls.__struct_fields__:
            raise UsageError(f"{where}: unknown option {key!r} (known: {', '.join(known)})")
    typed = {k: parse_value(v) if isinstance(v, str) else v for k, v in args.items()}
    for key in typed:  # strings stay strings where the field wants text (api keys, URLs)
        if _wants_str(cls, key) and isinstance(args[key], str):
            typed[key] = args[key]
    try:
        return msgspec.convert(typed, cls, strict=False)
    except msgspec.ValidationError as exc:
        raise UsageError(f"{where}: invalid option: {exc}") from None


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


def args_for(
    config: RunFile | None, role: str, model: str, cli_args: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Options of ``model`` in ``role``: the file's model table, its role table, then the CLI."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {ROLES}, not {role!r}")
    merged: dict[str, Any] = {}
    if config is not None:
        merged.update(config.models.get(model, {}))
        merged.update({k: v for k, v in getattr(config, role).items() if not isinstance(v, dict)})
    merged.update(cli_args or {})
    return merged


def float_arg(
    args: Mapping[str, Any],
    key: str,
    default: float,
    *,
    flag: str,
    low: float = 0.0,
    high: float = math.inf,
) -> float:
    """Read ``args[key]`` as a number in ``low..high``; ``UsageError`` names the flag and key."""
    raw = args.get(key)
    if raw is None:
        return default
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise UsageError(f"{flag} {key}={raw!r}: not a number") from None
    if not low <= value <= high:
        bound = f"{low:g}..{high:g}" if math.isfinite(high) else f">= {low:g}"
        raise UsageError(f"{flag} {key}={raw!r}: must be {bound}")
    return value
