"""How many tasks of a ``tau2/*`` domain the gold agent scores 1.0 on (a calibration figure).

``python -m tests.domains.tau2.gold_all tau2/retail [N]``: the scripted gold agent against the
harness's ``FollowingUser`` on every task (or the first N); prints each task it fails and the
count. Scripted agents calibrate the harness; they are not benchmark subjects.
"""

from __future__ import annotations

import sys
import time
from collections import Counter

import anyio

from tau_sim.simulator.core.events import ConversationEnded
from tau_sim.simulator.core.registry import get_domain
from tests.domains.tau2.play import play


async def main(name: str, count: int) -> None:
    domain = get_domain(name)
    tasks = domain.tasks[:count] if count else domain.tasks
    passed = 0
    failed: Counter[str] = Counter()
    started = time.perf_counter()
    for task in tasks:
        ended = (await play(domain, task))[-1]
        assert isinstance(ended, ConversationEnded)
        if ended.reward == 1.0:
            passed += 1
            continue
        checks = ended.breakdown.checks if ended.breakdown else {}
        failed[f"{ended.reason} {sorted(checks.items())}"] += 1
        print(f"FAIL {task.id} {ended.reason} {checks}")
    took = time.perf_counter() - started
    print(f"{name}: gold 1.0 on {passed} / {len(tasks)} tasks ({took:.1f} s) {dict(failed)}")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 0)
