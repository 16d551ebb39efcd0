"""The ``tau-sim`` console script's first code: a stop signal while the CLI loads is one line.

Importing the CLI and its libraries takes a few tenths of a second; a Ctrl-C then would print
Python's traceback, and SIGTERM or SIGHUP would kill the process without a word. This module
sits in the ``tau_sim`` package itself, whose ``__init__`` imports nothing, so the console
script runs no project code before it: it takes SIGINT, SIGTERM and SIGHUP, loads the CLI
(``simulator`` and sqlite-utils with it), gives the signals back, and runs it. A signal while
loading prints one line and exits 128 + its number (Ctrl-C 130, SIGTERM 143, SIGHUP 129).
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

LOADING_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def _interrupted_while_loading(signum: int, frame: FrameType | None) -> None:
    try:
        sys.stderr.write("tau-sim: interrupted while starting; nothing was stored\n")
        sys.stderr.flush()
    except OSError:  # a closed terminal (SIGHUP) takes no output
        pass
    os._exit(128 + signum)


def main() -> int:
    """Load the CLI with the stop signals taken, then run it with their handling restored."""
    previous = {s: signal.signal(s, _interrupted_while_loading) for s in LOADING_SIGNALS}
    from tau_sim.simulator.cli.main import main as cli_main

    for signum, handler in previous.items():
        signal.signal(signum, handler)
    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
