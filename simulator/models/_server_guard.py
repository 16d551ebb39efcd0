"""The parent of one server that tau-sim starts: it ends the server when tau-sim is gone.

Run by path (``python -I -S _server_guard.py GRACE -- ARGV...``, stdlib only) as the leader of
the server's process group. It starts ``ARGV`` (stdin from /dev/null, output inherited) with
Linux's parent-death signal set to SIGKILL, so the server never outlives the guard, then waits
for the first of:

- the end of its stdin: tau-sim holds the only writing end of that pipe, so it closes when
  tau-sim exits in any way, ``kill -9`` and the OOM killer included;
- a new parent process id (tau-sim died and the guard was re-parented);
- SIGTERM, SIGINT or SIGHUP;
- the server exiting by itself.

Then it sends SIGTERM to its whole process group (the server and whatever the server started,
a vLLM engine's workers included), gives them ``GRACE`` seconds, SIGKILLs every one still there
and exits with the server's exit status (128 + the signal where a signal ended it).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import select
import signal
import subprocess
import sys
import time
from types import FrameType

_PR_SET_PDEATHSIG = 1
_POLL_S = 0.1
_stop_requested = False


def _on_signal(signum: int, frame: FrameType | None) -> None:
    global _stop_requested
    _stop_requested = True


def _die_with_guard() -> None:
    """In the server's child before exec: SIGKILL it when the guard dies."""
    ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def _group_members(pgid: int) -> list[int]:
    """The pids of the process group ``pgid`` other than this process (read from /proc)."""
    members: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        state, group = fields[0], int(fields[2])
        if group == pgid and state != b"Z":
            members.append(int(entry))
    return members


def _kill_group(pgid: int, sig: signal.Signals) -> None:
    for pid in _group_members(pgid):
        with contextlib.suppress(OSError):
            os.kill(pid, sig)


def _stop(server: subprocess.Popen[bytes], grace_s: float) -> int:
    """SIGTERM the group, SIGKILL what is left after ``grace_s``; the server's exit status."""
    pgid = os.getpgid(0)
    _kill_group(pgid, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        server.poll()
        if server.returncode is not None and not _group_members(pgid):
            break
        time.sleep(0.05)
    _kill_group(pgid, signal.SIGKILL)
    code = server.wait()
    return 128 - code if code < 0 else code


def main(argv: list[str]) -> int:
    """Start the server of ``argv`` (``GRACE -- COMMAND...``) and guard it; its exit status."""
    grace_s = float(argv[0])
    command = argv[2:]
    parent = os.getppid()
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, _on_signal)
    try:
        server = subprocess.Popen(command, stdin=subprocess.DEVNULL, preexec_fn=_die_with_guard)
    except OSError as exc:
        print(f"tau-sim: cannot start {command[0]!r}: {exc}", flush=True)
        return 127
    stdin = sys.stdin.fileno()
    while not _stop_requested and server.poll() is None and os.getppid() == parent:
        try:
            readable, _, _ = select.select([stdin], [], [], _POLL_S)
        except InterruptedError:
            continue
        if readable and not os.read(stdin, 4096):
            break  # tau-sim is gone (or asks the server to stop)
    return _stop(server, grace_s)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
