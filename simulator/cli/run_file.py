"""The run file (``--config run.toml``) and the one merge of its tables with the flags.

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
(``model_options``). Each provider then checks its options (``core.options.convert_options``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from tau_sim.simulator.core.errors import UsageError

ROLES = ("agent", "user")
"""The roles a run file's tables and ``model_options`` name."""


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
    except UnicodeDecodeError as exc:
        raise UsageError(f"--config {path}: not UTF-8 text (byte {exc.start})") from None
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
