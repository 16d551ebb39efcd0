"""Check that task files differ from an earlier commit's only by the task data of formats 2-3.

For every ``domains/*/tasks.jsonl`` (or the files given), each line with the fields formats 2
and 3 added (``simulator.world.taskformat.TASK_DATA``) left out must be byte for byte the line
of the same file at ``--against`` (default ``HEAD``, read with ``git show``) with the same
fields left out; the line counts must agree. Prints one line per file and exits 1 when a file
differs.

    PYTHONPATH=$PWD python scripts/task_lines_same.py [--against REV] [FILE ...]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import msgspec

from tau_sim.simulator.world.taskformat import without_data

ROOT = Path(__file__).resolve().parent.parent


def earlier(path: Path, rev: str) -> bytes:
    """The file's content at ``rev``."""
    relative = path.resolve().relative_to(ROOT).as_posix()
    shown = subprocess.run(
        ["git", "show", f"{rev}:{relative}"], cwd=ROOT, capture_output=True, check=True
    )
    return shown.stdout


def differences(now: bytes, before: bytes) -> list[str]:
    """Where ``now``'s lines, stripped of the task data, differ from ``before``'s."""
    new, old = now.splitlines(), before.splitlines()
    if len(new) != len(old):
        return [f"{len(new)} lines, not {len(old)}"]
    out = []
    for number, (line, was) in enumerate(zip(new, old, strict=True), start=1):
        stripped = msgspec.json.encode(without_data(msgspec.json.decode(line)))
        if stripped != msgspec.json.encode(without_data(msgspec.json.decode(was))):
            out.append(f"line {number} differs")
    return out


def main() -> int:
    """Compare the files; 1 when one differs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD")
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    files = args.files or sorted((ROOT / "domains").glob("*/tasks.jsonl"))
    failed = False
    for path in files:
        found = differences(path.read_bytes(), earlier(path, args.against))
        failed |= bool(found)
        print(f"{path.resolve().relative_to(ROOT)}: {'; '.join(found[:3]) if found else 'same'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
