"""Regenerate the retail benchmark set: ``python -m domains.retail.build_tasks [PATH]``."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from domains.retail import RetailDomain
from simulator.domain import dump_tasks

TASK_COUNT = 55  # five per intent
TASK_SEED = 7


def main(argv: Sequence[str] | None = None) -> Path:
    """Write the tasks to ``argv[0]`` (default: the domain's ``tasks.jsonl``); return the path."""
    args = list(sys.argv[1:] if argv is None else argv)
    domain = RetailDomain()
    path = Path(args[0]) if args else domain.tasks_path
    dump_tasks(domain.generate_tasks(TASK_COUNT, TASK_SEED), path)
    return path


if __name__ == "__main__":
    print(main())
