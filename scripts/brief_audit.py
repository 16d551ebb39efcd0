"""How many LLM user briefs have each kind of defect (``tests/users/briefs.py``).

Renders the brief of every task of the ten built-in domains under each of ``CONDITIONS`` and
prints, per kind of defect, the number of briefs that show it and of tasks with at least one
such brief. Render only, no model.

    PYTHONPATH=$PWD python scripts/brief_audit.py [--examples N]
"""

from __future__ import annotations

import argparse
from collections import defaultdict

from tau_sim.simulator.core.registry import get_domain, load_plugins
from tests.users.briefs import CONDITIONS, DOMAINS, defects, render


def main() -> None:
    """Print the count of briefs and of tasks per kind of defect."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=0, help="examples shown per kind")
    args = parser.parse_args()
    load_plugins()
    briefs: dict[str, int] = defaultdict(int)
    tasks: dict[str, set[str]] = defaultdict(set)
    examples: dict[str, list[str]] = defaultdict(list)
    rendered = 0
    for name in DOMAINS:
        domain = get_domain(name)
        for task in domain.tasks:
            for emotion, intensity in CONDITIONS:
                rendered += 1
                for defect in defects(
                    task, emotion, intensity, render(domain, task, emotion, intensity)
                ):
                    kind = defect.split(":", 1)[0]
                    briefs[kind] += 1
                    tasks[kind].add(task.id)
                    if len(examples[kind]) < args.examples:
                        examples[kind].append(f"{task.id} {emotion}: {defect}")
    print(f"{rendered} briefs rendered")
    for kind in sorted(briefs, key=lambda k: -briefs[k]):
        print(f"{briefs[kind]:6d} briefs {len(tasks[kind]):5d} tasks  {kind}")
        for example in examples[kind]:
            print(f"        {example}")


if __name__ == "__main__":
    main()
