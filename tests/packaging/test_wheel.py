"""The wheel holds every file the installed package needs: each domain's tasks and policy."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("simulator", "agents", "users", "domains", "tui", "tracer")


def _package_files() -> set[str]:
    """The checkout's files of the installed packages, as their paths in the wheel."""
    found = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                found.add("tau_sim/" + path.relative_to(ROOT).as_posix())
    return found


def test_the_wheel_holds_every_file_of_the_packages(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "tau_sim", source / "tau_sim", symlinks=True)
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "-w",
            str(tmp_path / "dist"),
            str(source),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert build.returncode == 0, build.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("tau_sim-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = _package_files()
    assert expected - names == set()
    tasks = {n for n in names if n.endswith("/tasks.jsonl")}
    assert len(tasks) == 10 and "tau_sim/domains/retail/tasks.jsonl" in tasks
    assert "tau_sim/__init__.py" in names
    assert not [n for n in names if n.split("/")[0] in PACKAGES], "a top-level package leaked"
