"""``tau-sim run``: check a grid, play it into the store, print its report; and how runs end.

``error_share_exit`` and ``remove_unused`` are shared with the commands that play runs under
a screen (``tau-sim tui``, ``human``). What only playing needs (``run.runner`` and the rest) is
imported inside ``run``, so that the other commands start without it.
"""

from __future__ import annotations

import argparse
import json
import signal
import sqlite3
import sys
from argparse import SUPPRESS
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from tau_sim.simulator.cli.errors import EXIT_INTERRUPTED, usage_error
from tau_sim.simulator.cli.report import print_report
from tau_sim.simulator.cli.resume import resume_config, resume_keys, resume_settings
from tau_sim.simulator.cli.run_options import add_run_arguments
from tau_sim.simulator.cli.settings import configure_run, file_option_error
from tau_sim.simulator.core.errors import OptionError, StoreError, UsageError
from tau_sim.simulator.core.infra import EXIT_ENDPOINT_ERRORS, run_error_share, share_line
from tau_sim.simulator.core.registry import Command
from tau_sim.simulator.grid.cells import new_run_id
from tau_sim.simulator.grid.config import RunConfig
from tau_sim.simulator.grid.keys import seal_keys
from tau_sim.simulator.store.runs import Store

if TYPE_CHECKING:
    from tau_sim.simulator.run.runner import Runner


def run(args: argparse.Namespace) -> int:
    """Play a new run (or ``--resume`` one) and print its report; the exit code says how it went."""
    from tau_sim.simulator.run.player import Player, backend_options
    from tau_sim.simulator.run.progress import RunProgress
    from tau_sim.simulator.run.ray_actors import check_run
    from tau_sim.simulator.run.runner import Runner

    resume = "resume" in args
    if resume:
        settings = resume_settings(args)
        keys = resume_keys(args)
        store = Store(settings["db"], create=False)
        fresh = False
        config, run_id = resume_config(args, store, keys)
        player = None
    else:
        if "keep_errors" in args:
            raise UsageError("--keep-errors goes with --resume (a new run has nothing to keep)")
        settings, config = configure_run(args)
        run_id = new_run_id()
        # everything is checked (and gold paths replayed) before the store is opened
        config = seal_keys(config)
        try:
            player = Player(config, run_id)
        except OptionError as exc:
            raise file_option_error(exc, args) from None
        _check_auto_workers(settings, player)
        check_run(config, player.providers)
        player.prepare()
        if getattr(args, "dry_run", False):
            return _dry_run(player, as_json=settings["json"])
        fresh = not Path(settings["db"]).exists()
        store = Store(settings["db"])
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
            remove_unused(store, settings["db"])  # this command made it and stored nothing
        fault = usage_error(exc) if isinstance(exc, StoreError | BaseExceptionGroup) else None
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
    print_report(store.db, run_id, as_json=settings["json"], count_errors=settings["count_errors"])
    if not runner.interrupted:
        code = error_share_exit(store.db, run_id, runner.config, settings)
    store.close_sync()
    return code


COMMAND = Command(
    "run",
    "run a benchmark grid and store every event",
    add_run_arguments,
    run,
    parser_options={
        "argument_default": SUPPRESS,
        "epilog": "exit codes: 0 done; 2 bad input (nothing stored); 3 more than "
        "--max-error-share of the conversations hit endpoint errors (HTTP errors, timeouts, "
        "dropped connections, malformed bodies) or user-simulator errors (empty turns, the "
        "same message over and over): results exclude them, --resume plays them again; 130 "
        "interrupted",
    },
)


def error_share_exit(db: Any, run_id: str, config: RunConfig, settings: dict[str, Any]) -> int:
    """Exit code 3 (and the summary on stderr) when too many conversations hit errors.

    Those are endpoint and user-simulator errors. A smaller share is reported on stderr as a
    warning, with exit code 0.
    """
    share = run_error_share(db, run_id)
    if not share.excluded:
        return 0
    resume = f"tau-sim run --resume {run_id} --db {settings['db']}"
    line = share_line(share, resume, counted=settings["count_errors"])
    too_many = share.share > config.max_error_share
    print(f"tau-sim: {'error' if too_many else 'warning'}: {line}", file=sys.stderr)
    return EXIT_ENDPOINT_ERRORS if too_many else 0


def remove_unused(store: Store, db: str) -> None:
    """Close and delete a database file this command created but stored no run in.

    A new run that fails before its row is written (a bad option a provider found, an
    endpoint that did not answer the preflight, Ctrl-C during start-up) leaves no file behind.
    """
    store.close_sync()
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(db + suffix).unlink(missing_ok=True)


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
    from tau_sim.simulator.run.estimate import dry_run_plan, judge_line

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
