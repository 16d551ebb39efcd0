"""``tau-sim domains generate --out``: written whole or not at all, never over a file unasked.

Real CLI subprocesses and real files; the full disk is a small tmpfs mount
(``tests.helpers.disks``, skipped where mounting is refused).
"""

from __future__ import annotations

import os
import subprocess
from functools import partial
from pathlib import Path

from tests.helpers import cli
from tests.helpers.cli import one_line_error
from tests.helpers.disks import fill, tmpfs

RETAIL = Path(__file__).parents[3] / "domains" / "retail" / "tasks.jsonl"

tau_sim = partial(cli.tau_sim, check=False)


def generate(*args: str) -> subprocess.CompletedProcess[str]:
    """``tau-sim domains generate retail ARGS``, run to the end."""
    return tau_sim("domains", "generate", "retail", *args)


def test_an_existing_out_is_refused_without_force_and_replaced_with_it(tmp_path: Path) -> None:
    out = tmp_path / "tasks.jsonl"
    assert generate("--count", "3", "--out", str(out)).returncode == 0
    three = out.read_bytes()
    assert len(three.splitlines()) == 3
    line = one_line_error(generate("--count", "5", "--out", str(out)))
    assert line == f"tau-sim: error: --out {out} already exists; pass --force to replace it"
    assert out.read_bytes() == three
    replaced = generate("--count", "5", "--out", str(out), "--force")
    assert replaced.returncode == 0 and replaced.stderr == f"wrote 5 tasks of retail to {out}\n"
    five = out.read_bytes()
    assert len(five.splitlines()) == 5 and five.startswith(three)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tasks.jsonl"]  # no temporary file
    done = generate("--count", "2", "--out", os.devnull)  # a device: written, never replaced
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"wrote 2 tasks of retail to {os.devnull}\n"  # nothing else said


def test_a_full_disk_keeps_the_previous_task_file(tmp_path: Path) -> None:
    """Exit 1, one line naming the file and the cause; the old file is as it was, no
    temporary file is left."""
    with tmpfs(tmp_path / "disk", "1m") as disk:
        out = disk / "tasks.jsonl"
        assert generate("--count", "2", "--out", str(out)).returncode == 0
        before = out.read_bytes()
        fill(disk)
        line = one_line_error(generate("--count", "400", "--out", str(out), "--force"), 1)
        assert line.startswith(f"tau-sim: error: --out {out}: disk full")
        assert out.read_bytes() == before
        assert sorted(p.name for p in disk.iterdir()) == ["ballast", "tasks.jsonl"]


def test_the_domains_own_task_file_is_regenerated_without_force() -> None:
    """``tau-sim domains generate retail`` (the documented workflow) rewrites the checked-in
    file: byte for byte the same tasks, by a rename (a new inode), nothing left beside it."""
    before = RETAIL.read_bytes()
    inode = RETAIL.stat().st_ino
    siblings = {p.name for p in RETAIL.parent.iterdir()}
    done = generate()
    assert done.returncode == 0, done.stderr
    assert RETAIL.read_bytes() == before
    assert RETAIL.stat().st_ino != inode
    assert {p.name for p in RETAIL.parent.iterdir()} == siblings
