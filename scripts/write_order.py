"""How many tasks per domain and tier lose the reward when gold's writes come in another order.

Replays every task's gold writes in 4 orders that keep every dependency (the orders and the
dependencies of ``tests/domains/test_write_order.py``) and counts the tasks where one order
leaves a state the evaluator does not match. ``--exact`` hashes the states as before issue 39
(every list in its order, ids as minted), to show what the order-free hash changed.

    PYTHONPATH=$PWD python scripts/write_order.py [--exact]
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from tau_sim.simulator.core.registry import get_domain
from tau_sim.simulator.world.database import Database
from tau_sim.simulator.world.evaluation import Evaluator
from tau_sim.simulator.world.statehash import exact_hash
from tests.domains.test_write_order import NAMES, dependencies, orders, replayed


def main() -> None:
    """Print one line per domain: order-sensitive tasks of each tier."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exact", action="store_true", help="hash as before issue 39")
    args = parser.parse_args()
    if args.exact:

        def exact(self: Database, changes: Any) -> str:
            return exact_hash(changes)

        Database.hash_of = exact  # type: ignore[method-assign]
    for name in NAMES:
        domain = get_domain(name)
        evaluator, rng = Evaluator(domain), random.Random(39)
        bad = {"base": 0, "hard": 0}
        total = {"base": 0, "hard": 0}
        for task in domain.tasks:
            writes = domain.write_actions(task)
            needs = dependencies(domain, task, writes)
            lost = False
            for order in orders(4, needs, rng):
                events = replayed(domain, task, [writes[i] for i in order])
                lost |= not evaluator.evaluate(task, events)[1].db_match
            bad[task.tier] += lost
            total[task.tier] += 1
        tiers = "   ".join(f"{t} {bad[t]:3}/{total[t]:3}" for t in ("base", "hard"))
        print(f"{name:14} {tiers}")


if __name__ == "__main__":
    main()
