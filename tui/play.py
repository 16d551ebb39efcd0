"""What ``tau-sim tui`` and ``tau-sim human`` do once parsed: play under the screens, report.

A run (or ``--resume``) under the TUI, ``--attach`` to a stored one, or a session a person plays;
the exit code and what is printed once the screen closes are those of ``tau-sim run``. The CLI
imports this module (and textual with it) only when one of these commands runs
(``tui.commands``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from tau_sim.simulator.cli import (
    EXIT_INTERRUPTED,
    configure_run,
    error_share_exit,
    exit_code_of,
    flag,
    print_report,
    remove_unused,
    resume_config,
    resume_keys,
    resume_settings,
    silence_output,
)
from tau_sim.simulator.core import UsageError
from tau_sim.simulator.grid import new_run_id
from tau_sim.simulator.run import prepare_run, stop_signal
from tau_sim.simulator.store import DEFAULT_DB, Store
from tau_sim.tui.launch import attach, crash_line, watch_run
from tau_sim.tui.session import make_app, run_session, session_config
from tau_sim.tui.start import opens_start_screen, start_app


def play_tui(args: argparse.Namespace) -> int:
    """``tau-sim tui``: a new run (or ``--resume``) under the TUI, or ``--attach`` to one.

    The exit code and what is printed once the screen closes are those of ``tau-sim run``.
    """
    if "attach" in args:
        extra = [flag(d) for d in vars(args) if d not in ("command", "attach", "db")]
        if extra:
            raise UsageError(f"--attach follows a stored run; remove {', '.join(extra)}")
        attached = attach(getattr(args, "db", DEFAULT_DB), args.attach or None)
        if attached.crash is not None:
            print(crash_line(attached.crash, None), file=sys.stderr)
            return 1
        return 0
    settings, store, run_id, outcome = _tui_resume(args) if "resume" in args else _tui_new_run(args)
    if outcome.crash is not None:
        resume = f"tau-sim tui --resume {run_id} --db {settings['db']}" if outcome.created else None
        print(crash_line(outcome.crash, resume), file=sys.stderr)
        store.close_sync()
        return 1
    if outcome.error is not None:
        raise outcome.error
    try:
        if outcome.interrupted:
            print(
                f"tau-sim: interrupted; {_stored(store, run_id, outcome.total)}resume with: "
                f"tau-sim run --resume {run_id} --db {settings['db']}",
                file=sys.stderr,
            )
        print_report(
            store.db, run_id, as_json=settings["json"], count_errors=settings["count_errors"]
        )
        sys.stdout.flush()
    except OSError:  # the terminal is gone (SIGHUP): the run stays stored, resumable
        silence_output()
    code = _stopped_code()
    if not outcome.interrupted:
        code = error_share_exit(store.db, run_id, outcome.config, settings)
    store.close_sync()
    return code


def _stored(store: Store, run_id: str, total: int) -> str:
    """The "N of T conversations are stored; " of the interrupted line, N read from the file."""
    return f"{store.completed_count(run_id)} of {total} conversations are stored; "


def _tui_new_run(args: argparse.Namespace) -> tuple[Any, ...]:
    """Check a new run as ``tau-sim run`` does, then play it under the TUI."""
    for dest in ("dry_run", "keep_errors"):
        if dest in args:
            raise UsageError(f"{flag(dest)} goes with `tau-sim run`, not `tau-sim tui`")
    settings, config = configure_run(args)
    run_id = new_run_id()
    player = prepare_run(config, run_id)
    config = player.config
    fresh = not Path(settings["db"]).exists()
    store = Store(settings["db"])
    outcome = None
    try:
        outcome = watch_run(store, config, run_id, player)
    finally:
        if fresh and (outcome is None or not outcome.created):
            remove_unused(store, settings["db"])  # this command made it, stored nothing
    return settings, store, run_id, outcome


def _tui_resume(args: argparse.Namespace) -> tuple[Any, ...]:
    """Check ``--resume`` as ``tau-sim run`` does, then play the rest under the TUI."""
    settings = resume_settings(args)
    keys = resume_keys(args)
    store = Store(settings["db"], create=False)
    config, run_id = resume_config(args, store, keys)
    outcome = watch_run(store, config, run_id, resume=True, keep_errors=settings["keep_errors"])
    return settings, store, run_id, outcome


def play_human(args: argparse.Namespace) -> int:
    """``tau-sim human``: check the session as ``tau-sim run`` checks a run, then play it.

    Without a task the start screen chooses one first (``tui.start``); the session is then the
    one its choice's flags would start.
    """
    if args.resume:
        store = Store(args.db, create=False)
        keys: dict[str, dict[str, Any]] = {"--agent-arg": {}, "--user-arg": {}}
        config, run_id = resume_config(args, store, keys)
        outcome: Any = run_session(make_app(store, config, run_id, resume=True))
    else:
        if opens_start_screen(args):
            chosen = _choose(args)
            if isinstance(chosen, int):
                return chosen
            args = chosen
        config = session_config(args)
        run_id = new_run_id()
        player = prepare_run(config, run_id)
        config = player.config
        fresh = not Path(args.db).exists()
        store = Store(args.db)
        outcome = None
        try:
            outcome = run_session(make_app(store, config, run_id, player))
        finally:
            if fresh and (outcome is None or not outcome.created):
                remove_unused(store, args.db)
    if outcome.crash is not None:
        resume = f"tau-sim human --resume {run_id} --db {args.db}" if outcome.created else None
        print(crash_line(outcome.crash, resume), file=sys.stderr)
        store.close_sync()
        return 1
    if outcome.error is not None:
        raise outcome.error
    try:
        if outcome.interrupted:
            print(
                f"tau-sim: stopped; {_stored(store, run_id, outcome.total)}resume with: "
                f"tau-sim human --resume {run_id} --db {args.db}",
                file=sys.stderr,
            )
        print_report(store.db, run_id, as_json=False, count_errors=False)
        sys.stdout.flush()
    except OSError:  # the terminal is gone (SIGHUP): the session stays stored, resumable
        silence_output()
    store.close_sync()
    return _stopped_code() if outcome.interrupted else 0


def _stopped_code() -> int:
    """The exit status of a stopped screen: 130 where the person quit, else 128 + the signal.

    A closed terminal's SIGHUP gives 129, SIGTERM 143.
    """
    return exit_code_of(stop_signal())


def _choose(args: argparse.Namespace) -> argparse.Namespace | int:
    """The start screen: the options with the person's choice, or the exit code (quit, crash).

    The flags given are checked first (a bad one is the usual one-line error, exit 2), and each
    choice as its flags would be, on the screen.
    """
    session_config(args)
    app = start_app(args, lambda choice: session_config(choice.applied(args)))
    choice = app.run()
    if app.crash is not None:
        print(crash_line(app.crash, None), file=sys.stderr)
        return 1
    if choice is None:
        print("tau-sim: no task chosen; nothing was stored", file=sys.stderr)
        return EXIT_INTERRUPTED
    return choice.applied(args)
