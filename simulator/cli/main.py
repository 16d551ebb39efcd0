"""The ``tau-sim`` command line: run, report, compare, rescore, runs, domains, models, tracer…"""

from __future__ import annotations

import argparse
import json
import signal
import sqlite3
import sys
from argparse import SUPPRESS
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import anyio
import msgspec

from tau_sim.simulator.core.conditions import DEFAULT_LEVEL, DIMENSIONS
from tau_sim.simulator.core.errors import StoreError, UsageError
from tau_sim.simulator.grid import RunConfig, decode_config
from tau_sim.simulator.store import DEFAULT_DB

if TYPE_CHECKING:
    from tau_sim.simulator.models.options import RunFile
    from tau_sim.simulator.store import Store
    from tau_sim.simulator.world.domain import Domain

EXIT_STORAGE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141
"""A closed stdout (``tau-sim runs | head -1``): quiet, like a shell's SIGPIPE exit (128 + 13)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"tau-sim: error: {message} (see `{self.prog} --help`)\n")


def _csv_of(values: Sequence[object]) -> str:
    return ",".join(f"{v:g}" if isinstance(v, float) else str(v) for v in values)


def _csv(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    return parsers()[0]


def parsers() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The top-level parser and its ``run`` sub-parser."""
    parser = _Parser(prog="tau-sim", description=__doc__)
    parser.add_argument("--version", action="version", version=f"tau-sim {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    # No defaults here: RunConfig (and Limits) hold them (the help only shows them), and an
    # option absent from the parsed namespace was not given (so [run] may set it and --resume
    # can tell).
    _D = RunConfig()
    run = sub.add_parser(
        "run",
        help="run a benchmark grid and store every event",
        argument_default=SUPPRESS,
        epilog="exit codes: 0 done; 2 bad input (nothing stored); 3 more than --max-error-share "
        "of the conversations hit endpoint errors (HTTP errors, timeouts, dropped connections, "
        "malformed bodies: results exclude them, --resume plays them again); 130 interrupted",
    )
    run.add_argument(
        "--domain",
        help="a domain, several comma-separated, or `all` (see `tau-sim domains`; default "
        f"{','.join(_D.domains)})",
    )
    run.add_argument("--tasks", help="N (first N tasks) or comma-separated ids (default: all)")
    run.add_argument(
        "--tasks-file", help="run the tasks of a JSONL file instead (default: the domain's own)"
    )
    run.add_argument(
        "--task-split",
        help="play only the tasks of this split of the domain (τ²-bench's train, test, base)",
    )
    run.add_argument("--agent", help=f"comma-separated model names (default {_csv_of(_D.agents)})")
    run.add_argument("--user", help=f"comma-separated user names (default {_csv_of(_D.users)})")
    run.add_argument(
        "--emotions",
        help="comma-separated leaves, aliases or families, a family standing for its default "
        f"leaf (see `tau-sim emotions`; default {_csv_of(_D.emotions)}); `task` plays each "
        "task's own emotion profile (the `emotion` of a --tasks-file's tasks)",
    )
    run.add_argument(
        "--intensities",
        help=f"low,medium,high or numbers in 0..1 (default {_csv_of(_D.intensities)})",
    )
    for dimension, levels in DIMENSIONS.items():
        run.add_argument(
            f"--{dimension}",
            help=f"comma-separated {dimension} levels: {', '.join(levels)} or "
            f"{DEFAULT_LEVEL} (the emotion's own; the default)",
        )
    run.add_argument(
        "--trials", type=int, help=f"trials per task and condition (default {_D.trials})"
    )
    run.add_argument(
        "--concurrency", type=int, help=f"conversations at once (default {_D.concurrency})"
    )
    run.add_argument(
        "--workers",
        type=_workers_arg,
        help="processes sharing the conversations, one loop each, or auto: one per core "
        f"(default {_D.workers})",
    )
    run.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="play on --workers Ray actors (tau-sim[ray]; default --workers there: this "
        "machine's cores): a local cluster, or the running one at ADDRESS; with --resume, "
        "`none` plays the rest without Ray (see docs/ray.md)",
    )
    run.add_argument("--seed", type=int, help=f"run seed (default {_D.seed})")
    run.add_argument(
        "--max-steps",
        type=int,
        help=f"messages before a conversation ends (default {_D.limits.max_steps})",
    )
    run.add_argument(
        "--max-tool-errors",
        type=int,
        help=f"failed tool calls allowed (default {_D.limits.max_tool_errors})",
    )
    run.add_argument(
        "--timeout", type=float, help=f"seconds per conversation (default {_D.limits.timeout_s:g})"
    )
    run.add_argument(
        "--max-error-share",
        type=float,
        metavar="SHARE",
        help="exit with code 3 when more than this share (0..1) of the conversations hit "
        f"endpoint errors (default {_D.max_error_share:g})",
    )
    run.add_argument(
        "--count-errors",
        action="store_true",
        help="count conversations ended by endpoint errors as failures in the printed report "
        "(default: left out of pass^k, success and abandonment)",
    )
    run.add_argument(
        "--keep-errors",
        action="store_true",
        help="with --resume: keep conversations ended by endpoint errors instead of playing "
        "them again",
    )
    run.add_argument(
        "--agent-arg",
        action="append",
        metavar="KEY=VALUE",
        help="agent option, repeatable (the keys of each provider: `tau-sim models`; default none)",
    )
    run.add_argument(
        "--user-arg",
        action="append",
        metavar="KEY=VALUE",
        help="user option, repeatable (the keys of each kind: `tau-sim models`; default none)",
    )
    _add_judge_options(run)
    run.add_argument(
        "--resume",
        metavar="RUN_ID",
        help="finish an interrupted run and play again the conversations endpoint errors ended "
        "(takes only --concurrency, --workers, --ray, --max-error-share, --keep-errors and output "
        "options)",
    )
    run.add_argument(
        "--config",
        metavar="RUN.TOML",
        help="run file: [run] settings, [agent]/[user]/[models] options",
    )
    run.add_argument("--db", help=f"SQLite file (default ./{DEFAULT_DB})")
    run.add_argument(
        "--dry-run",
        action="store_true",
        help="check everything, print the grid size and the expected model calls, store nothing",
    )
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.add_argument("--json", action="store_true", help="print the final report as JSON")

    _add_tui_parser(sub, run)
    _add_human_parser(sub)

    report = sub.add_parser("report", help="pass^k and success by condition for a run")
    report.add_argument("run_id", nargs="?", help="run id (default: the latest run)")
    report.add_argument("--db", default=DEFAULT_DB)
    report.add_argument("--json", action="store_true", help="print one JSON object")
    report.add_argument(
        "--count-errors",
        action="store_true",
        help="count conversations ended by endpoint errors as failures (default: left out)",
    )
    _add_interval_options(report)
    report.add_argument(
        "--by-family",
        action="store_true",
        help="roll the by-emotion table up to emotion families (see `tau-sim emotions`)",
    )
    report.add_argument(
        "--compare-users",
        action="store_true",
        help="human-played vs simulated users on the same cells, over the whole --db (with "
        "RUN_ID: that run's human side)",
    )
    _add_compare_parser(sub)

    rescore = sub.add_parser(
        "rescore", help="score a stored run again with today's evaluator and task set"
    )
    rescore.add_argument("run_id", help="run id (see `tau-sim runs`)")
    rescore.add_argument("--db", default=DEFAULT_DB)
    rescore.add_argument("--json", action="store_true", help="print one JSON object")
    rescore.add_argument(
        "--write", action="store_true", help="store the new rewards (one transaction, recorded)"
    )

    _add_result_commands(sub)
    _add_tracer_command(sub)

    runs = sub.add_parser("runs", help="list the runs in a database")
    runs.add_argument("--db", default=DEFAULT_DB)

    models = sub.add_parser(
        "models", help="model providers, agent and user kinds, and the option keys each takes"
    )
    models.add_argument("--json", action="store_true", help="print one JSON object")
    emotions = sub.add_parser(
        "emotions", help="emotion families, leaves (aliases), intensity levels and dimensions"
    )
    emotions.add_argument("--json", action="store_true", help="print one JSON object")

    domains = sub.add_parser("domains", help="list domains, show one, or regenerate its tasks")
    dsub = domains.add_subparsers(dest="domains_command", parser_class=_Parser)
    dsub.add_parser("list", help="list the domains")
    show = dsub.add_parser("show", help="tools, intents and task count of a domain")
    show.add_argument("name")
    show.add_argument("--json", action="store_true", help="print one JSON object")
    gen = dsub.add_parser(
        "generate",
        help="sample tasks from a domain's intents (JSONL); without options, regenerate its "
        "checked-in task file",
    )
    gen.add_argument("name")
    gen.add_argument(
        "--count",
        type=int,
        default=None,
        help=f"1..{MAX_GENERATED} tasks (default: the domain's own)",
    )
    gen.add_argument("--seed", type=int, default=None, help="default: the domain's own")
    gen.add_argument(
        "--out",
        default=None,
        help="file to write, - for stdout (default: the domain's task file when --count and "
        "--seed are not given, else stdout)",
    )
    return parser, run


