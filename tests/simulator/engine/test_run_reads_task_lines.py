"""A run's end reads the forbidden writes from the task line, never from the generator.

The real ``tau-sim run`` in a subprocess whose plugins, once loaded, lose their generators:
every ``Intent.violations`` raises, every ``intents`` module is dropped from ``sys.modules``
and importing one again fails. The pushover still gives in to an angry user on airline's two
refusal tasks, and each such conversation still ends as ``policy_violation``: the answer key,
the failure diagnosis and the grader read ``Task.violations``.

What a run still imports: the domain plugins import their ``intents`` package when they
register (``domains.kit.world.register_world``: the intents and ``PHRASINGS``); moving the
generators out of a run's imports is issue 34's item 2.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

from tests.helpers.cli import TIMEOUT

WITHOUT_GENERATORS = """
import importlib.abc, sys
from tau_sim.simulator.core import registry
from tau_sim.simulator.world import Intent

loaded = registry.load_plugins

class Blocked(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if ".intents" in name:
            raise ImportError(f"a run imported the generator module {name}")
        return None

def refuse(self, domain, task):
    raise AssertionError(f"a run asked the generator {type(self).__name__} for violations")

def load_then_forget(domains=None):
    loaded(domains)
    classes = [Intent]
    while classes:
        cls = classes.pop()
        classes.extend(cls.__subclasses__())
        cls.violations = refuse
    for name in [m for m in sys.modules if ".intents" in m]:
        del sys.modules[name]
    sys.meta_path.insert(0, Blocked())

registry.load_plugins = load_then_forget
from tau_sim.simulator.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


def test_the_run_finds_the_violations_without_the_generators(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    grid = [
        *("--domain", "airline", "--tasks", "airline-006,airline-007"),
        *("--agent", "scripted/pushover", "--emotions", "neutral,anger"),
        *("--intensities", "high", "--workers", "1", "--seed", "4"),
    ]
    out = subprocess.run(
        [sys.executable, "-c", WITHOUT_GENERATORS, "run", *grid, "--db", str(db), "--quiet"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert out.returncode == 0, out.stderr
    conn = sqlite3.connect(db)
    stored = conn.execute("select emotion, status, failure, refusal from conversations").fetchall()
    conn.close()
    assert Counter(stored) == {
        ("neutral", "completed", None, 1): 2,
        ("frustration", "completed", "policy_violation", 1): 2,
    }
