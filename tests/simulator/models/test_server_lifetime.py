"""No server that ``tau-sim run`` starts outlives it, on every way the CLI can end.

Each test starts the real CLI as a subprocess with a marker in its environment (inherited by
every process it starts, the servers' own children too), waits until its server listens, ends
the CLI one way (signals, ``kill -9``, a start-up that fails) and polls ``/proc`` until no
process with the marker is left. The stand-in for vLLM is a fake ``vllm`` executable on the
vLLM provider's command line that runs the tiny test server ignoring SIGTERM (as a server busy
computing does) and with a child of its own (as vLLM's engine processes are); the real
llama.cpp server plays the embedded model where it is installed.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers.cli import TAU_SIM
from tests.helpers.require import missing

TINY = str(Path(__file__).parents[2] / "helpers" / "tiny_server.py")
MARKER = "TAU_SIM_LIFETIME_TEST"

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")

needs_llama = pytest.mark.skipif(
    missing("llama_cpp", "LOCAL"),
    reason="llama-cpp-python is not installed: pip install 'tau-sim[local]'",
)


def marked(marker: str) -> dict[int, str]:
    """Every live process whose environment holds ``MARKER=marker``: pid -> command line."""
    tag = f"{MARKER}={marker}".encode()
    found: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as fh:
                if tag not in fh.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/stat", "rb") as fh:
                state = fh.read().rsplit(b")", 1)[1].split()[0]
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                command = fh.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # gone meanwhile, or not ours to read
        if state != b"Z":
            found[int(entry)] = command
    return found


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds:g} s: {what}")
        time.sleep(0.05)


def fake_vllm(tmp_path: Path, *flags: str) -> Path:
    """A ``vllm`` executable that serves the tiny server (``serve MODEL`` dropped)."""
    fake = tmp_path / "vllm"
    joined = " ".join(flags)
    fake.write_text(
        '#!/bin/sh\n[ "$1" = serve ] || exit 2\nshift 2\n'
        f'exec {sys.executable} {TINY} "$@" {joined}\n'
    )
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    return fake


def start_cli(tmp_path: Path, agent: list[str]) -> tuple[subprocess.Popen[bytes], str]:
    """The CLI playing one retail task with ``agent``; (its process, its marker)."""
    marker = uuid.uuid4().hex
    command = [
        *TAU_SIM,
        *("run", "--domain", "retail", "--tasks", "1", "--user", "scripted", "--quiet"),
        *agent,
        *("--agent-arg", f"log_dir={tmp_path / 'logs'}", "--agent-arg", "stop_grace=2"),
        *("--db", str(tmp_path / "runs.db")),
    ]
    env = {**os.environ, MARKER: marker}
    with (tmp_path / "cli.log").open("wb") as log:
        cli = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    return cli, marker


def listening(tmp_path: Path, line: str) -> Callable[[], bool]:
    def check() -> bool:
        logs = tmp_path / "logs"
        return logs.is_dir() and any(line in p.read_text() for p in logs.glob("*.log"))

    return check


def end_cli(cli: subprocess.Popen[bytes], how: list[signal.Signals]) -> None:
    """Send the signals in ``how`` (a second apart), then wait for the CLI to exit."""
    for i, sig in enumerate(how):
        if i:
            time.sleep(1.0)  # the scenario: a later signal while the first one's stop runs
        if cli.poll() is None:
            cli.send_signal(sig)
    cli.wait(timeout=60)


def assert_nothing_left(marker: str, seconds: float = 30.0) -> None:
    try:
        wait_for(lambda: not marked(marker), seconds, "every process of the run is gone")
    finally:
        for pid in marked(marker):  # never leave one behind for the next test
            os.kill(pid, signal.SIGKILL)


SIG = signal.Signals
EXIT_PATHS = {
    "sigint": [SIG.SIGINT],
    "three-sigints": [SIG.SIGINT, SIG.SIGINT, SIG.SIGINT],
    "sigint-then-sigterm": [SIG.SIGINT, SIG.SIGTERM],
    "sigterm": [SIG.SIGTERM],
    "sighup": [SIG.SIGHUP],
    "kill-9": [SIG.SIGKILL],
}


@pytest.mark.parametrize("how", EXIT_PATHS.values(), ids=EXIT_PATHS.keys())
def test_a_stand_in_vllm_never_outlives_the_cli(tmp_path: Path, how: list[signal.Signals]) -> None:
    fake = fake_vllm(tmp_path, "--delay", "120", "--ignore-term", "--spawn-child")
    agent = ["--agent", "vllm/Qwen/Qwen3-8B", "--agent-arg", f"vllm={fake}"]
    cli, marker = start_cli(tmp_path, [*agent, "--agent-arg", "gpus=0"])
    try:
        wait_for(listening(tmp_path, "tiny_server: listening"), 60, "the server listens")
        child = lambda: any(c.startswith("sleep") for c in marked(marker).values())  # noqa: E731
        wait_for(child, 10, "the server's child runs")
        before = marked(marker)
        assert any("tiny_server.py" in c for c in before.values()), before
        end_cli(cli, how)
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()
    assert_nothing_left(marker)


def test_a_server_that_fails_its_start_up_is_stopped(tmp_path: Path) -> None:
    fake = fake_vllm(tmp_path, "--unhealthy", "--ignore-term", "--spawn-child")
    agent = ["--agent", "vllm/Qwen/Qwen3-8B", "--agent-arg", f"vllm={fake}"]
    agent += ["--agent-arg", "gpus=0", "--agent-arg", "startup_timeout=3"]
    cli, marker = start_cli(tmp_path, agent)
    try:
        wait_for(listening(tmp_path, "tiny_server: listening"), 60, "the server listens")
        assert cli.wait(timeout=60) == 2
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()
    assert "was not healthy after 3 s" in (tmp_path / "cli.log").read_text()
    assert_nothing_left(marker)


REAL_PATHS = {"sigint-then-sigterm": EXIT_PATHS["sigint-then-sigterm"], "kill-9": [SIG.SIGKILL]}


@needs_llama
@pytest.mark.local_model
@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize("how", REAL_PATHS.values(), ids=REAL_PATHS.keys())
def test_the_real_llama_server_never_outlives_the_cli(
    tmp_path: Path, how: list[signal.Signals]
) -> None:
    cli, marker = start_cli(tmp_path, ["--agent", "local/smollm2-135m"])
    try:
        # a request is in flight once the server has answered the health check
        wait_for(listening(tmp_path, '"GET /v1/models HTTP/1.1" 200'), 240, "llama.cpp is up")
        before = marked(marker)
        assert any("models.llama_server" in c for c in before.values()), before
        end_cli(cli, how)
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.wait()
    assert_nothing_left(marker)
