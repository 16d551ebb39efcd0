"""The exit codes of ``tau-sim``, and the error behind what a command raised.

``main`` turns what a command raises into one line and an exit code: ``usage_error`` finds a
``UsageError`` or ``StoreError`` inside the exception groups of task groups.
"""

from __future__ import annotations

import os
import signal
import sys
from contextlib import suppress

from tau_sim.simulator.core.errors import StoreError, UsageError

EXIT_STORAGE = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
"""Ctrl-C (128 + SIGINT); ``exit_code_of`` gives the status of the other stop signals."""
EXIT_BROKEN_PIPE = 141
"""A closed stdout (``tau-sim runs | head -1``): quiet, like a shell's SIGPIPE exit (128 + 13)."""


def exit_code_of(signum: int | None) -> int:
    """The exit status of a command stopped by ``signum``: 128 + its number.

    Shells, ``timeout``, Slurm and Kubernetes read it so (SIGTERM 143, SIGHUP 129); 130 for
    Ctrl-C or when no signal is known.
    """
    return EXIT_INTERRUPTED if signum is None else 128 + signum


def usage_error(exc: BaseException) -> UsageError | StoreError | None:
    """The ``UsageError`` or ``StoreError`` behind ``exc`` (task groups wrap what tasks raise).

    A storage fault comes first: a run stopped by one also sees its other tasks cancelled.
    """
    if isinstance(exc, UsageError | StoreError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        found = [usage_error(inner) for inner in exc.exceptions]
        for kind in (StoreError, UsageError):
            for error in found:
                if isinstance(error, kind):
                    return error
    return None


def leaves(exc: BaseException) -> list[BaseException]:
    """The exceptions inside ``exc``'s groups (``exc`` itself when it is no group)."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in leaves(inner)]
    return [exc]


def ignore_ctrl_c() -> None:
    """Ignore further Ctrl-C while the process says why it stops and exits."""
    with suppress(ValueError):  # not the main thread
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def silence_output() -> None:
    """Point stdout and stderr at /dev/null: their terminal is gone, later writes must not fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            os.dup2(devnull, stream.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
