"""One server subprocess: spawn it in its own process group, probe its health, stop it for good.

The launcher (``launcher.py``) builds replicas and balancing on top of these helpers. Every
spawned process group is also remembered in a module-level set so that an ``atexit`` hook can
kill whatever a crashed event loop failed to stop; on Linux a guard (``_server_guard.py``)
stops the server when tau-sim dies without running any code (``kill -9``).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import anyio
from anyio.abc import Process

from tau_sim.simulator.core.errors import UsageError

# On Linux every server runs under a guard (``_server_guard.py``, run by path with the stdlib
# only) that ends it once tau-sim is gone, however tau-sim ended.
_GUARD = Path(__file__).with_name("_server_guard.py")
_SECRET_WORDS = frozenset({"key", "apikey", "token", "secret", "password"})
_LIVE_GROUPS: set[int] = set()


class LaunchError(UsageError):
    """A server could not be started or never became healthy."""


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that nothing listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def redact_argv(argv: Sequence[str]) -> list[str]:
    """The command line with the values of key/token/secret/password flags masked."""
    out: list[str] = []
    hide_next = False
    for arg in argv:
        if hide_next:
            out.append("***")
            hide_next = False
            continue
        flag, eq, _ = arg.partition("=")
        words = set(re.split(r"[-_]+", flag.lower()))
        secret = arg.startswith("-") and not words.isdisjoint(_SECRET_WORDS)
        if secret and eq:
            out.append(f"{flag}=***")
        else:
            out.append(arg)
            hide_next = secret
    return out


def log_tail(path: Path, max_lines: int = 30, max_bytes: int = 8192) -> str:
    """The last lines of a server log (empty when the file is missing)."""
    try:
        with path.open("rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - max_bytes))
            data = fh.read()
    except OSError:
        return ""
    lines = data.decode("utf-8", errors="replace").splitlines()
    return "\n".join(lines[-max_lines:])


async def spawn(
    argv: Sequence[str], env: Mapping[str, str], log_path: Path, grace_s: float = 10.0
) -> Process:
    """Start ``argv`` in a new session (its own process group), output appended to ``log_path``.

    The spawn is shielded from cancellation: a process that was forked is always returned, so
    the caller can always stop it. On Linux the process returned is the server's guard
    (``_server_guard``, the group's leader): its stdin is a pipe only this process writes to,
    so once tau-sim is gone (``kill -9`` too) the guard SIGTERMs the group, waits ``grace_s``
    and SIGKILLs what is left; the server itself dies with its guard.
    """
    if shutil.which(argv[0]) is None:
        raise LaunchError(f"cannot start {argv[0]!r}: no such executable")
    full_env = {**os.environ, "PYTHONUNBUFFERED": "1", **env}
    command = list(argv)
    if sys.platform == "linux":
        guard = [sys.executable, "-I", "-S", str(_GUARD), f"{grace_s:g}", "--"]
        command = [*guard, *command]
    with anyio.CancelScope(shield=True), log_path.open("ab") as log:
        log.write(f"=== tau-sim: {' '.join(redact_argv(argv))}\n".encode())
        log.flush()
        try:
            process = await anyio.open_process(
                command,
                # the guard's pipe, kept open until the process is stopped (closed with it)
                stdin=subprocess.PIPE if sys.platform == "linux" else subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=full_env,
                start_new_session=True,
            )
        except OSError as exc:
            raise LaunchError(f"cannot start {argv[0]!r}: {exc}") from exc
    _LIVE_GROUPS.add(process.pid)
    return process


async def probe(host: str, port: int, paths: Sequence[str], timeout_s: float = 2.0) -> bool:
    """Whether an HTTP GET of one of ``paths`` answers 2xx (tried in order)."""
    for path in paths:
        request = f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nConnection: close\r\n\r\n"
        status = 0
        with anyio.move_on_after(timeout_s):
            try:
                async with await anyio.connect_tcp(host, port) as stream:
                    await stream.send(request.encode())
                    head = b""
                    while b"\r\n" not in head and len(head) < 256:
                        head += await stream.receive(256)
            except (OSError, anyio.EndOfStream, anyio.BrokenResourceError):
                return False  # nothing listens yet: no point trying the other paths
            parts = head.split(b" ", 2)
            if len(parts) >= 2 and parts[1].isdigit():
                status = int(parts[1])
        if 200 <= status < 300:
            return True
    return False


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def _wait_group_gone(pgid: int) -> None:
    """Poll until no process of the group is left (children may outlive the leader)."""
    while _group_alive(pgid):  # noqa: ASYNC110 - no event exists for "a process group is empty"
        await anyio.sleep(0.05)


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


async def stop_process(process: Process, grace_s: float) -> None:
    """Stop the whole process group: SIGTERM, then SIGKILL after ``grace_s``; reap the leader."""
    pgid = process.pid
    with anyio.CancelScope(shield=True):
        if process.returncode is None or _group_alive(pgid):
            _signal_group(pgid, signal.SIGTERM)
            with anyio.move_on_after(grace_s):
                await process.wait()
                await _wait_group_gone(pgid)
            _signal_group(pgid, signal.SIGKILL)
        await process.aclose()
    _LIVE_GROUPS.discard(pgid)


def kill_group_now(pgid: int) -> None:
    """SIGKILL a process group synchronously (last resort when the event loop is gone)."""
    _signal_group(pgid, signal.SIGKILL)
    _LIVE_GROUPS.discard(pgid)


@atexit.register
def _kill_leftovers() -> None:
    for pgid in list(_LIVE_GROUPS):
        kill_group_now(pgid)
