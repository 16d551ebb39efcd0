"""``tau-sim export --out``: written whole or not at all, never over a file without ``--force``.

Real CLI subprocesses, a real store, real files; a full and a read-only disk are small tmpfs
mounts (``tests.helpers.disks``, skipped where mounting is refused).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from tests.helpers.cli import one_line_error, tau_sim
from tests.helpers.disks import fill, read_only, tmpfs


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A store with one small run, and that run's id."""
    db = tmp_path_factory.mktemp("export") / "e.db"
    tau_sim("run", "--tasks", "3", "--emotions", "neutral,anger", "--db", str(db), "--quiet")
    with sqlite3.connect(db) as conn:
        (run_id,) = conn.execute("select id from runs").fetchone()
    return db, str(run_id)


def export(store: tuple[Path, str], out: Path | str, *extra: str) -> list[str]:
    """The arguments of ``tau-sim export`` of the store's run to ``out``."""
    db, run_id = store
    return ["export", run_id, "--db", str(db), "--out", str(out), *extra]


def stdout_export(store: tuple[Path, str], fmt: str) -> str:
    """The run exported to stdout (``--out -``) in ``fmt``."""
    return tau_sim(*export(store, "-", "--format", fmt)).stdout


def leftovers(folder: Path, *expected: str) -> set[str]:
    """The names in ``folder`` besides ``expected`` (a temporary file would show here)."""
    return {p.name for p in folder.iterdir()} - set(expected)


def test_an_existing_file_is_refused_without_force(store: tuple[Path, str], tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    out.write_text("yesterday's export\n")
    line = one_line_error(tau_sim(*export(store, out), check=False), 2)
    assert line == f"tau-sim: error: --out {out} already exists; pass --force to replace it"
    assert out.read_text() == "yesterday's export\n"
    assert leftovers(tmp_path, "runs.jsonl") == set()


def test_a_symlink_is_refused_and_never_followed(store: tuple[Path, str], tmp_path: Path) -> None:
    target, link = tmp_path / "precious.txt", tmp_path / "runs.csv"
    target.write_text("not an export\n")
    link.symlink_to(target)
    line = one_line_error(tau_sim(*export(store, link, "--format", "csv"), check=False), 2)
    assert f"--out {link} already exists (a symbolic link, not followed)" in line
    assert "--force" in line
    assert link.is_symlink() and target.read_text() == "not an export\n"
    # --force replaces the link itself: the file it pointed to is left alone
    tau_sim(*export(store, link, "--format", "csv", "--force"))
    assert not link.is_symlink() and link.read_text() == stdout_export(store, "csv")
    assert target.read_text() == "not an export\n"
    dangling = tmp_path / "gone.jsonl"
    dangling.symlink_to(tmp_path / "nowhere")
    one_line_error(tau_sim(*export(store, dangling), check=False), 2)
    assert not (tmp_path / "nowhere").exists()


def test_force_replaces_the_file_atomically(store: tuple[Path, str], tmp_path: Path) -> None:
    """The new export is a new file renamed over the old one: a reader holding the old one
    still reads it whole, and the name never shows a half-written file."""
    out = tmp_path / "runs.jsonl"
    tau_sim(*export(store, out))
    before = out.read_bytes()
    assert before == stdout_export(store, "jsonl").encode()
    with out.open("rb") as reader:
        tau_sim(*export(store, out, "--format", "csv", "--force"))
        assert reader.read() == before  # the old file, untouched: not truncated in place
        assert os.stat(out).st_ino != os.fstat(reader.fileno()).st_ino
    assert out.read_text() == stdout_export(store, "csv")
    assert leftovers(tmp_path, "runs.jsonl") == set()


def test_an_empty_file_a_device_and_stdout_take_the_export(
    store: tuple[Path, str], tmp_path: Path
) -> None:
    """Nothing to lose: an empty file (``out=$(mktemp)``) is replaced; ``/dev/null`` is written
    to, never replaced; ``--out -`` is stdout."""
    empty = tmp_path / "made-by-mktemp"
    empty.touch()
    tau_sim(*export(store, empty))
    assert empty.read_text() == stdout_export(store, "jsonl")
    tau_sim(*export(store, "/dev/null"))
    assert Path("/dev/null").is_char_device()
    assert stdout_export(store, "jsonl").count("\n") == 6  # 3 tasks x 2 emotions


def test_a_path_that_names_no_file_is_exit_2(store: tuple[Path, str], tmp_path: Path) -> None:
    line = one_line_error(tau_sim(*export(store, tmp_path), check=False), 2)
    assert f"--out {tmp_path} is a directory" in line
    missing = tmp_path / "no" / "runs.jsonl"
    line = one_line_error(tau_sim(*export(store, missing), check=False), 2)
    assert f"--out {missing}: cannot write (there is no folder {missing.parent})" in line
    assert leftovers(tmp_path) == set()


def test_a_full_disk_keeps_the_previous_export(store: tuple[Path, str], tmp_path: Path) -> None:
    """Exit 1, one line naming the file and the cause; the old export is byte for byte as it
    was and no temporary file is left — for a replacement and for a new file."""
    with tmpfs(tmp_path / "disk", "2m") as disk:
        out = disk / "runs.csv"
        tau_sim(*export(store, out, "--format", "csv"))
        before = out.read_bytes()
        fill(disk)
        # the JSON lines take more 4 KB pages than the CSV frees: in place they could not fit
        assert -(-len(stdout_export(store, "jsonl")) // 4096) > -(-len(before) // 4096)
        done = tau_sim(*export(store, out, "--force"), check=False)
        line = one_line_error(done, 1)
        assert line.startswith(f"tau-sim: error: --out {out}: disk full (No space left on device)")
        assert out.read_bytes() == before
        fresh = disk / "new.csv"
        line = one_line_error(tau_sim(*export(store, fresh, "--format", "csv"), check=False), 1)
        assert f"--out {fresh}: disk full" in line
        assert leftovers(disk, "runs.csv", "ballast") == set()


def test_a_read_only_disk_keeps_the_previous_export(
    store: tuple[Path, str], tmp_path: Path
) -> None:
    with tmpfs(tmp_path / "ro", "2m") as disk:
        out = disk / "runs.jsonl"
        tau_sim(*export(store, out))
        before = out.read_bytes()
        read_only(disk)
        line = one_line_error(tau_sim(*export(store, out, "--force"), check=False), 1)
        assert line.startswith(f"tau-sim: error: --out {out}: read-only (Read-only file system)")
        assert out.read_bytes() == before
        assert leftovers(disk, "runs.jsonl") == set()
