"""A new run's settings: flags and ``--config run.toml`` merged into one checked ``RunConfig``.

Every ``tau-sim`` call builds the parser, so this module is loaded by each; the run's checks
(``run.checks``: they load the judge and the providers' registry) are imported where used, to
keep the start-up of the other commands lean.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from tau_sim.simulator.cli.options import csv, workers_arg
from tau_sim.simulator.cli.run_file import RunFile, load_config, merge, model_options
from tau_sim.simulator.cli.run_options import run_parser
from tau_sim.simulator.core.conditions import (
    DEFAULT_LEVEL,
    DIMENSIONS,
    NEUTRAL,
    TASK_EMOTION,
    parse_intensity,
    parse_levels,
)
from tau_sim.simulator.core.endings import Limits
from tau_sim.simulator.core.errors import OptionError, UsageError
from tau_sim.simulator.core.options import SECRET_KEYS, parse_key_values
from tau_sim.simulator.core.registry import DOMAINS, EMOTIONS
from tau_sim.simulator.engine.judging import check_judge_name
from tau_sim.simulator.grid.config import RunConfig
from tau_sim.simulator.grid.workers import auto_workers, resolve_workers
from tau_sim.simulator.store.opening import DEFAULT_DB
from tau_sim.simulator.world.pool import run_domains, select_tasks, task_pool
from tau_sim.simulator.world.splits import (
    ALL_TIERS,
    check_tier,
    check_users,
    split_pool,
    tier_pool,
)

OUTPUT_DEFAULTS: dict[str, Any] = {
    "db": DEFAULT_DB,
    "quiet": False,
    "json": False,
    "count_errors": False,
    "keep_errors": False,
}
"""Defaults of the run command's options that are not part of a run (``RunConfig``'s are)."""
NOT_SETTINGS = (
    "command",
    "config",
    "resume",
    "keep_errors",
    "agent_arg",
    "user_arg",
    "judge_arg",
    "help",
    "dry_run",
)
"""Parsed options of ``run`` that are not settings of a run (nor keys of a ``[run]`` table)."""


LIST_SETTINGS = frozenset(
    {"domain", "tasks", "agent", "user", "emotions", "intensities", *DIMENSIONS}
)
"""Settings that are comma-separated lists: in ``[run]``, a TOML list or one such string."""


def run_table(run: argparse.ArgumentParser, run_file: RunFile, path: str) -> dict[str, Any]:
    """The run file's ``[run]`` table, each value checked against its flag's type.

    TOML values keep their types: an integer setting takes an integer (not 2.9, 2.0 or
    ``true``), a number one an integer or a float (not a bool), a switch ``true`` or ``false``,
    a list setting a non-empty list or comma-separated string, any other a non-empty string.
    A wrong one is a ``UsageError`` naming the file and the key (``file_value``).
    """
    actions = {a.dest: a for a in run._actions}
    settings: dict[str, Any] = {}
    for key, value in run_file.run.items():
        dest = key.replace("-", "_")
        action = actions.get(dest)
        if action is None or dest in NOT_SETTINGS:
            raise UsageError(f"--config {path}: [run] has unknown setting {key!r}")
        settings[dest] = file_value(action, value, f"--config {path}: [run] {key}")
    return settings


def file_value(action: argparse.Action, value: Any, where: str) -> Any:
    """A ``[run]`` value as its flag ``action`` would give it, or a ``UsageError`` at ``where``.

    Nothing is coerced: ``trials = 2.9`` is refused, not played as 2 trials. A list becomes
    the comma-separated string its flag takes.
    """

    def refused(expected: str) -> UsageError:
        return UsageError(f"{where}: expected {expected}, got {_toml(value)}")

    if action.nargs == 0:  # a switch such as --quiet
        if not isinstance(value, bool):
            raise refused("true or false")
        return value
    if action.type is int:
        if not _is_int(value):
            raise refused("an integer")
        return value
    if action.type is float:
        if not (_is_int(value) or isinstance(value, float)):
            raise refused("a number")
        return float(value) if abs(value) < 1e308 else (math.inf if value > 0 else -math.inf)
    if action.type is workers_arg:
        if _is_int(value):
            return value
        if isinstance(value, str) and value.strip().lower() == "auto":
            return "auto"
        raise refused('an integer or "auto"')
    if action.dest in LIST_SETTINGS:
        return _file_list(action.dest, value, refused)
    if not isinstance(value, str) or not value.strip():
        raise refused("a non-empty string")
    return value


def _file_list(dest: str, value: Any, refused: Callable[[str], UsageError]) -> str:
    """A list setting of ``[run]`` as one comma-separated string; empty or mistyped: refused.

    ``tasks`` also takes a count (``tasks = 5``), ``intensities`` numbers as well as names.
    """
    if dest == "tasks" and _is_int(value):
        return str(value)
    numbers = dest == "intensities"
    expected = {
        "tasks": "a task count or a non-empty list of task ids",
        "intensities": "a non-empty list of levels or numbers",
    }.get(dest, "a non-empty list of names")
    items = [value] if isinstance(value, str) else value if isinstance(value, list) else None
    if items is None or not all(
        isinstance(v, str) or (numbers and (_is_int(v) or isinstance(v, float))) for v in items
    ):
        raise refused(expected)
    text = ",".join(str(v) for v in items)
    if not csv(text):
        raise refused(expected)
    return text


def _toml(value: Any) -> str:
    """``value`` as TOML writes it (``true``, ``inf``, ``"2"``, ``[0.5, "high"]``), for errors."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return str(value)  # int, float, dates and times


