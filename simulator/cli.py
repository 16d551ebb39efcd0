"""The ``tau-sim`` command line: run, report, runs, domains."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import anyio
import msgspec

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


def _key_values(pairs: Sequence[str], flag: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"{flag}: expected key=value, got {pair!r}")
        out[key.strip()] = value.strip()
    return out


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every sub-command."""
    parser = _Parser(prog="tau-sim", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser("run", help="run a benchmark grid and store every event")
    run.add_argument("--domain", default="retail", help="domain name (see `tau-sim domains`)")
    run.add_argument("--tasks", default=None, help="N (first N tasks) or comma-separated ids")
    run.add_argument("--tasks-file", default=None, help="run the tasks of a JSONL file instead")
    run.add_argument("--agent", default="scripted/oracle", help="comma-separated model names")
    run.add_argument("--user", default="scripted", help="comma-separated user names")
    run.add_argument("--emotions", default="neutral", help="comma-separated emotions or families")
    run.add_argument("--intensities", default="medium", help="low,medium,high or numbers in 0..1")
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
    run.add_argument("--db", default=DEFAULT_DB, help="SQLite file (default ./tau-sim.db)")
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.add_argument("--json", action="store_true", help="print the final report as JSON")

    report = sub.add_parser("report", help="pass^k and success by condition for a run")
    report.add_argument("run_id", nargs="?", help="run id (default: the latest run)")
    report.add_argument("--db", default=DEFAULT_DB)
    report.add_argument("--json", action="store_true", help="print one JSON object")

    runs = sub.add_parser("runs", help="list the runs in a database")
    runs.add_argument("--db", default=DEFAULT_DB)

    domains = sub.add_parser("domains", help="list domains, show one, or regenerate its tasks")
    dsub = domains.add_subparsers(dest="domains_command", parser_class=_Parser)
    dsub.add_parser("list", help="list the domains")
    show = dsub.add_parser("show", help="tools, intents and task count of a domain")
    show.add_argument("name")
    gen = dsub.add_parser("generate", help="sample tasks from a domain's intents (JSONL)")
    gen.add_argument("name")
    gen.add_argument("--count", type=int, default=48)
    gen.add_argument("--seed", type=int, default=0)
    gen.add_argument("--out", default="-", help="file to write, - for stdout")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tau-sim`` console script."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "run":
            return _cmd_run(args)
        if args.command == "report":
            return _cmd_report(args)
        if args.command == "runs":
            return _cmd_runs(args)
        return _cmd_domains(args)
    except UsageError as exc:
        print(f"tau-sim: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


def _config_from_args(args: argparse.Namespace) -> Any:
    from simulator.referee import Limits
    from simulator.registry import get_domain
    from simulator.runner import (
        RunConfig,
        normalize_emotions,
        parse_intensity,
        select_tasks,
        task_pool,
    )

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
        trials=args.trials,
        seed=args.seed,
        concurrency=args.concurrency,
        workers=args.workers,
        limits=Limits(
            max_steps=args.max_steps, max_tool_errors=args.max_tool_errors, timeout_s=args.timeout
        ),
        agent_args=_key_values(args.agent_arg, "--agent-arg"),
        user_args=_key_values(args.user_arg, "--user-arg"),
    )


def _cmd_run(args: argparse.Namespace) -> int:
    from simulator.runner import RunConfig, Runner, backend_options, grid, new_run_id
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

    total = sum(1 for _ in grid(config))
    progress = RunProgress(total, enabled=not args.quiet and not args.json)
    runner = Runner(store, config, run_id, on_end=progress.conversation_ended)
    if not args.resume:
        store.create_run(run_id, config.seed, msgspec.json.encode(config).decode(), total)
    with progress:
        progress.advance_done(total - len(runner.pending_cells()))
        anyio.run(runner.run, backend_options=backend_options())
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


def _cmd_runs(args: argparse.Namespace) -> int:
    from simulator.report import render_runs
    from simulator.store import open_database

    db = open_database(args.db, create=False)
    render_runs(db)
    return 0


def _cmd_domains(args: argparse.Namespace) -> int:
    from simulator.domain import dump_tasks
    from simulator.registry import DOMAINS, get_domain, load_plugins
    from simulator.report import render_domain, render_domains

    load_plugins()
    command = args.domains_command or "list"
    if command == "list":
        render_domains([get_domain(name) for name in sorted(DOMAINS)])
    elif command == "show":
        render_domain(get_domain(args.name))
    else:
        domain = get_domain(args.name)
        if args.count < 1:
            raise UsageError(f"--count must be at least 1 (got {args.count})")
        tasks = domain.generate_tasks(args.count, args.seed)
        if args.out == "-":
            for task in tasks:
                print(msgspec.json.encode(task).decode())
        else:
            dump_tasks(tasks, Path(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
