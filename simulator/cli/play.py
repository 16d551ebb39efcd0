"""What ``tau-sim run`` does once parsed: check, play into the store, print the report, exit.

The CLI imports this module (the runner, the player, the signals and the report with it) only
when ``tau-sim run`` runs.
"""

from __future__ import annotations

import argparse
import json
import signal
import sqlite3
import sys
from contextlib import suppress
from pathlib import Path
from typing import Any

import anyio

from tau_sim.simulator.cli.endings import error_share_exit, remove_unused
from tau_sim.simulator.cli.errors import exit_code_of, leaves, silence_output, usage_error
from tau_sim.simulator.cli.reporting import print_report
from tau_sim.simulator.cli.resume import resume_config, resume_keys, resume_settings
from tau_sim.simulator.cli.settings import configure_run, file_option_error
from tau_sim.simulator.core.errors import OptionError, StoreError, UsageError
from tau_sim.simulator.grid.cells import new_run_id
from tau_sim.simulator.run.estimate import dry_run_plan, judge_line
from tau_sim.simulator.run.player import backend_options
from tau_sim.simulator.run.preparing import prepare_run
from tau_sim.simulator.run.progress import RunProgress
from tau_sim.simulator.run.runner import Runner
from tau_sim.simulator.run.signals import hold_signals, ignore_signals, stop_signal
from tau_sim.simulator.store.reads import get_run, played_seconds
from tau_sim.simulator.store.runs import Store


def play_run(args: argparse.Namespace) -> int:
    """Play a new run (or ``--resume`` one) and print its report; the exit code says how it went.

    SIGINT, SIGTERM and SIGHUP are taken before the store is opened and held until the process
    exits (``run.signals``): before the run's row is written the first one stops the start-up
    (nothing stored, ``main`` says so); after, it ends the run ``interrupted`` with what is
    stored (``_interrupted``), and the others change nothing.
    """
    try:
        return _run(args)
    finally:
        ignore_signals()  # if held: the process exits, a signal has nothing left to stop


def _run(args: argparse.Namespace) -> int:
    """``run`` but for what becomes of the signals once it returns."""
    resume = "resume" in args
    if resume:
        hold_signals(start_up=True)
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
        try:
            auto = str(settings.get("workers", "")).strip().lower() == "auto"
            player = prepare_run(config, run_id, auto_workers=auto)
        except OptionError as exc:
            raise file_option_error(exc, args) from None
        config = player.config
        if getattr(args, "dry_run", False):
            return _dry_run(player, as_json=settings["json"])
        hold_signals(start_up=True)
        fresh = not Path(settings["db"]).exists()
        store = Store(settings["db"])
    progress = RunProgress(enabled=not settings["quiet"] and not settings["json"])

    def started(already_done: int) -> None:
        assert runner is not None  # called by the runner itself
        earlier = played_seconds(get_run(store.db, run_id)) if resume else 0.0
        progress.start(runner.total, already_done, earlier)

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
        anyio.run(runner.run, backend_options=backend_options())
    except BaseException as exc:
        if fresh and (runner is None or not runner.created):
            remove_unused(store, settings["db"])  # this command made it and stored nothing
        if isinstance(exc, BaseExceptionGroup) and any(
            isinstance(leaf, KeyboardInterrupt) for leaf in leaves(exc)
        ):
            raise KeyboardInterrupt from None  # a signal in the start-up, in one of its tasks
        fault = usage_error(exc) if isinstance(exc, StoreError | BaseExceptionGroup) else None
        if runner is None or not isinstance(fault, StoreError) or not runner.created:
            raise
        raise StoreError(
            _stopped_by_fault(fault, store, runner.total, run_id, settings["db"])
        ) from None
    finally:
        with suppress(OSError):  # a terminal gone with SIGHUP: the run's outcome goes on
            progress.stop()
    if runner.interrupted:
        code = _interrupted(store, runner, settings)
    else:
        print_report(
            store.db, run_id, as_json=settings["json"], count_errors=settings["count_errors"]
        )
        code = error_share_exit(store.db, run_id, runner.config, settings)
        store.close_sync()
    return code


def _interrupted(store: Store, runner: Runner, settings: dict[str, Any]) -> int:
    """Say how many conversations an interrupted run stored (read back) and how to go on.

    Then the report of what is stored; exit 128 + the signal (``exit_code_of``: Ctrl-C 130,
    SIGTERM 143, SIGHUP 129). A terminal that is gone (SIGHUP) takes no
    output: it is dropped, the run stays stored as ``interrupted``.
    """
    stored = store.completed_count(runner.run_id)
    received = stop_signal()
    by = f" by {signal.Signals(received).name}" if received not in (None, signal.SIGINT) else ""
    try:
        print(
            f"tau-sim: interrupted{by}; {stored} of {runner.total} conversations are stored; "
            f"resume with: tau-sim run --resume {runner.run_id} --db {settings['db']}",
            file=sys.stderr,
        )
        print_report(
            store.db, runner.run_id, as_json=settings["json"], count_errors=settings["count_errors"]
        )
        sys.stdout.flush()
    except OSError:
        silence_output()
    store.close_sync()
    return exit_code_of(received)


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


def _dry_run(player: Any, *, as_json: bool) -> int:
    """Print what a run would play: its size and an estimate of its model calls; store nothing."""
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
