"""The ``tau-sim`` console script's first code: Ctrl-C while the CLI loads exits 130 quietly.

Importing the CLI and its libraries takes a few tenths of a second; a Ctrl-C then would print
Python's traceback. This module sits in the ``tau_sim`` package itself, whose ``__init__``
imports nothing, so the console script runs no project code before it: it takes SIGINT, loads
the CLI (``simulator`` and sqlite-utils with it), gives the signal back, and runs it.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

EXIT_INTERRUPTED = 130


def _interrupted_while_loading(signum: int, frame: FrameType | None) -> None:
    sys.stderr.write("tau-sim: interrupted while starting; nothing was stored\n")
    sys.stderr.flush()
    os._exit(EXIT_INTERRUPTED)


def main() -> int:
    """Load the CLI with Ctrl-C taken, then run it with the default handling restored."""
    previous = signal.signal(signal.SIGINT, _interrupted_while_loading)
    from tau_sim.simulator.cli.main import main as cli_main

    signal.signal(signal.SIGINT, previous)
    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
