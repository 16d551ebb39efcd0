"""Write docs/human.md from human.md.in and the screens record.sh saved (to stdout).

``{{NAME:FIRST:LAST:COLUMN}}`` in the template is capture ``NAME``'s lines FIRST..LAST-1 from
COLUMN on, trailing blanks cut and runs of empty dialogue rows kept to one.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

EMPTY_ROW = re.compile(r"[│ ]*│")
PLACE = re.compile(r"\{\{(\w+):(\d+):(\d+):(\d+)\}\}")


def fragment(captures: Path, name: str, first: int, last: int, column: int) -> str:
    """The part of one saved screen that the page shows."""
    rows: list[str] = []
    for line in (captures / f"{name}.txt").read_text().split("\n")[first:last]:
        row = line[column:].rstrip()
        if rows and EMPTY_ROW.fullmatch(row) and EMPTY_ROW.fullmatch(rows[-1]):
            continue
        rows.append(row)
    return "\n".join(rows)


def main() -> None:
    """Render the template with the captures of ``sys.argv[1]``."""
    captures = Path(sys.argv[1] if len(sys.argv) > 1 else "walkthrough")
    template = Path(__file__).with_name("human.md.in").read_text()
    page = PLACE.sub(lambda m: fragment(captures, m[1], int(m[2]), int(m[3]), int(m[4])), template)
    sys.stdout.write(page)


if __name__ == "__main__":
    main()