def _add_judge_options(run: argparse.ArgumentParser) -> None:
    """``--judge MODEL`` and ``--judge-arg``: the model that checks natural-language assertions."""
    run.add_argument(
        "--judge",
        metavar="PROVIDER/MODEL",
        help="model that judges the tasks' natural-language assertions (τ²-bench's "
        "nl_assertions; default none: they stay not evaluated)",
    )
    run.add_argument(
        "--judge-arg",
        action="append",
        metavar="KEY=VALUE",
        help="judge model option, repeatable (base_url=..., price_in=...; see `tau-sim models`)",
    )


def _add_interval_options(parser: argparse.ArgumentParser) -> None:
    """``--resamples``: the bootstrap draws behind every interval (``report``, ``compare``)."""
    from tau_sim.simulator.results.stats import MAX_RESAMPLES, MIN_RESAMPLES, RESAMPLES

    parser.add_argument(
        "--resamples",
        type=int,
        default=RESAMPLES,
        help=f"bootstrap resamples per 95%% interval, {MIN_RESAMPLES}..{MAX_RESAMPLES} "
        f"(default {RESAMPLES}; from a fixed seed: the same store prints the same intervals)",
    )


def _add_compare_parser(sub: Any) -> None:
    """``tau-sim compare``: two runs, or two agents or two users of one run, paired by cell."""
    compare = sub.add_parser(
        "compare",
        help="paired comparison of two runs, or of two agents or users of one run",
        description="Pair the conversations of A and B by grid cell (domain, task, emotion, "
        "intensity, levels, trial; agent and user too unless each run has one) and print, per "
        "condition, B minus A in success and pass^1 with 95% intervals, and the tasks that "
        "flip. Two runs: `compare RUN_A RUN_B` (RUN_B in another file: --db-b PATH). One run: "
        "`compare RUN --agents A B` or `compare RUN --users A B`.",
    )
    compare.add_argument("run_a", help="run id (A; with --agents/--users, the one run)")
    compare.add_argument("run_b", nargs="?", help="run id of B (not with --agents/--users)")
    compare.add_argument("--db", default=DEFAULT_DB, help="SQLite file of A (and of B)")
    compare.add_argument("--db-b", metavar="PATH", help="SQLite file of RUN_B (default: --db)")
    pair = compare.add_mutually_exclusive_group()
    pair.add_argument("--agents", nargs=2, metavar=("A", "B"), help="two agents of one run")
    pair.add_argument("--users", nargs=2, metavar=("A", "B"), help="two user models of one run")
    compare.add_argument("--json", action="store_true", help="print one JSON object")
    compare.add_argument(
        "--count-errors",
        action="store_true",
        help="count conversations ended by endpoint errors as failures (default: left out)",
    )
    _add_interval_options(compare)


