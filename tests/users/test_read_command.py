"""``tau-sim users read``: the acts of agent texts, as a real subprocess."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers.cli import run_error, tau_sim


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """This process's environment, with the ``users`` command group's entry point on the path.

    ``pyproject.toml`` declares it (``tau_sim.commands``: ``users``); a checkout installed
    before it was declared lacks it until ``pip install -e .`` runs again, so the test lists it
    in a distribution of its own (a duplicate name is imported once).
    """
    info = tmp_path / "tau_sim_users_command-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: tau-sim-users-command\nVersion: 0\n"
    )
    (info / "entry_points.txt").write_text("[tau_sim.commands]\nusers = tau_sim.users.cli\n")
    paths = [str(tmp_path), os.getcwd(), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def test_json_gives_one_object_per_text_under_the_corpus_keys(env: dict[str, str]) -> None:
    texts = [
        "Thanks! I'll need either your email, or your full name together with your ZIP code.",
        "Done! Order #W3956140 is cancelled. Is there anything more I can do for you today?",
        "You're welcome! Take care.",
    ]
    out = tau_sim(
        "users", "read", "--domain", "retail", "--task", "retail-048", "--json", *texts, env=env
    )
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(rows) == 3
    assert rows[0]["asks"] == ["email", "first_name", "last_name", "zip"]
    assert rows[0]["alternatives"] == [["email"], ["first_name", "last_name", "zip"]]
    assert rows[1]["done"] and rows[1]["closes"] and not rows[1]["asks"]
    assert rows[2]["closes"] and not rows[2]["acknowledges"]
    keys = ["asks", "confirms", "done", "refuses", "closes", "transfers", "acknowledges", "steps"]
    assert all(list(row)[: len(keys)] == keys for row in rows)


def test_the_table_names_the_acts_and_the_device_steps_in_order(env: dict[str, str]) -> None:
    text = "Please pop the SIM tray out, reseat the card firmly, and then restart the phone."
    out = tau_sim("users", "read", "--domain", "telecom", text, env=env)
    assert out.stdout.splitlines() == [
        f"> {text}",
        "  steps         reseat_sim_card, restart_device",
    ]
    quiet = tau_sim("users", "read", "--domain", "telecom", "Thanks for waiting.", env=env)
    assert "(no act)" in quiet.stdout


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--domain", "nowhere", "hello"], "--domain"),
        (["--domain", "retail", "--task", "retail-999", "hello"], "--task"),
        (["--domain", "retail", "hello", "  "], "TEXT"),
    ],
)
def test_bad_input_is_one_line_naming_the_flag(
    env: dict[str, str], args: list[str], named: str
) -> None:
    out = run_error("users", "read", *args, env=env)
    assert f"tau-sim: error: {named}" in out.stderr