def _is_int(value: Any) -> bool:
    """An integer, not a bool (TOML's ``true`` is not 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def listed(flag: str, text: str) -> list[str]:
    """The entries of a comma-separated ``flag`` value; none (``""``, ``","``) is a ``UsageError``.

    An empty list would leave a grid of no conversations (or a dimension silently dropped).
    """
    names = csv(text)
    if not names:
        raise UsageError(f"{flag}: {text!r} lists nothing; give at least one entry")
    return names


def configure_run(
    args: argparse.Namespace, parser: argparse.ArgumentParser | None = None
) -> tuple[dict[str, Any], RunConfig]:
    """The one configuration path of a new run: (output settings, ``RunConfig``).

    Layers, the most specific winning (``merge``): ``RunConfig``'s defaults, the run file's
    ``[run]`` table, the flags given; per model: ``[agent]``/``[user]``, ``[models."NAME"]``,
    ``--agent-arg``/``--user-arg``. ``parser`` has the run options (it types ``[run]``; default
    ``run_parser()``).
    """
    from tau_sim.simulator.run.checks import check_numbers

    run_file = load_config(args.config) if "config" in args else None
    given = {k: v for k, v in vars(args).items() if k not in NOT_SETTINGS}
    file_settings = run_table(parser or run_parser(), run_file, args.config) if run_file else {}
    settings = merge(OUTPUT_DEFAULTS, file_settings, given)
    try:
        config = config_from_settings(
            settings,
            run_file,
            parse_key_values(getattr(args, "agent_arg", []), "--agent-arg"),
            parse_key_values(getattr(args, "user_arg", []), "--user-arg"),
            parse_key_values(getattr(args, "judge_arg", []), "--judge-arg"),
        )
        check_numbers(config)
    except UsageError as exc:
        if isinstance(exc, OptionError) or run_file is None:
            raise
        raise _from_run_file(exc, args.config, run_file.run, given) from None
    return settings, config


_FLAG_AT_START = re.compile(r"^(--[a-z][a-z-]*)(:? )")


def _from_run_file(
    exc: UsageError, path: str, table: dict[str, Any], given: dict[str, Any]
) -> UsageError:
    """``exc`` naming the run file and its ``[run]`` key where that key set the value.

    Where a ``[run]`` key and no flag gave the value an error is about, ``--seed must be ...``
    becomes ``--config run.toml: [run] seed = -1: must be ...``; any other error is as it is.
    """
    found = _FLAG_AT_START.match(str(exc))
    if found is None:
        return exc
    dest = found.group(1)[2:].replace("-", "_")
    key = next((k for k in table if k.replace("-", "_") == dest), None)
    if key is None or dest in given:
        return exc
    rest = str(exc)[found.end() :]
    value = _toml(table[key])
    shown = value if len(value) <= 40 else f"{value[:20]}…({len(value)} characters)"
    return UsageError(f"--config {path}: [run] {key} = {shown}: {rest}")


ARG_FLAGS = {"--agent-arg": ("agent_arg", "agent"), "--user-arg": ("user_arg", "user")}
"""Per-model option flags: (their ``args`` name, their role's run-file table); the judge's
options come only from ``[models."NAME"]`` and ``--judge-arg``."""


def file_option_error(exc: OptionError, args: argparse.Namespace) -> UsageError:
    """``exc`` naming the run file, the table and the key when a ``--config`` table set the key.

    A model's option is set by ``[agent]``/``[user]``, then ``[models."NAME"]``, then the flag
    (``model_options``); an error about a key the flag did not give names the most specific
    table that did: ``--config run.toml: [agent] latency = "fast": Expected `float`, got
    `str``` or ``--config run.toml: [models."scripted/gold"] has unknown option 'latncy'
    (known: ...)``. Any other error is returned as it is.
    """
    if "config" not in args or exc.key is None or exc.flag is None or exc.model is None:
        return exc
    dest, role = ARG_FLAGS.get(exc.flag, ("judge_arg", None))
    if exc.key in parse_key_values(getattr(args, dest, []), exc.flag):
        return exc
    run_file = load_config(args.config)
    tables = [(f'[models."{exc.model}"]', run_file.models.get(exc.model) or {})]
    if role is not None:
        tables.append((f"[{role}]", getattr(run_file, role)))
    for label, table in tables:
        if exc.key in table:
            where = f"--config {args.config}: {label}"
            if exc.reason.startswith("unknown option"):
                return UsageError(f"{where} has {exc.reason}")
            value = "***" if exc.key in SECRET_KEYS else _toml(table[exc.key])
            return UsageError(f"{where} {exc.key} = {value}: {exc.reason}")
    return exc


def config_from_settings(
    settings: dict[str, Any],
    run_file: RunFile | None,
    agent_args: dict[str, Any],
    user_args: dict[str, Any],
    judge_args: dict[str, Any] | None = None,
) -> RunConfig:
    """The ``RunConfig`` of merged run settings: what is not set keeps ``RunConfig``'s default.

    Each agent's and user's options are merged here, once (``model_options``).
    """
    from tau_sim.simulator.run.checks import normalize_emotions

    defaults = RunConfig()
    fields: dict[str, Any] = {
        key: settings[key]
        for key in ("trials", "seed", "concurrency", "workers", "max_error_share")
        if key in settings
    }
    if "workers" in fields:
        fields["workers"] = resolve_workers(fields["workers"])
    fields |= _ray_fields(settings)
    if "domain" in settings:
        names = csv(settings["domain"])
        fields["domains"] = _all_domains(DOMAINS.names()) if names == ["all"] else names
    domains = run_domains(fields.get("domains", defaults.domains))
    tasks_file = settings.get("tasks_file")
    if tasks_file and Path(tasks_file).is_dir():
        raise UsageError(f"--tasks-file {tasks_file} is a directory; give a JSONL file")
    if tasks_file and Path(tasks_file).exists() and not Path(tasks_file).is_file():
        raise UsageError(
            f"--tasks-file {tasks_file}: not a regular file (a pipe or a device reads once; the "
            "run reads its task file again, and so does --resume): save the tasks to a file"
        )
    pool = task_pool(list(domains.values()), tasks_file, replay=())  # the run replays its own
    if tasks_file and not pool:
        raise UsageError(f"--tasks-file: {tasks_file} holds no tasks")
    tiers_of = {t.id: t.tier for t in pool}
    if settings.get("task_split"):
        pool = split_pool(pool, domains, fields.setdefault("task_split", settings["task_split"]))
    names = list(domains)
    where = tasks_file or (f"domain {names[0]!r}" if len(names) == 1 else "the domains")
    if "tier" in settings:
        fields["tier"] = tier = check_tier(settings["tier"])
        pool = tier_pool(pool, tier, where)
        if tier != ALL_TIERS:
            where = f"the {tier} tasks of {where}"
    if settings.get("tasks") is not None and not str(settings["tasks"]).strip().isdigit():
        unique("--tasks", ids := listed("--tasks", settings["tasks"]), ids)
        kept = {t.id for t in pool}
        for task_id in ids:
            if task_id not in kept and task_id in tiers_of:
                raise UsageError(
                    f"--tasks: {task_id!r} is a {tiers_of[task_id]} task; --tier "
                    f"{fields['tier']} plays only the {fields['tier']} tasks"
                )
    fields["tasks"] = select_tasks(pool, settings.get("tasks"), where)
    if tasks_file:
        fields["tasks_file"] = str(Path(tasks_file).resolve())
    if "agent" in settings:
        fields["agents"] = unique("--agent", names := listed("--agent", settings["agent"]), names)
    if "user" in settings:
        fields["users"] = unique("--user", names := listed("--user", settings["user"]), names)
    if "emotions" in settings:
        names = listed("--emotions", settings["emotions"])
        fields["emotions"] = unique("--emotions", names, normalize_emotions(names, dedupe=False))
    if "intensities" in settings:
        names = listed("--intensities", settings["intensities"])
        fields["intensities"] = unique("--intensities", names, [parse_intensity(x) for x in names])
        _check_task_intensities(fields.get("emotions", defaults.emotions))
        _warn_neutral_intensities(fields.get("emotions", defaults.emotions))
    for dimension in DIMENSIONS:
        if dimension in settings:
            names = [n.lower() for n in csv(settings[dimension])]
            unique(f"--{dimension}", names, names)
            fields[dimension] = parse_levels(dimension, settings[dimension])
            _check_neutral_levels(dimension, fields.get("emotions", defaults.emotions), fields)
    limits = {
        field: settings[dest]
        for dest, field in (
            ("max_steps", "max_steps"),
            ("max_tool_errors", "max_tool_errors"),
            ("timeout", "timeout_s"),
        )
        if dest in settings
    }
    if limits:
        fields["limits"] = Limits(**limits)
    fields["agent_options"] = {
        name: model_options(run_file, "agent", name, agent_args)
        for name in fields.get("agents", defaults.agents)
    }
    fields["user_options"] = {
        name: model_options(run_file, "user", name, user_args)
        for name in fields.get("users", defaults.users)
    }
    check_users(domains, fields.get("users", defaults.users), fields["user_options"])
    fields.update(_judge_fields(settings, run_file, judge_args or {}))
    return RunConfig(**fields)


def _check_task_intensities(emotions: list[str]) -> None:
    """Refuse ``--intensities`` where no emotion plays one: ``task`` (each task's own), neutral."""
    if TASK_EMOTION in emotions and all(e in (NEUTRAL, TASK_EMOTION) for e in emotions):
        raise UsageError(
            f"--intensities: --emotions {','.join(emotions)} plays each task's own intensity "
            "(neutral plays none), so --intensities would be ignored; drop it, or set the "
            "intensities in the task file (`tracer construct --emotions 'anger;intensity=high'`)"
        )


def _check_neutral_levels(dimension: str, emotions: list[str], fields: dict[str, Any]) -> None:
    """Refuse ``default`` beside neutral's own level of ``dimension`` when the run plays neutral.

    Neutral's levels never move with intensity, so under neutral the two entries are one
    condition: its cells would be played twice under two names.
    """
    levels = fields[dimension]
    if NEUTRAL not in emotions or None not in levels:
        return
    own = neutral_level(dimension)
    if own in levels:
        raise UsageError(
            f"--{dimension}: under --emotions {NEUTRAL}, {DEFAULT_LEVEL!r} is neutral's own "
            f"{dimension} {own!r}, so {DEFAULT_LEVEL} and {own} are one condition played twice; "
            f"give one of them (or play neutral in a run of its own)"
        )


def neutral_level(dimension: str) -> str | None:
    """Neutral's own level of ``dimension`` in the emotion taxonomy (None if it has none)."""
    for taxonomy in EMOTIONS.values():
        leaves = taxonomy.catalog().get(NEUTRAL, {}).get("leaves", {})
        if NEUTRAL in leaves:
            level: str | None = leaves[NEUTRAL].get(dimension)
            return level
    return None


def _warn_neutral_intensities(emotions: list[str]) -> None:
    """Warn (one line on stderr; the run goes on) where ``--intensities`` meets only neutral."""
    if all(e == NEUTRAL for e in emotions):
        print(
            "tau-sim: warning: --intensities changes nothing with --emotions neutral (neutral "
            "has no intensity); give an emotion to play the intensities",
            file=sys.stderr,
        )


def _ray_fields(settings: dict[str, Any]) -> dict[str, Any]:
    """``--ray [ADDRESS]``: the cluster, and one actor per core unless ``--workers`` is given."""
    if settings.get("ray") is None or ray_address(settings["ray"]) is None:
        return {}
    fields: dict[str, Any] = {"ray": ray_address(settings["ray"])}
    if "workers" not in settings:
        fields["workers"] = auto_workers()
    return fields


def ray_address(value: Any) -> str | None:
    """``--ray``'s value as stored: ``local``, an address, or None for ``none`` (not on Ray)."""
    text = str(value).strip()
    return None if text.lower() == "none" else text or "local"


def _judge_fields(
    settings: dict[str, Any], run_file: RunFile | None, judge_args: dict[str, Any]
) -> dict[str, Any]:
    """``judge`` and ``judge_options`` of a run: ``[models."NAME"]``, then ``--judge-arg``."""
    judge = settings.get("judge")
    if judge is None:
        if judge_args:
            raise UsageError("--judge-arg: options for a judge, but no --judge is given")
        return {}
    check_judge_name(judge)
    table = run_file.models.get(judge) if run_file is not None else None
    return {"judge": judge, "judge_options": merge(table, judge_args)}


def _all_domains(names: list[str]) -> list[str]:
    """What ``--domain all`` stands for: the built-in domains (an imported ``x/y`` one is named)."""
    return [name for name in names if "/" not in name]


_V = TypeVar("_V")


def unique(flag: str, given: list[str], values: list[_V]) -> list[_V]:
    """``values`` (what each of ``given`` stands for) if no two are the same; else ``UsageError``.

    A duplicate would play identical cells twice at the same seed and inflate n, so it is
    rejected rather than merged.
    """
    first: dict[Any, str] = {}
    for text, value in zip(given, values, strict=True):
        if value in first:
            same = (
                f"{text!r} is given twice"
                if first[value] == text
                else f"{first[value]!r} and {text!r} are the same entry ({value!r})"
            )
            raise UsageError(f"{flag}: {same}; give each entry once")
        first[value] = text
    return values
