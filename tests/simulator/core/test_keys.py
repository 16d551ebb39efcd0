"""A literal API key is used and leaves no trace: not in the database, output or workers' stdin."""

import json
import os
import sqlite3
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import msgspec
import pytest

from benchmarks.fake_openai_server import HTTPServer
from tau_sim.simulator.cli import configure_run, parsers
from tau_sim.simulator.core import keys
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.keys import environ_key, worker_environment
from tau_sim.simulator.grid import reattach_keys, seal_keys
from tau_sim.simulator.run import STDIN_COPY_ENV, WorkOrder, encode_order
from tests.helpers import cli
from tests.helpers.servers import plausible_server

SECRET = "sk-test-SECRET"


@pytest.fixture
def endpoint() -> Iterator[HTTPServer]:
    """An OpenAI-compatible server on 127.0.0.1 (its own event loop in a thread)."""
    with plausible_server(latency=0.0, user_turns=3) as server:
        yield server


tau_sim = partial(cli.tau_sim, check=False, text=False)


def files_of(db: Path) -> list[Path]:
    """The database and its WAL and shared-memory files, those that exist."""
    found = [p for p in (db, Path(f"{db}-wal"), Path(f"{db}-shm")) if p.exists()]
    assert db in found
    return found


def test_a_literal_api_key_never_leaves_memory(endpoint: HTTPServer, tmp_path: Path) -> None:
    url = f"{endpoint.url}/v1"
    copies = tmp_path / "stdin"
    copies.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "TAU_SIM"))}
    env[STDIN_COPY_ENV] = str(copies)
    db = tmp_path / "secret.db"
    model = ["--agent", "openai/fake", "--user", "openai/fake"]
    keys = ["--agent-arg", f"api_key={SECRET}", "--user-arg", f"api_key={SECRET}"]
    urls = ["--agent-arg", f"base_url={url}", "--user-arg", f"base_url={url}"]
    grid = ["--tasks", "4", "--emotions", "anger", "--max-steps", "8", "--workers", "2"]
    out = tau_sim("run", *grid, *model, *keys, *urls, "--db", str(db), env=env)
    assert out.returncode == 0, out.stderr.decode()

    # the key was used: every request (the parent's preflight, both workers' calls) carried it
    chats = [r for r in endpoint.requests if r.method == "POST"]
    assert len(chats) >= 4 * 4  # each conversation: agent and user calls
    auth = {r.headers.get("authorization") for r in endpoint.requests}
    assert auth == {f"Bearer {SECRET}"}

    # ... and it is nowhere else: database files, output, what each worker read on stdin
    orders = sorted(copies.iterdir())
    assert len(orders) == 2
    for path in [*files_of(db), *orders]:
        assert SECRET.encode() not in path.read_bytes(), path
    assert SECRET.encode() not in out.stdout + out.stderr
    for order in orders:  # a worker finds its key through a variable it inherited
        config = json.loads(order.read_bytes())["config"]
        for options in (config["agent_options"]["openai/fake"], config["user_options"]):
            text = json.dumps(options)
            assert "api_key_env" in text and "TAU_SIM_API_KEY_" in text and '"api_key"' not in text
    conn = sqlite3.connect(db)
    run_id, stored = conn.execute("select id, config from runs").fetchone()
    completed = conn.execute("select count(*) from conversations where status='completed'")
    assert completed.fetchone()[0] == 4
    # crash one conversation, so the run can be resumed
    with conn:
        conn.execute("update runs set status = 'interrupted'")
        conn.execute("update conversations set status = 'running' where cell = 1")
    conn.close()
    assert '"api_key"' not in stored

    # resuming needs the key again: a one-line error says how to pass it
    resume = ["run", "--resume", run_id, "--db", str(db)]
    out = tau_sim(*resume, env=env)
    assert out.returncode == 2
    err = out.stderr.decode().strip()
    assert err.count("\n") == 0 and "pass it again: --agent-arg api_key=..." in err
    assert SECRET not in err

    # given again through a named variable (agent) and literally (user), the run finishes
    env["MY_KEY"] = SECRET
    again = ["--agent-arg", "api_key_env=MY_KEY", "--user-arg", f"api_key={SECRET}"]
    out = tau_sim(*resume, *again, "--workers", "2", "--quiet", env=env)
    assert out.returncode == 0, out.stderr.decode()
    conn = sqlite3.connect(db)
    assert conn.execute("select status from runs").fetchone()[0] == "completed"
    conn.close()
    assert len(list(copies.iterdir())) >= 3
    for path in [*files_of(db), *copies.iterdir()]:
        assert SECRET.encode() not in path.read_bytes(), path
    assert SECRET.encode() not in out.stdout + out.stderr


def test_a_key_in_a_run_file_is_sealed_and_asked_for_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "run.toml"
    path.write_text(
        '[run]\nagent = "openai/x"\n'
        '[models."openai/x"]\napi_key = "sk-file-SECRET"\nbase_url = "http://127.0.0.1:9/v1"\n'
    )
    monkeypatch.setattr(keys, "_sealed", {})  # what the test seals stays in the test
    parser, run = parsers()
    _, config = configure_run(parser.parse_args(["run", "--config", str(path)]), run)
    assert config.agent_options["openai/x"]["api_key"] == "sk-file-SECRET"  # in memory only
    with pytest.raises(RuntimeError, match="must be sealed"):
        encode_order(WorkOrder(config, "run-1", 0, 1, 1))
    sealed = seal_keys(config)
    env = sealed.agent_options["openai/x"]["api_key_env"]
    assert environ_key(env) == "sk-file-SECRET" and env not in os.environ
    assert worker_environment() == {**os.environ, env: "sk-file-SECRET"}
    assert b"sk-file-SECRET" not in encode_order(WorkOrder(sealed, "run-1", 0, 1, 1))
    assert b"sk-file-SECRET" not in msgspec.json.encode(sealed)
    assert sealed.agent_options["openai/x"]["base_url"] == "http://127.0.0.1:9/v1"

    monkeypatch.setattr(keys, "_sealed", {})  # a later process: the sealed key is gone
    with pytest.raises(UsageError, match=r"openai/x was given a literal api_key.*pass it again"):
        reattach_keys(sealed, "run-1", {}, {})
    again = reattach_keys(sealed, "run-1", {"api_key": "sk-new"}, {})
    renewed = again.agent_options["openai/x"]["api_key_env"]
    assert renewed != env and environ_key(renewed) == "sk-new"
    named = reattach_keys(sealed, "run-1", {"api_key_env": "MY_KEY"}, {})
    assert named.agent_options["openai/x"]["api_key_env"] == "MY_KEY"
