"""``tau-sim``'s entry: parse the command line, run the command, turn errors into exit codes.

``python -m tau_sim.simulator.cli.main ARGS`` runs it too (the tests do). The commands are
modules of this package (``parser.BUILT_IN``) and plugins' (``core.registry.COMMANDS``).
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Sequence

from tau_sim.simulator.cli.errors import (
    EXIT_BROKEN_PIPE,
    EXIT_STORAGE,
    EXIT_USAGE,
    exit_code_of,
    ignore_ctrl_c,
    leaves,
    silence_stdout,
    usage_error,
)
from tau_sim.simulator.cli.parser import build, commands
from tau_sim.simulator.core.errors import StoreError, UsageError
from tau_sim.simulator.store.opening import storage_fault


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tau-sim`` console script.

    Bad input is one line and exit 2; a closed stdout exits quietly with 141; Ctrl-C before a
    run starts is one line and 130 (SIGTERM 143, SIGHUP 129: 128 + the signal; a started run
    handles its own signals); anything else is one line asking for a report, exit 1 — never a
    traceback.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        return _main(argv)
    except BrokenPipeError:
        silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        ignore_ctrl_c()
        print("tau-sim: interrupted before the run started; nothing was stored", file=sys.stderr)
        return exit_code_of(_first_stop_signal())
    except Exception as exc:
        if any(isinstance(e, BrokenPipeError) for e in leaves(exc)):
            silence_stdout()
            return EXIT_BROKEN_PIPE
        print(
            f"tau-sim: error: unexpected {type(exc).__name__}: {exc} (please report this as a "
            "bug, with the command)",
            file=sys.stderr,
        )
        return 1


def _first_stop_signal() -> int | None:
    """The stop signal a run's start-up took (None: a plain Ctrl-C, or no run was starting)."""
    if "tau_sim.simulator.run.signals" not in sys.modules:
        return None
    from tau_sim.simulator.run.signals import stop_signal

    return stop_signal()


def _check_file_names(args: object) -> None:
    """A database flag given an empty name (``--db ""``) is bad input, not the folder ``.``."""
    for name in ("db", "db_b"):
        value = getattr(args, name, None)
        if value is not None and not str(value).strip():
            raise UsageError(f"--{name.replace('_', '-')}: the database file name is empty")


def _main(argv: list[str]) -> int:
    table = commands()
    parser, _ = build(table)
    args = parser.parse_args(argv)
    command = next(command for command in table if command.name == args.command)
    try:
        _check_file_names(args)
        return command.run(args)
    except (UsageError, StoreError, BaseExceptionGroup) as exc:
        usage = usage_error(exc)
        if usage is None:
            raise
        print(f"tau-sim: error: {usage}", file=sys.stderr)
        return EXIT_STORAGE if isinstance(usage, StoreError) else EXIT_USAGE
    except sqlite3.Error as exc:  # a read that failed past the checks on opening
        print(f"tau-sim: error: {storage_fault(args.db, exc)}", file=sys.stderr)
        return EXIT_STORAGE


if __name__ == "__main__":
    sys.exit(main())
