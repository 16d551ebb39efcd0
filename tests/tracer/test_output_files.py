"""Tracer's ``--out`` files: written whole or not at all, never over a file without ``--force``.

``tracer export --out DIR`` writes ``train.jsonl`` and ``README.md`` (both staged before either
replaces a file); ``tracer filter --out`` and ``tracer construct --out`` write one file. Real CLI
subprocesses and files; a full disk is a small tmpfs (``tests.helpers.disks``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cli import one_line_error
from tests.helpers.disks import fill, tmpfs
from tests.tracer.conftest import Pipeline, tau_sim

FILES = ("train.jsonl", "README.md")


def export(pipeline: Pipeline, out: Path, *extra: str) -> list[str]:
    """The arguments of ``tau-sim tracer export`` of the pipeline's selection to ``out``."""
    return ["tracer", "export", str(pipeline.selection), "--out", str(out), *extra]


def contents(folder: Path) -> dict[str, bytes]:
    """Every file in ``folder`` by name (a temporary file would show here)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def dataset(pipeline: Pipeline, tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The two files of the selection exported in TRL form (the reference bytes)."""
    out = tmp_path_factory.mktemp("reference") / "ds"
    assert tau_sim(*export(pipeline, out)).returncode == 0
    return contents(out)


def test_an_existing_dataset_is_refused_without_force(
    pipeline: Pipeline, dataset: dict[str, bytes], tmp_path: Path
) -> None:
    out = tmp_path / "ds"
    assert tau_sim(*export(pipeline, out)).returncode == 0
    line = one_line_error(tau_sim(*export(pipeline, out, "--format", "sharegpt")), 2)
    assert line == (
        f"tau-sim: error: --out {out / 'train.jsonl'} already exists; pass --force to replace it"
    )
    assert contents(out) == dataset
    forced = tau_sim(*export(pipeline, out, "--format", "sharegpt", "--force"))
    assert forced.returncode == 0, forced.stderr
    assert set(contents(out)) == set(FILES) and contents(out) != dataset
    assert b'"conversations"' in contents(out)["train.jsonl"]


def test_an_empty_train_file_is_no_dataset_but_a_symlink_is_refused(
    pipeline: Pipeline, dataset: dict[str, bytes], tmp_path: Path
) -> None:
    out = tmp_path / "ds"
    out.mkdir()
    (out / "train.jsonl").touch()
    assert tau_sim(*export(pipeline, out)).returncode == 0
    assert contents(out) == dataset
    linked = tmp_path / "linked"
    linked.mkdir()
    precious = tmp_path / "precious.md"
    precious.write_text("my notes\n")
    (linked / "README.md").symlink_to(precious)
    line = one_line_error(tau_sim(*export(pipeline, linked)), 2)
    assert f"--out {linked / 'README.md'} already exists (a symbolic link, not followed)" in line
    assert [p.name for p in linked.iterdir()] == ["README.md"]
    assert tau_sim(*export(pipeline, linked, "--force")).returncode == 0
    assert contents(linked) == dataset and precious.read_text() == "my notes\n"


def test_a_full_disk_keeps_the_previous_dataset(
    pipeline: Pipeline, dataset: dict[str, bytes], tmp_path: Path
) -> None:
    """Exit 1, one line naming the file and the cause; both files as they were, no temporary
    file; a new folder the failed export made is removed again."""
    with tmpfs(tmp_path / "disk", "2m") as disk:
        out = disk / "ds"
        assert tau_sim(*export(pipeline, out)).returncode == 0
        fill(disk)
        done = tau_sim(*export(pipeline, out, "--format", "sharegpt", "--force"))
        line = one_line_error(done, 1)
        assert line.startswith(f"tau-sim: error: --out {out / 'train.jsonl'}: disk full (")
        assert contents(out) == dataset
        fresh = one_line_error(tau_sim(*export(pipeline, disk / "new" / "ds")), 1)
        assert "disk full" in fresh
        assert sorted(p.name for p in disk.iterdir()) == ["ballast", "ds"]


def test_filter_and_construct_refuse_an_existing_file(pipeline: Pipeline, tmp_path: Path) -> None:
    selection = tmp_path / "selection.json"
    selection.write_text("{}\n")
    filt = ["tracer", "filter", pipeline.run_id, "--db", str(pipeline.db), "--out", str(selection)]
    line = one_line_error(tau_sim(*filt), 2)
    assert f"--out {selection} already exists; pass --force" in line
    assert selection.read_text() == "{}\n"
    assert tau_sim(*filt, "--force").returncode == 0
    assert selection.read_bytes() == pipeline.selection.read_bytes()
    tasks = tmp_path / "tasks.jsonl"
    tasks.symlink_to(pipeline.tasks)
    before = pipeline.tasks.read_bytes()
    construct = ["tracer", "construct", "--domain", "retail", "--count", "2", "--out", str(tasks)]
    line = one_line_error(tau_sim(*construct), 2)
    assert f"--out {tasks} already exists (a symbolic link, not followed)" in line
    assert tau_sim(*construct, "--force").returncode == 0
    assert not tasks.is_symlink() and len(tasks.read_text().splitlines()) == 2
    assert pipeline.tasks.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["selection.json", "tasks.jsonl"]


def test_filter_on_a_full_disk_keeps_the_previous_selection(
    pipeline: Pipeline, tmp_path: Path
) -> None:
    with tmpfs(tmp_path / "disk", "2m") as disk:
        selection = disk / "selection.json"
        selection.write_bytes(pipeline.selection.read_bytes())
        fill(disk)
        done = tau_sim(
            *("tracer", "filter", pipeline.run_id, "--db", str(pipeline.db)),
            *("--out", str(selection), "--max-turns", "2", "--force"),
        )
        assert f"--out {selection}: disk full" in one_line_error(done, 1)
        assert selection.read_bytes() == pipeline.selection.read_bytes()
        assert sorted(p.name for p in disk.iterdir()) == ["ballast", "selection.json"]
