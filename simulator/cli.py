"""The ``tau-sim`` command line: run, report, rescore, runs, domains."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import anyio
import msgspec

from simulator.conditions import DEFAULT_LEVEL, DIMENSIONS
from simulator.errors import UsageError
from simulator.store import DEFAULT_DB

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"tau-sim: error: {message} (see `{self.prog} --help`)\n")


def _csv(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    return _parsers()[0]


def _parsers() -> tuple[argparse.ArgumentParser, argparse.ArgumentParser]:
    """The top-level parser and its ``run`` sub-parser."""
    parser = _Parser(prog="tau-sim", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser("run", help="run a benchmark grid and store every event")
    run.add_argument("--domain", default="retail", help="domain name (see `tau-sim domains`)")
    run.add_argument("--tasks", default=None, help="N (first N tasks) or comma-separated ids")
    run.add_argument("--tasks-file", default=None, help="run the tasks of a JSONL file instead")
    run.add_argument("--agent", default="scripted/gold", help="comma-separated model names")
    run.add_argument("--user", default="scripted", help="comma-separated user names")
    run.add_argument("--emotions", default="neutral", help="comma-separated emotions or families")
    run.add_argument("--intensities", default="medium", help="low,medium,high or numbers in 0..1")
    for dimension, levels in DIMENSIONS.items():
        run.add_argument(
            f"--{dimension}",
            default=None,
            help=f"comma-separated {dimension} levels: {', '.join(levels)} or "
            f"{DEFAULT_LEVEL} (the emotion's own; the default)",
        )
    run.add_argument("--trials", type=int, default=1, help="trials per task and condition")
    run.add_argument("--concurrency", type=int, default=32, help="conversations at once")
    run.add_argument(
        "--workers", type=int, default=1, help="processes sharing the conversations (one loop each)"
    )
    run.add_argument("--seed", type=int, default=0, help="run seed")
    run.add_argument(
        "--max-steps", type=int, default=50, help="messages before a conversation ends"
    )
    run.add_argument("--max-tool-errors", type=int, default=10, help="failed tool calls allowed")
    run.add_argument("--timeout", type=float, default=600.0, help="seconds per conversation")
    run.add_argument("--agent-arg", action="append", default=[], metavar="KEY=VALUE")
    run.add_argument("--user-arg", action="append", default=[], metavar="KEY=VALUE")
    run.add_argument("--resume", metavar="RUN_ID", help="finish an interrupted run")
    run.add_argument(
        "--config",
        metavar="RUN.TOML",
        help="run file: [run] defaults, [agent]/[user]/[models] options",
    )
    run.add_argument("--db", default=DEFAULT_DB, help="SQLite file (default ./tau-sim.db)")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.add_argument("--json", action="store_true", help="print the final report as JSON")

    report = sub.add_parser("report", help="pass^k and success by condition for a run")
    report.add_argument("run_id", nargs="?", help="run id (default: the latest run)")
    report.add_argument("--db", default=DEFAULT_DB)
    report.add_argument("--json", action="store_true", help="print one JSON object")

    rescore = sub.add_parser(
        "rescore", help="score a stored run again with today's evaluator and task set"
    )
    rescore.add_argument("run_id", help="run id (see `tau-sim runs`)")
    rescore.add_argument("--db", default=DEFAULT_DB)
    rescore.add_argument("--json", action="store_true", help="print one JSON object")
    rescore.add_argument(
        "--write", action="store_true", help="store the new rewards (one transaction, recorded)"
    )

    runs = sub.add_parser("runs", help="list the runs in a database")
    runs.add_argument("--db", default=DEFAULT_DB)

    domains = sub.add_parser("domains", help="list domains, show one, or regenerate its tasks")
    dsub = domains.add_subparsers(dest="domains_command", parser_class=_Parser)
    dsub.add_parser("list", help="list the domains")
    show = dsub.add_parser("show", help="tools, intents and task count of a domain")
    show.add_argument("name")
    gen = dsub.add_parser(
        "generate",
        help="sample tasks from a domain's intents (JSONL); without options, regenerate its "
        "checked-in task file",
    )
    gen.add_argument("name")
    gen.add_argument("--count", type=int, default=None, help="default: the domain's own")
    gen.add_argument("--seed", type=int, default=None, help="default: the domain's own")
    gen.add_argument(
        "--out",
        default=None,
        help="file to write, - for stdout (default: the domain's task file when --count and "
        "--seed are not given, else stdout)",
    )
    return parser, run


def _run_file_defaults(run: argparse.ArgumentParser, argv: Sequence[str]) -> Any:
    """Load ``--config`` (if given) and make its ``[run]`` table the run command's defaults."""
    from simulator.models.options import load_config

    path = None
    for i, arg in enumerate(argv):
        if arg == "--config" and i + 1 < len(argv):
            path = argv[i + 1]
        elif arg.startswith("--config="):
            path = arg.partition("=")[2]
    if path is None or not argv or argv[0] != "run":
        return None
    config = load_config(path)
    actions = {a.dest: a for a in run._actions}
    defaults: dict[str, Any] = {}
    for key, value in config.run.items():
        dest = key.replace("-", "_")
        action = actions.get(dest)
        if action is None or dest in ("config", "resume", "agent_arg", "user_arg", "help"):
            raise UsageError(f"--config {path}: [run] has unknown setting {key!r}")
        if isinstance(value, list):
            value = ",".join(str(v) for v in value)
        if action.nargs == 0:  # a switch such as --quiet
            defaults[dest] = bool(value)
            continue
        try:
            defaults[dest] = action.type(value) if callable(action.type) else str(value)
        except (TypeError, ValueError):
            raise UsageError(f"--config {path}: [run] {key} = {value!r} is not valid") from None
    run.set_defaults(**defaults)
    return config


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tau-sim`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser, run = _parsers()
    try:
        run_file = _run_file_defaults(run, argv)
    except UsageError as exc:
        print(f"tau-sim: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    args = parser.parse_args(argv)
    args.run_file = run_file
    try:
        if args.command == "run":
            return _cmd_run(args)
        if args.command == "report":
            return _cmd_report(args)
        if args.command == "runs":
            return _cmd_runs(args)
        if args.command == "rescore":
            return _cmd_rescore(args)
        return _cmd_domains(args)
    except (UsageError, BaseExceptionGroup) as exc:
        usage = _usage_error(exc)
        if usage is None:
            raise
        print(f"tau-sim: error: {usage}", file=sys.stderr)
        return EXIT_USAGE


def _usage_error(exc: BaseException) -> UsageError | None:
    """The ``UsageError`` behind ``exc`` (task groups wrap what their tasks raise)."""
    if isinstance(exc, UsageError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            found = _usage_error(inner)
            if found is not None:
                return found
    return None


def _config_from_args(args: argparse.Namespace) -> Any:
    from simulator.conditions import parse_intensity, parse_levels
    from simulator.grid import RunConfig
    from simulator.models.options import parse_key_values
    from simulator.referee import Limits
    from simulator.registry import get_domain
    from simulator.runner import normalize_emotions, select_tasks, task_pool

    run_file = args.run_file

    def role_table(role: str) -> dict[str, Any]:
        table = getattr(run_file, role, {}) if run_file is not None else {}
        return {k: v for k, v in table.items() if not isinstance(v, dict)}

    if args.concurrency < 1:
        raise UsageError(f"--concurrency must be at least 1 (got {args.concurrency})")
    domain = get_domain(args.domain)
    pool = task_pool(domain, args.tasks_file)
    where = args.tasks_file or f"domain {domain.name!r}"
    tasks = select_tasks(pool, args.tasks, where)
    return RunConfig(
        domain=args.domain,
        tasks=tasks,
        tasks_file=str(Path(args.tasks_file).resolve()) if args.tasks_file else None,
        agents=_csv(args.agent),
        users=_csv(args.user),
        emotions=normalize_emotions(_csv(args.emotions)),
        intensities=[parse_intensity(x) for x in _csv(args.intensities)],
        politeness=parse_levels("politeness", args.politeness),
        urgency=parse_levels("urgency", args.urgency),
        trust=parse_levels("trust", args.trust),
        trials=args.trials,
        seed=args.seed,
        concurrency=args.concurrency,
        workers=args.workers,
        limits=Limits(
            max_steps=args.max_steps, max_tool_errors=args.max_tool_errors, timeout_s=args.timeout
        ),
        agent_args={**role_table("agent"), **parse_key_values(args.agent_arg, "--agent-arg")},
        user_args={**role_table("user"), **parse_key_values(args.user_arg, "--user-arg")},
        model_args=dict(run_file.models) if run_file is not None else {},
    )


def _cmd_run(args: argparse.Namespace) -> int:
    from simulator.grid import RunConfig, new_run_id
    from simulator.runner import Runner, backend_options
    from simulator.store import Store, get_run

    if args.resume:
        store = Store(args.db)
        run = get_run(store.db, args.resume)
        if run["status"] == "completed":
            raise UsageError(f"--resume: run {run['id']} is already completed")
        config = msgspec.json.decode(run["config"], type=RunConfig)
        if args.concurrency != 32:
            config = msgspec.structs.replace(config, concurrency=args.concurrency)
        if args.workers != 1:
            config = msgspec.structs.replace(config, workers=args.workers)
        run_id = run["id"]
    else:
        config = _config_from_args(args)
        store = Store(args.db)
        run_id = new_run_id()
    from simulator.progress import RunProgress

    progress = RunProgress(enabled=not args.quiet and not args.json)

    def started(already_done: int) -> None:
        progress.start(runner.total, already_done)

    runner = Runner(
        store,
        config,
        run_id,
        on_end=progress.conversation_ended,
        create=not args.resume,
        on_start=started,
    )
    try:
        anyio.run(runner.run, backend_options=backend_options())
    finally:
        progress.stop()
    code = EXIT_INTERRUPTED if runner.interrupted else 0
    if runner.interrupted:
        print(
            f"tau-sim: interrupted; resume with: tau-sim run --resume {run_id} --db {args.db}",
            file=sys.stderr,
        )
    _print_report(store.db, run_id, as_json=args.json)
    store.close_sync()
    return code


def _print_report(db: Any, run_id: str | None, *, as_json: bool) -> None:
    from simulator.metrics import run_report
    from simulator.report import render_report
    from simulator.store import get_run

    report = run_report(db, get_run(db, run_id))
    if as_json:
        print(json.dumps(report, indent=2))
    else:
        render_report(report)


def _cmd_report(args: argparse.Namespace) -> int:
    from simulator.store import open_database

    db = open_database(args.db, create=False)
    _print_report(db, args.run_id, as_json=args.json)
    return 0


def _cmd_rescore(args: argparse.Namespace) -> int:
    from simulator.rescore import render_rescore, rescore_run
    from simulator.store import open_database

    db = open_database(args.db, create=False)
    result = rescore_run(db, args.run_id, write=args.write)
    if args.json:
        print(json.dumps(msgspec.to_builtins(result), indent=2))
    else:
        print(render_rescore(result))
    return 0


def _cmd_runs(args: argparse.Namespace) -> int:
    from simulator.report import render_runs
    from simulator.store import open_database

    db = open_database(args.db, create=False)
    render_runs(db)
    return 0


def _cmd_domains(args: argparse.Namespace) -> int:
    from simulator.domain import dump_tasks, encode_task
    from simulator.registry import DOMAINS, get_domain, load_plugins
    from simulator.report import render_domain, render_domains

    load_plugins()
    command = args.domains_command or "list"
    if command == "list":
        render_domains([get_domain(name) for name in DOMAINS.names()])
    elif command == "show":
        render_domain(get_domain(args.name))
    else:
        domain = get_domain(args.name)
        if args.count is not None and args.count < 1:
            raise UsageError(f"--count must be at least 1 (got {args.count})")
        out = args.out
        if out is None:
            own = args.count is None and args.seed is None and domain.tasks_path is not None
            out = str(domain.tasks_path) if own else "-"
        tasks = domain.generate_tasks(args.count, args.seed)
        if out == "-":
            sys.stdout.buffer.write(b"".join(encode_task(t) for t in tasks))
            sys.stdout.flush()
        else:
            dump_tasks(tasks, Path(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