MAX_GENERATED = 10_000
"""The most tasks ``domains generate`` samples at once."""
OUTPUT_DEFAULTS: dict[str, Any] = {
    "db": DEFAULT_DB,
    "quiet": False,
    "json": False,
    "count_errors": False,
    "keep_errors": False,
}
"""Defaults of the run command's options that are not part of a run (``RunConfig``'s are)."""
RESUME_OPTIONS = frozenset(
    {"concurrency", "workers", "quiet", "json", "db", "count_errors", "keep_errors"}
    | {"max_error_share", "ray"}
)
"""Options that may go with ``--resume``: the stored config defines everything else."""
_NOT_SETTINGS = (
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


def _add_tracer_command(sub: Any) -> None:
    """``tracer construct|filter|export|stats``: training data from simulations (``tracer/``)."""
    tracer = sub.add_parser("tracer", help="construct tasks, filter and export SFT data, stats")
    tsub = tracer.add_subparsers(dest="tracer_command", required=True, parser_class=_Parser)
    construct = tsub.add_parser("construct", help="sample grounded, compliant, new tasks")
    construct.add_argument("--domain", required=True, help="the domain to sample")
    construct.add_argument("--count", type=int, required=True, help="tasks to keep")
    construct.add_argument("--seed", type=int, default=0, help="sampling seed (default 0)")
    construct.add_argument("--out", required=True, help="task file to write (JSONL)")
    construct.add_argument(
        "--emotions",
        help="profiles to assign, e.g. 'anger:2,fear,helplessness;intensity=low,high;"
        "politeness=warm,cold' (see tracer/emotions.py); played with `run --emotions task`",
    )
    construct.add_argument("--writer", metavar="PROVIDER/MODEL", help="paraphrase with a model")
    construct.add_argument(
        "--writer-arg", action="append", default=[], metavar="KEY=VALUE", help="writer option"
    )
    filt = tsub.add_parser("filter", help="keep successful, efficient conversations of runs")
    filt.add_argument("run_ids", nargs="+", metavar="RUN_ID", help="runs to filter")
    filt.add_argument("--db", default=DEFAULT_DB)
    filt.add_argument("--out", required=True, help="selection file to write (JSON)")
    from tau_sim.tracer.thresholds import Thresholds

    for name, value in msgspec.structs.asdict(Thresholds()).items():
        filt.add_argument(
            f"--{name.replace('_', '-')}",
            type=type(value),
            default=value,
            help=f"(default {value})",
        )
    export = tsub.add_parser("export", help="write a selection as an SFT dataset folder")
    export.add_argument("selection", help="selection file of `tau-sim tracer filter`")
    export.add_argument("--db", help="database (default: the one the selection names)")
    export.add_argument("--out", required=True, help="folder for train.jsonl and README.md")
    export.add_argument("--format", default="trl", help="trl (default) or sharegpt")
    export.add_argument("--reasoning", default="drop", choices=("keep", "drop"))
    export.add_argument(
        "--tools-as-string", action="store_true", help="`tools` as a JSON string (datasets < 4.7)"
    )
    stats = tsub.add_parser("stats", help="tool executions vs follow-up questions, and success")
    stats.add_argument("run_id", metavar="RUN_ID")
    stats.add_argument("--db", default=DEFAULT_DB)
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    stats.add_argument("--plot", metavar="PNG", help="also draw a PNG (extra `plot`)")


def _add_result_commands(sub: Any) -> None:
    """The ``show``, ``export`` and ``review`` sub-commands (reading and annotating results)."""
    show = sub.add_parser("show", help="one conversation's transcript, ending and failure reason")
    show.add_argument("conversation_id", help="conversation id (see `tau-sim export RUN_ID`)")
    show.add_argument("--db", default=DEFAULT_DB)
    show.add_argument("--json", action="store_true", help="print one JSON object")
    export = sub.add_parser("export", help="one row per conversation of a run, as JSONL or CSV")
    export.add_argument("run_id", help="run id (see `tau-sim runs`)")
    export.add_argument("--db", default=DEFAULT_DB)
    export.add_argument(
        "--format", default="jsonl", help="jsonl (default), csv or tau2 (τ²-bench's results)"
    )
    export.add_argument("--out", default="-", help="file to write (default -: stdout)")
    review = sub.add_parser(
        "review", help="a judge model's short diagnosis of each failed conversation, stored"
    )
    review.add_argument("run_id", help="run id (see `tau-sim runs`)")
    review.add_argument("--db", default=DEFAULT_DB)
    review.add_argument("--judge", required=True, metavar="PROVIDER/MODEL", help="judge model")
    review.add_argument(
        "--judge-arg",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="judge model option, repeatable (base_url=..., price_in=...; see `tau-sim models`)",
    )
    review.add_argument(
        "--redo", action="store_true", help="review again what this judge already reviewed"
    )
    review.add_argument(
        "--concurrency", type=int, default=8, help="judge calls in flight at once (default 8)"
    )
    review.add_argument("--json", action="store_true", help="print one JSON object")


def _flag(dest: str) -> str:
    return "--" + dest.replace("_", "-")


def _run_table(run: argparse.ArgumentParser, run_file: RunFile, path: str) -> dict[str, Any]:
    """The run file's ``[run]`` table, typed like the flags of the same names."""
    actions = {a.dest: a for a in run._actions}
    settings: dict[str, Any] = {}
    for key, value in run_file.run.items():
        dest = key.replace("-", "_")
        action = actions.get(dest)
        if action is None or dest in _NOT_SETTINGS:
            raise UsageError(f"--config {path}: [run] has unknown setting {key!r}")
        if isinstance(value, list):
            value = ",".join(str(v) for v in value)
        if action.nargs == 0:  # a switch such as --quiet
            settings[dest] = bool(value)
            continue
        try:
            settings[dest] = action.type(value) if callable(action.type) else str(value)
        except (TypeError, ValueError, OverflowError):
            raise UsageError(f"--config {path}: [run] {key} = {value!r} is not valid") from None
    return settings


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tau-sim`` console script.

    Bad input is one line and exit 2; a closed stdout exits quietly with 141; Ctrl-C before a
    run starts is one line and 130 (a started run handles its own signals); anything else is
    one line asking for a report, exit 1 — never a traceback.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return _main(argv)
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        _ignore_ctrl_c()
        print("tau-sim: interrupted before the run started; nothing was stored", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:
        if any(isinstance(e, BrokenPipeError) for e in _leaves(exc)):
            _silence_stdout()
            return EXIT_BROKEN_PIPE
        print(
            f"tau-sim: error: unexpected {type(exc).__name__}: {exc} (please report this as a "
            "bug, with the command)",
            file=sys.stderr,
        )
        return 1


def _ignore_ctrl_c() -> None:
    """Ignore further Ctrl-C while the process says why it stops and exits."""
    with suppress(ValueError):  # not the main thread
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def _leaves(exc: BaseException) -> list[BaseException]:
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in _leaves(inner)]
    return [exc]


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tau-sim")
    except PackageNotFoundError:
        return "unknown"


def _main(argv: list[str]) -> int:
    parser, run = parsers()
    args = parser.parse_args(argv)
    try:
        if args.command == "run":
            return _cmd_run(args, run)
        if args.command == "tui":
            return _cmd_tui(args, run)
        if args.command == "human":
            return _cmd_human(args)
        if args.command == "report":
            return _cmd_report(args)
        if args.command == "runs":
            return _cmd_runs(args)
        if args.command == "rescore":
            return _cmd_rescore(args)
        if args.command == "compare":
            return _cmd_compare(args)
        if args.command == "models":
            return _cmd_models(args)
        if args.command == "show":
            return _cmd_show(args)
        if args.command == "export":
            return _cmd_export(args)
        if args.command == "review":
            return _cmd_review(args)
        if args.command == "emotions":
            return _cmd_emotions(args)
        if args.command == "tracer":
            return _cmd_tracer(args)
        return _cmd_domains(args)
    except (UsageError, StoreError, BaseExceptionGroup) as exc:
        usage = _usage_error(exc)
        if usage is None:
            raise
        print(f"tau-sim: error: {usage}", file=sys.stderr)
        return EXIT_STORAGE if isinstance(usage, StoreError) else EXIT_USAGE
    except sqlite3.Error as exc:  # a read that failed past the checks on opening
        from tau_sim.simulator.store import storage_fault

        print(f"tau-sim: error: {storage_fault(args.db, exc)}", file=sys.stderr)
        return EXIT_STORAGE


def _usage_error(exc: BaseException) -> UsageError | StoreError | None:
    """The ``UsageError`` or ``StoreError`` behind ``exc`` (task groups wrap what tasks raise).

    A storage fault comes first: a run stopped by one also sees its other tasks cancelled.
    """
    if isinstance(exc, UsageError | StoreError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        found = [_usage_error(inner) for inner in exc.exceptions]
        for kind in (StoreError, UsageError):
            for error in found:
                if isinstance(error, kind):
                    return error
    return None


def _config_from_settings(
    settings: dict[str, Any],
    run_file: RunFile | None,
    agent_args: dict[str, Any],
    user_args: dict[str, Any],
    judge_args: dict[str, Any] | None = None,
) -> RunConfig:
    """The ``RunConfig`` of merged run settings: what is not set keeps ``RunConfig``'s default.

    Each agent's and user's options are merged here, once (``model_options``).
    """
    from tau_sim.simulator.core.conditions import parse_intensity, parse_levels
    from tau_sim.simulator.core.registry import DOMAINS
    from tau_sim.simulator.engine.referee import Limits
    from tau_sim.simulator.models.options import model_options
    from tau_sim.simulator.run import (
        normalize_emotions,
        resolve_workers,
        run_domains,
        select_tasks,
        task_pool,
    )
    from tau_sim.simulator.world.splits import check_users, split_pool

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
        names = _csv(settings["domain"])
        fields["domains"] = _all_domains(DOMAINS.names()) if names == ["all"] else names
    domains = run_domains(fields.get("domains", defaults.domains))
    tasks_file = settings.get("tasks_file")
    pool = task_pool(list(domains.values()), tasks_file)
    if settings.get("task_split"):
        pool = split_pool(pool, domains, fields.setdefault("task_split", settings["task_split"]))
    names = list(domains)
    where = tasks_file or (f"domain {names[0]!r}" if len(names) == 1 else "the domains")
    if settings.get("tasks") is not None and not str(settings["tasks"]).strip().isdigit():
        _unique("--tasks", _csv(settings["tasks"]), _csv(settings["tasks"]))
    fields["tasks"] = select_tasks(pool, settings.get("tasks"), where)
    if tasks_file:
        fields["tasks_file"] = str(Path(tasks_file).resolve())
    if "agent" in settings:
        fields["agents"] = _unique("--agent", names := _csv(settings["agent"]), names)
    if "user" in settings:
        fields["users"] = _unique("--user", names := _csv(settings["user"]), names)
    if "emotions" in settings:
        names = _csv(settings["emotions"])
        fields["emotions"] = _unique("--emotions", names, normalize_emotions(names, dedupe=False))
    if "intensities" in settings:
        names = _csv(settings["intensities"])
        fields["intensities"] = _unique("--intensities", names, [parse_intensity(x) for x in names])
    for dimension in DIMENSIONS:
        if dimension in settings:
            names = [n.lower() for n in _csv(settings[dimension])]
            _unique(f"--{dimension}", names, names)
            fields[dimension] = parse_levels(dimension, settings[dimension])
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
    check_users(domains, fields.get("users", defaults.users))
    fields.update(_judge_fields(settings, run_file, judge_args or {}))
    return RunConfig(**fields)


def _ray_fields(settings: dict[str, Any]) -> dict[str, Any]:
    """``--ray [ADDRESS]``: the cluster, and one actor per core unless ``--workers`` is given."""
    from tau_sim.simulator.run import auto_workers

    if settings.get("ray") is None or _ray_address(settings["ray"]) is None:
        return {}
    fields: dict[str, Any] = {"ray": _ray_address(settings["ray"])}
    if "workers" not in settings:
        fields["workers"] = auto_workers()
    return fields


def _ray_address(value: Any) -> str | None:
    """``--ray``'s value as stored: ``local``, an address, or None for ``none`` (not on Ray)."""
    text = str(value).strip()
    return None if text.lower() == "none" else text or "local"


def _judge_fields(
    settings: dict[str, Any], run_file: RunFile | None, judge_args: dict[str, Any]
) -> dict[str, Any]:
    """``judge`` and ``judge_options`` of a run: ``[models."NAME"]``, then ``--judge-arg``."""
    from tau_sim.simulator.engine.judging import check_judge_name
    from tau_sim.simulator.models.options import merge

    judge = settings.get("judge")
    if judge is None:
        if judge_args:
            raise UsageError("--judge-arg: options for a judge, but no --judge is given")
        return {}
    check_judge_name(judge)
    table = run_file.models.get(judge) if run_file is not None else None
    return {"judge": judge, "judge_options": merge(table, judge_args)}


def _buildable_domains(names: list[str]) -> list[Domain]:
    """The domains ``names`` that build here; each one that cannot (an extra missing) says why."""
    from tau_sim.simulator.core.registry import get_domain

    built = []
    for name in names:
        try:
            built.append(get_domain(name))
        except UsageError as exc:
            print(f"tau-sim: {name}: {exc}", file=sys.stderr)
    return built


def _all_domains(names: list[str]) -> list[str]:
    """What ``--domain all`` stands for: the built-in domains (an imported ``x/y`` one is named)."""
    return [name for name in names if "/" not in name]


_V = TypeVar("_V")


def _unique(flag: str, given: list[str], values: list[_V]) -> list[_V]:
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


def configure_run(
    args: argparse.Namespace, parser: argparse.ArgumentParser
) -> tuple[dict[str, Any], RunConfig]:
    """The one configuration path of a new run: (output settings, ``RunConfig``).

    Layers, the most specific winning (``merge``): ``RunConfig``'s defaults, the run file's
    ``[run]`` table, the flags given; per model: ``[agent]``/``[user]``, ``[models."NAME"]``,
    ``--agent-arg``/``--user-arg``. ``parser`` is the ``run`` sub-parser (it types ``[run]``).
    """
    from tau_sim.simulator.models.options import load_config, merge, parse_key_values

    run_file = load_config(args.config) if "config" in args else None
    given = {k: v for k, v in vars(args).items() if k not in _NOT_SETTINGS}
    file_settings = _run_table(parser, run_file, args.config) if run_file else {}
    settings = merge(OUTPUT_DEFAULTS, file_settings, given)
    config = _config_from_settings(
        settings,
        run_file,
        parse_key_values(getattr(args, "agent_arg", []), "--agent-arg"),
        parse_key_values(getattr(args, "user_arg", []), "--user-arg"),
        parse_key_values(getattr(args, "judge_arg", []), "--judge-arg"),
    )
    return settings, config


def _resume_keys(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """The ``api_key``/``api_key_env`` given with ``--resume``, by flag; nothing else may be.

    Raises:
        UsageError: an option that would redefine the stored run was given (all are named).
    """
    from tau_sim.simulator.core.keys import KEY_OPTIONS
    from tau_sim.simulator.models.options import parse_key_values

    keys = {
        flag: parse_key_values(getattr(args, dest, []), flag)
        for flag, dest in (
            ("--agent-arg", "agent_arg"),
            ("--user-arg", "user_arg"),
            ("--judge-arg", "judge_arg"),
        )
    }
    extra = [
        _flag(dest)
        for dest in vars(args)
        if dest not in RESUME_OPTIONS
        and dest not in ("command", "resume", "agent_arg", "user_arg", "judge_arg")
    ]
    extra += [
        f"{flag} {key}" for flag, given in keys.items() for key in given if key not in KEY_OPTIONS
    ]
    if extra:
        raise UsageError(
            f"--resume takes the stored run as it is; remove {', '.join(extra)} (only "
            "--concurrency, --workers, --ray, --quiet, --json, --db and an api_key/api_key_env "
            "may go with it)"
        )
    return keys


def _resume_config(
    args: argparse.Namespace, store: Store, keys: dict[str, dict[str, Any]]
) -> tuple[RunConfig, str]:
    """The stored config of the run to resume, with ``--concurrency``/``--workers`` and keys.

    Raises:
        UsageError: the run is unknown or completed, or a literal API key is needed again.
    """
    from tau_sim.simulator.grid import reattach_keys
    from tau_sim.simulator.run import resolve_workers
    from tau_sim.simulator.store import get_run

    run = get_run(store.db, args.resume)
    _check_resumable(store, run, keep_errors="keep_errors" in args)
    if run["status"] == "running":
        raise UsageError(_still_running(run))
    config = decode_config(run["config"])
    changes = {
        key: getattr(args, key)
        for key in ("concurrency", "workers", "max_error_share", "ray")
        if key in args
    }
    if "workers" in changes:
        changes["workers"] = resolve_workers(changes["workers"])
    if "ray" in changes:
        changes["ray"] = _ray_address(changes["ray"])
    if changes:
        config = msgspec.structs.replace(config, **changes)
    config = reattach_keys(
        config, run["id"], keys["--agent-arg"], keys["--user-arg"], keys.get("--judge-arg")
    )
    return config, run["id"]


def _check_resumable(store: Store, run: dict[str, Any], *, keep_errors: bool) -> None:
    """Refuse to resume a run with nothing left to play.

    A completed run (``completed`` or ``completed_with_errors``) is resumed only to play again
    the conversations endpoint errors ended, so not with ``--keep-errors`` nor without any.
    """
    from tau_sim.simulator.core.infra import COMPLETED_WITH_ERRORS, run_error_share

    if run["status"] not in ("completed", COMPLETED_WITH_ERRORS):
        return
    errors = run_error_share(store.db, run["id"]).errors
    if not errors:
        raise UsageError(f"--resume: run {run['id']} is already completed")
    if keep_errors:
        raise UsageError(
            f"--resume: run {run['id']} is completed and --keep-errors keeps its {errors} "
            "conversations ended by endpoint errors: nothing to play"
        )


def _error_share_exit(db: Any, run_id: str, config: RunConfig, settings: dict[str, Any]) -> int:
    """Exit code 3 (and the summary on stderr) when too many conversations hit endpoint errors.

    A smaller share is reported on stderr as a warning, with exit code 0.
    """
    from tau_sim.simulator.core.infra import EXIT_ENDPOINT_ERRORS, run_error_share, share_line

    share = run_error_share(db, run_id)
    if not share.errors:
        return 0
    resume = f"tau-sim run --resume {run_id} --db {settings['db']}"
    line = share_line(share, resume, counted=settings["count_errors"])
    too_many = share.share > config.max_error_share
    print(f"tau-sim: {'error' if too_many else 'warning'}: {line}", file=sys.stderr)
    return EXIT_ENDPOINT_ERRORS if too_many else 0


def _still_running(run: dict[str, Any]) -> str:
    """Why a run with a fresh heartbeat cannot be resumed (two writers would play its cells)."""
    import time

    from tau_sim.simulator.store import STALE_AFTER_ENV, stale_after

    beat = run.get("heartbeat_at") or run["created_at"]
    where = f" (pid {run['pid']} on {run['host']})" if run.get("pid") else ""
    return (
        f"--resume: run {run['id']} is still running{where}, its last heartbeat "
        f"{time.time() - beat:.0f} s ago; stop it, or wait until it reads stale (no heartbeat "
        f"for {stale_after():g} s, {STALE_AFTER_ENV})"
    )


def _cmd_run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from tau_sim.simulator.grid import new_run_id, seal_keys
    from tau_sim.simulator.models.options import merge
    from tau_sim.simulator.run import Player, Runner, backend_options, check_run
    from tau_sim.simulator.store import Store

    resume = "resume" in args
    if resume:
        settings = merge(
            OUTPUT_DEFAULTS, {k: v for k, v in vars(args).items() if k in RESUME_OPTIONS}
        )
        keys = _resume_keys(args)
        store = Store(settings["db"], create=False)
        fresh = False
        config, run_id = _resume_config(args, store, keys)
        player = None
    else:
        if "keep_errors" in args:
            raise UsageError("--keep-errors goes with --resume (a new run has nothing to keep)")
        settings, config = configure_run(args, parser)
        run_id = new_run_id()
        # everything is checked (and gold paths replayed) before the store is opened
        config = seal_keys(config)
        player = Player(config, run_id)
        _check_auto_workers(settings, player)
        check_run(config, player.providers)
        player.prepare()
        if getattr(args, "dry_run", False):
            return _dry_run(player, as_json=settings["json"])
        fresh = not Path(settings["db"]).exists()
        store = Store(settings["db"])
    from tau_sim.simulator.run import RunProgress

    progress = RunProgress(enabled=not settings["quiet"] and not settings["json"])

    def started(already_done: int) -> None:
        assert runner is not None  # called by the runner itself
        progress.start(runner.total, already_done)

    runner: Runner | None = None
    try:
        runner = Runner(
            store,
            config,
            run_id,
            on_end=progress.conversation_ended,
            create=not resume,
            on_start=started,
            keep_errors=settings["keep_errors"],
            player=player,
        )
        for note in runner.player.connection_notes:
            print(note, file=sys.stderr)
        with _ctrl_c_raises():
            anyio.run(runner.run, backend_options=backend_options())
    except BaseException as exc:
        if fresh and (runner is None or not runner.created):
            _remove_unused(store, settings["db"])  # this command made it and stored nothing
        fault = _usage_error(exc) if isinstance(exc, StoreError | BaseExceptionGroup) else None
        if runner is None or not isinstance(fault, StoreError) or not runner.created:
            raise
        raise StoreError(
            _stopped_by_fault(fault, store, runner.total, run_id, settings["db"])
        ) from None
    finally:
        progress.stop()
    code = EXIT_INTERRUPTED if runner.interrupted else 0
    if runner.interrupted:
        print(
            f"tau-sim: interrupted; resume with: tau-sim run --resume {run_id} "
            f"--db {settings['db']}",
            file=sys.stderr,
        )
    _print_report(store.db, run_id, as_json=settings["json"], count_errors=settings["count_errors"])
    if not runner.interrupted:
        code = _error_share_exit(store.db, run_id, runner.config, settings)
    store.close_sync()
    return code


def _add_tui_parser(sub: Any, run: argparse.ArgumentParser) -> None:
    """``tau-sim tui``: the run options of ``run`` (shared, not copied) and ``--attach``."""
    tui = sub.add_parser(
        "tui",
        parents=[run],
        add_help=False,
        argument_default=SUPPRESS,
        help="start a run with the live terminal UI, or follow a stored one (--attach)",
        description="Start a run (the options of `tau-sim run`) and watch it live, or follow a "
        "run another process writes (--attach). Press ? in the UI for its keys.",
    )
    tui.add_argument(
        "--attach",
        nargs="?",
        const="",
        metavar="RUN_ID",
        help="follow a run stored in --db (default: its latest run) instead of starting one; "
        "a finished run opens for browsing",
    )


def _cmd_tui(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``tau-sim tui``: a new run (or ``--resume``) under the TUI, or ``--attach`` to one.

    The exit code and what is printed once the screen closes are those of ``tau-sim run``.
    """
    if "attach" in args:
        extra = [_flag(d) for d in vars(args) if d not in ("command", "attach", "db")]
        if extra:
            raise UsageError(f"--attach follows a stored run; remove {', '.join(extra)}")
        from tau_sim.tui.launch import attach

        attach(getattr(args, "db", DEFAULT_DB), args.attach or None)
        return 0
    settings, store, run_id, outcome = (
        _tui_resume(args) if "resume" in args else _tui_new_run(args, parser)
    )
    if outcome.error is not None:
        raise outcome.error
    if outcome.interrupted:
        print(
            f"tau-sim: interrupted; resume with: tau-sim run --resume {run_id} "
            f"--db {settings['db']}",
            file=sys.stderr,
        )
    _print_report(store.db, run_id, as_json=settings["json"], count_errors=settings["count_errors"])
    code = EXIT_INTERRUPTED
    if not outcome.interrupted:
        code = _error_share_exit(store.db, run_id, outcome.config, settings)
    store.close_sync()
    return code


def _add_human_parser(sub: Any) -> None:
    """``tau-sim human``: a person plays the user (or the agent) of a run, on a screen."""
    human = sub.add_parser(
        "human",
        help="play the emotional user (or --role agent) yourself; stored and scored like a run",
        description="A person plays one side of each conversation on a screen; the session is "
        "one run in --db (`tau-sim report` reads it, --resume finishes it).",
    )
    human.add_argument("--role", default="user", help="what you play: user (default) or agent")
    human.add_argument("--agent", help="the agent you face as the user (default scripted/gold)")
    human.add_argument("--user", help="the user you face as the agent (default scripted)")
    human.add_argument("--domain", help="the domain (default retail)")
    human.add_argument(
        "--task", default="random", help="task id(s), comma-separated, or random (default)"
    )
    human.add_argument("--tasks", type=int, default=1, help="how many random tasks (default 1)")
    human.add_argument("--emotions", help="comma-separated emotions or families (default anger)")
    human.add_argument("--intensities", help="low,medium,high or numbers in 0..1 (default high)")
    human.add_argument("--seed", type=int, default=0, help="seed of the draw and the run")
    human.add_argument("--db", default=DEFAULT_DB, help=f"SQLite file (default ./{DEFAULT_DB})")
    human.add_argument("--resume", metavar="RUN_ID", help="finish a session stopped early")


def _cmd_human(args: argparse.Namespace) -> int:
    """``tau-sim human``: check the session as ``tau-sim run`` checks a run, then play it."""
    from tau_sim.simulator.grid import new_run_id
    from tau_sim.simulator.run import Player
    from tau_sim.simulator.store import Store
    from tau_sim.tui.session import human_settings, make_app, play

    if args.resume:
        store = Store(args.db, create=False)
        keys: dict[str, dict[str, Any]] = {"--agent-arg": {}, "--user-arg": {}}
        config, run_id = _resume_config(args, store, keys)
        outcome: Any = play(make_app(store, config, run_id, resume=True))
    else:
        settings = human_settings(
            args.role,
            agent=args.agent,
            user=args.user,
            domain=args.domain,
            task=args.task,
            tasks=args.tasks,
            seed=args.seed,
        )
        settings["emotions"] = args.emotions or "anger"
        settings["intensities"] = args.intensities or "high"
        config = _config_from_settings(settings, None, {}, {})
        run_id = new_run_id()
        player = Player(config, run_id)
        player.prepare()
        fresh = not Path(args.db).exists()
        store = Store(args.db)
        outcome = None
        try:
            outcome = play(make_app(store, config, run_id, player))
        finally:
            if fresh and (outcome is None or not outcome.created):
                _remove_unused(store, args.db)
    if outcome.error is not None:
        raise outcome.error
    if outcome.interrupted:
        print(
            f"tau-sim: stopped; resume with: tau-sim human --resume {run_id} --db {args.db}",
            file=sys.stderr,
        )
    _print_report(store.db, run_id, as_json=False, count_errors=False)
    store.close_sync()
    return EXIT_INTERRUPTED if outcome.interrupted else 0


def _tui_new_run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[Any, ...]:
    """Check a new run as ``tau-sim run`` does, then play it under the TUI."""
    from tau_sim.simulator.grid import new_run_id, seal_keys
    from tau_sim.simulator.run import Player
    from tau_sim.simulator.store import Store
    from tau_sim.tui.launch import play

    for flag in ("dry_run", "keep_errors"):
        if flag in args:
            raise UsageError(f"{_flag(flag)} goes with `tau-sim run`, not `tau-sim tui`")
    settings, config = configure_run(args, parser)
    run_id = new_run_id()
    config = seal_keys(config)
    player = Player(config, run_id)
    player.prepare()
    fresh = not Path(settings["db"]).exists()
    store = Store(settings["db"])
    outcome = None
    try:
        outcome = play(store, config, run_id, player)
    finally:
        if fresh and (outcome is None or not outcome.created):
            _remove_unused(store, settings["db"])  # this command made it, stored nothing
    return settings, store, run_id, outcome


def _tui_resume(args: argparse.Namespace) -> tuple[Any, ...]:
    """Check ``--resume`` as ``tau-sim run`` does, then play the rest under the TUI."""
    from tau_sim.simulator.models.options import merge
    from tau_sim.simulator.store import Store
    from tau_sim.tui.launch import play

    settings = merge(OUTPUT_DEFAULTS, {k: v for k, v in vars(args).items() if k in RESUME_OPTIONS})
    keys = _resume_keys(args)
    store = Store(settings["db"], create=False)
    config, run_id = _resume_config(args, store, keys)
    outcome = play(store, config, run_id, resume=True, keep_errors=settings["keep_errors"])
    return settings, store, run_id, outcome


def _workers_arg(text: str) -> int | str:
    """``--workers``: a number, or ``auto`` (resolved by ``shards.resolve_workers``)."""
    if text.strip().lower() == "auto":
        return "auto"
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number or auto (got {text!r})") from None


def _check_auto_workers(settings: dict[str, Any], player: Any) -> None:
    """``--workers auto`` with a provider that launches servers: say what to do instead."""
    if str(settings.get("workers", "")).strip().lower() != "auto":
        return
    for provider in player.providers:
        if getattr(provider, "launches_servers", False):
            raise UsageError(
                f"--workers auto: {provider.name} starts its own servers, which worker "
                "processes cannot share; leave --workers out (one process drives them), or "
                "start the servers once and pass base_url=... to use every core"
            )


def _remove_unused(store: Store, db: str) -> None:
    """Close and delete a database file this command created but stored no run in.

    A new run that fails before its row is written (a bad option a provider found, an
    endpoint that did not answer the preflight, Ctrl-C during start-up) leaves no file behind.
    """
    store.close_sync()
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(db + suffix).unlink(missing_ok=True)


def _stopped_by_fault(fault: StoreError, store: Store, total: int, run_id: str, db: str) -> str:
    """The one line of a run stopped by a storage fault: the fault, what is stored, how to go on.

    The count is read back from the file (what is durably there); a file too broken to count
    leaves it out.
    """
    try:
        stored = f"{store.completed_count(run_id)} of {total} conversations are stored; "
    except sqlite3.Error:
        stored = ""
    return f"{fault}; {stored}resume with: tau-sim run --resume {run_id} --db {db}"


@contextmanager
def _ctrl_c_raises() -> Iterator[None]:
    """Ctrl-C raises ``KeyboardInterrupt`` wherever the start-up is (a preflight, a launch).

    asyncio's own handler would cancel the main task instead, which a client in its preflight
    may report as a timeout; once the run has started, ``until_signal`` takes the signals.
    """
    fired = False

    def interrupt(signum: int, frame: object) -> None:
        nonlocal fired
        fired = True
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C changes nothing
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGINT, interrupt)
    except ValueError:  # not the main thread: leave the signals alone
        yield
        return
    try:
        yield
    finally:
        if not fired:
            signal.signal(signal.SIGINT, previous)


def _dry_run(player: Any, *, as_json: bool) -> int:
    """Print what a run would play: its size and an estimate of its model calls; store nothing."""
    from tau_sim.simulator.run import dry_run_plan, judge_line

    plan = dry_run_plan(player)
    if as_json:
        print(json.dumps({**plan, "connection_notes": player.connection_notes}, indent=2))
        return 0
    for note in player.connection_notes:
        print(note)
    print(
        f"dry run: {plan['conversations']} conversations = {len(plan['agents'])} agent(s) x "
        f"{plan['per_agent']} each; {plan['per_condition']} per agent and condition "
        f"({plan['conditions']} conditions: {', '.join(plan['condition_labels'])})"
    )
    print(
        f"expected model calls, an estimate from the gold path lengths of the "
        f"{plan['tasks']} tasks: about {plan['agent_calls']} agent calls and "
        f"{plan['user_calls']} user calls ({plan['model_calls']} in all; scripted roles "
        "make no model calls)"
    )
    judge = judge_line(plan["judge"])
    if judge is not None:
        print(judge)
    print("nothing was stored")
    return 0


def _print_report(
    db: Any,
    run_id: str | None,
    *,
    as_json: bool,
    count_errors: bool = False,
    resamples: int | None = None,
    by_family: bool = False,
) -> None:
    from tau_sim.simulator.results.metrics import run_report
    from tau_sim.simulator.results.report import render_report
    from tau_sim.simulator.results.stats import RESAMPLES, check_resamples
    from tau_sim.simulator.store import get_run

    resamples = check_resamples(RESAMPLES if resamples is None else resamples)
    run = get_run(db, run_id)
    report = run_report(
        db, run, count_errors=count_errors, resamples=resamples, by_family=by_family
    )
    if as_json:
        print(json.dumps(report, indent=2))
    else:
        render_report(report)
        _print_breakdowns(report)


def _print_breakdowns(report: dict[str, Any]) -> None:
    """The cost and failure tables under the report."""
    from tau_sim.simulator.results.breakdowns import render_costs, render_failures
    from tau_sim.simulator.results.report import _console

    console = _console()
    render_costs(report, console)
    render_failures(report, console)


def _cmd_report(args: argparse.Namespace) -> int:
    from tau_sim.simulator.store import open_database

    db = open_database(args.db, readonly=True)
    if args.compare_users:
        return _compare_users(db, args)
    _print_report(
        db,
        args.run_id,
        as_json=args.json,
        count_errors=args.count_errors,
        resamples=args.resamples,
        by_family=args.by_family,
    )
    return 0


def _compare_users(db: Any, args: argparse.Namespace) -> int:
    """``tau-sim report --compare-users``: human-played against simulated users."""
    from rich.console import Console

    from tau_sim.simulator.results.usercompare import compare_users, print_compare_users

    result = compare_users(db, args.run_id)
    if args.json:
        sys.stdout.write(msgspec.json.encode(result).decode() + "\n")
    else:
        print_compare_users(result, Console())
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    from tau_sim.simulator.results.compare import compare_roles, compare_runs
    from tau_sim.simulator.results.report import render_compare
    from tau_sim.simulator.results.stats import check_resamples
    from tau_sim.simulator.store import open_database

    resamples = check_resamples(args.resamples)
    role = "agent" if args.agents else "user" if args.users else None
    db = open_database(args.db, readonly=True)
    if role is not None:
        if args.run_b is not None or args.db_b is not None:
            raise UsageError(f"--{role}s compares within one run: give one run id, no --db-b")
        names = args.agents or args.users
        result = compare_roles(
            db, args.run_a, role, names, count_errors=args.count_errors, resamples=resamples
        )
    else:
        if args.run_b is None:
            raise UsageError("compare: give two run ids, or one with --agents A B / --users A B")
        db_b = db if args.db_b is None else _open_other(args.db_b)
        result = compare_runs(
            (db, args.db, args.run_a),
            (db_b, args.db_b or args.db, args.run_b),
            count_errors=args.count_errors,
            resamples=resamples,
        )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        render_compare(result)
    return 0


def _open_other(path: str) -> Any:
    """The file of ``compare``'s RUN_B, read-only; its errors name ``--db-b``."""
    from tau_sim.simulator.store import open_database

    try:
        return open_database(path, readonly=True)
    except UsageError as exc:
        raise UsageError(str(exc).replace("--db:", "--db-b:", 1)) from None


def _cmd_rescore(args: argparse.Namespace) -> int:
    from tau_sim.simulator.run import render_rescore, rescore_run
    from tau_sim.simulator.store import open_database

    db = open_database(args.db, create=False, readonly=not args.write)
    result = rescore_run(db, args.run_id, write=args.write)
    if args.json:
        print(json.dumps(msgspec.to_builtins(result), indent=2))
    else:
        print(render_rescore(result))
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    from tau_sim.simulator.results.report import _console
    from tau_sim.simulator.results.transcript import (
        load_transcript,
        render_transcript,
        transcript_json,
    )
    from tau_sim.simulator.store import open_database

    db = open_database(args.db, readonly=True)
    transcript = load_transcript(db, args.conversation_id)
    if args.json:
        print(transcript_json(transcript))
    else:
        render_transcript(transcript, _console())
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from tau_sim.simulator.results.export import export_run
    from tau_sim.simulator.store import open_database

    db = open_database(args.db, readonly=True)
    count = export_run(db, args.run_id, args.format, args.out)
    if args.out != "-":
        print(f"{count} conversations written to {args.out}", file=sys.stderr)
    return 0


def _cmd_review(args: argparse.Namespace) -> int:
    from tau_sim.simulator.models.options import parse_key_values
    from tau_sim.simulator.results.review import render_review, review_run
    from tau_sim.simulator.store import open_database

    judge_args = parse_key_values(args.judge_arg, "--judge-arg")
    db = open_database(args.db, create=False)
    outcome = anyio.run(
        partial(
            review_run,
            db,
            args.db,
            args.run_id,
            args.judge,
            judge_args,
            redo=args.redo,
            concurrency=args.concurrency,
        )
    )
    if args.json:
        print(json.dumps(msgspec.to_builtins(outcome), indent=2))
    else:
        print(render_review(outcome))
    from tau_sim.simulator.core.infra import EXIT_ENDPOINT_ERRORS

    return EXIT_ENDPOINT_ERRORS if outcome.errors else 0  # some failures have no diagnosis


def _cmd_runs(args: argparse.Namespace) -> int:
    from tau_sim.simulator.results.report import render_runs
    from tau_sim.simulator.store import open_database

    db = open_database(args.db, readonly=True)
    render_runs(db)
    return 0


def _cmd_models(args: argparse.Namespace) -> int:
    from tau_sim.simulator.cli.catalog import models_catalog
    from tau_sim.simulator.results.report import render_models

    catalog = models_catalog()
    if args.json:
        print(json.dumps(catalog, indent=2))
    else:
        render_models(catalog)
    return 0


def _cmd_tracer(args: argparse.Namespace) -> int:
    from tau_sim.tracer.commands import COMMANDS

    return COMMANDS[args.tracer_command](args)


def _cmd_emotions(args: argparse.Namespace) -> int:
    from tau_sim.simulator.cli.catalog import emotions_catalog
    from tau_sim.simulator.results.report import render_emotions

    catalog = emotions_catalog()
    if args.json:
        print(json.dumps(catalog, indent=2))
    else:
        render_emotions(catalog)
    return 0


def _cmd_domains(args: argparse.Namespace) -> int:
    from tau_sim.simulator.core.registry import DOMAINS, get_domain, load_plugins
    from tau_sim.simulator.results.report import render_domain, render_domains
    from tau_sim.simulator.world.domain import dump_tasks, encode_task

    load_plugins()
    command = args.domains_command or "list"
    if command == "list":
        render_domains(_buildable_domains(DOMAINS.names()))
    elif command == "show" and args.json:
        print(json.dumps(get_domain(args.name).describe(), indent=2))
    elif command == "show":
        render_domain(get_domain(args.name))
    else:
        domain = get_domain(args.name)
        if args.count is not None and args.count < 1:
            raise UsageError(f"--count must be at least 1 (got {args.count})")
        if args.count is not None and args.count > MAX_GENERATED:
            raise UsageError(f"--count must be at most {MAX_GENERATED} (got {args.count})")
        if args.seed is not None and not 0 <= args.seed < 2**63:
            raise UsageError(f"--seed must be in 0..2^63-1 (got {args.seed})")
        out = args.out
        if out is None:
            own = args.count is None and args.seed is None and domain.tasks_path is not None
            out = str(domain.tasks_path) if own else "-"
        tasks = domain.generate_tasks(args.count, args.seed)
        if out == "-":
            sys.stdout.buffer.write(b"".join(encode_task(t) for t in tasks))
            sys.stdout.flush()
        else:
            try:
                dump_tasks(tasks, Path(out))
            except OSError as exc:
                raise UsageError(f"--out: cannot write {out}: {exc.strerror or exc}") from None
    return 0


if __name__ == "__main__":
    sys.exit(main())
