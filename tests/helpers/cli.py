"""The real ``tau-sim`` command in a subprocess, as the tests run it.

``TAU_SIM`` is the command line (this interpreter, ``-m tau_sim.simulator.cli.main``) for tests
that start the process themselves (``Popen``, a closed stdout); ``tau_sim`` runs it to the end
and returns its output; ``one_line_error`` and ``run_error`` check a refusal: its exit status,
one line on stderr that starts ``tau-sim: error: ``, no traceback. ``report`` reads a
store's report as JSON; ``GRID`` and ``SMALL`` are the grids the CLI's run, resume and storage
tests play, and ``wait_for_completed`` polls a store a running command writes.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, overload

TAU_SIM = [sys.executable, "-m", "tau_sim.simulator.cli.main"]
TIMEOUT = 120
"""Seconds one ``tau_sim`` call may take."""

GRID = [
    "--tasks",
    "6",
    "--agent",
    "scripted/oracle,scripted/over-asker",
    "--emotions",
    "neutral,anger",
    "--intensities",
    "high",
    "--trials",
    "2",
    "--seed",
    "3",
]

# The interruption tests: the smallest grid that still has conversations finished, in flight
# and not started when the signal arrives (12 conversations, 2-3 at a time, 50 ms per call).
SMALL = [
    "--tasks",
    "3",
    "--agent",
    "scripted/gold,scripted/over-asker",
    "--emotions",
    "neutral,anger",
    "--intensities",
    "high",
    "--seed",
    "3",
]
SMALL_CELLS = 12
ALL_AT_ONCE = ["--concurrency", str(SMALL_CELLS)]
"""For a resume of a slowed ``SMALL`` run: every remaining conversation at once."""


@overload
def tau_sim(
    *args: str,
    check: bool = ...,
    clean: bool = ...,
    env: Mapping[str, str] | None = ...,
    text: Literal[True] = ...,
    timeout: float = ...,
    **kw: Any,
) -> subprocess.CompletedProcess[str]: ...


@overload
def tau_sim(
    *args: str,
    check: bool = ...,
    clean: bool = ...,
    env: Mapping[str, str] | None = ...,
    text: Literal[False],
    timeout: float = ...,
    **kw: Any,
) -> subprocess.CompletedProcess[bytes]: ...


def tau_sim(
    *args: str,
    check: bool = True,
    clean: bool = False,
    env: Mapping[str, str] | None = None,
    text: bool = True,
    timeout: float = TIMEOUT,
    **kw: Any,
) -> subprocess.CompletedProcess[Any]:
    """Run ``tau-sim ARGS`` to its end, capturing stdout and stderr (str, or bytes if not
    ``text``); ``env`` None inherits this process's environment; ``kw`` goes to
    ``subprocess.run`` (``input=...``).

    ``check`` (the default) raises ``AssertionError`` naming the exit status and stderr where
    the command does not exit 0; ``clean`` asserts that stderr holds no Python traceback,
    whatever the exit status.
    """
    out = subprocess.run(
        [*TAU_SIM, *args], capture_output=True, text=text, timeout=timeout, env=env, **kw
    )
    if check and out.returncode != 0:
        raise AssertionError(f"exit {out.returncode}: {out.stderr}")
    if clean:
        stderr = out.stderr if text else out.stderr.decode(errors="replace")
        assert "Traceback" not in stderr, stderr
    return out


def one_line_error(out: subprocess.CompletedProcess[str], code: int = 2) -> str:
    """The one error line of a refused command that exited ``code``, after checking it is one
    line starting ``tau-sim: error: `` and that no traceback was printed."""
    assert "Traceback" not in out.stderr, out.stderr
    assert out.returncode == code, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tau-sim: error: "), out.stderr
    return lines[0]


def run_error(
    *args: str, code: int = 2, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``tau-sim ARGS`` expecting a one-line refusal with exit ``code`` (see
    ``one_line_error``); returns the finished process."""
    out = tau_sim(*args, check=False, env=env)
    one_line_error(out, code)
    return out


def report(db: Path, run_id: str | None = None) -> dict[str, Any]:
    """``tau-sim report --json`` of the store ``db`` (its latest run, or ``run_id``)."""
    args = ["report", "--json", "--db", str(db)] + ([run_id] if run_id else [])
    data: dict[str, Any] = json.loads(tau_sim(*args).stdout)
    return data


def wait_for_completed(db: Path, at_least: int, timeout: float = 60) -> int:
    """Poll the run's database until ``at_least`` conversations completed."""
    deadline = time.time() + timeout
    done = 0
    while time.time() < deadline:
        time.sleep(0.2)
        if not db.exists():
            continue
        try:
            conn = sqlite3.connect(db, timeout=5)
            done = conn.execute(
                "select count(*) from conversations where status='completed'"
            ).fetchone()[0]
            conn.close()
        except sqlite3.OperationalError:
            continue
        if done >= at_least:
            break
    return done
