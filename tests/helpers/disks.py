"""Real file-system faults for the tests: a small tmpfs mount, filled to the last byte.

The tests run as root, where file permissions do not stop a write; a full or read-only-mounted
file system does. ``tmpfs`` mounts one for a block (``mount -t tmpfs -o size=…``, unmounted
afterwards) and skips, saying why, where mounting is refused, or fails there where
``TAU_SIM_REQUIRE_TMPFS`` is set (``tests.helpers.require``). ``fill`` writes a ballast file
until the disk is full; ``read_only`` remounts it read-only (EROFS for every write).
"""

from __future__ import annotations

import errno
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.helpers.require import require


@contextmanager
def tmpfs(folder: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at ``folder`` for the block (unmounted afterwards)."""
    folder.mkdir()
    out = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        require("TMPFS", f"cannot mount a tmpfs here: {out.stderr.strip() or out.returncode}")
    try:
        yield folder
    finally:
        if subprocess.run(["umount", str(folder)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(folder)], check=True)


def fill(disk: Path) -> Path:
    """Write ``disk/ballast`` until the file system says it is full; returns the ballast.

    Chunks shrink to one byte, so not one more page fits afterwards.
    """
    ballast = disk / "ballast"
    chunk = 1 << 16
    with ballast.open("wb", buffering=0) as handle:
        while chunk:
            try:
                handle.write(b"\0" * chunk)
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise
                chunk //= 2
    return ballast


def read_only(disk: Path) -> None:
    """Remount the tmpfs at ``disk`` read-only (every write then fails with EROFS)."""
    subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True, capture_output=True)
