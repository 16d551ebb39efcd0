"""A run: its checks, its player, its worker processes or Ray actors, the run itself, rescoring.

``checks`` validates a run before anything is stored; ``player`` plays cells on one event
loop; ``orders``, ``processes`` and ``ray_actors`` deal them to worker processes or Ray actors
(``worker`` is one process's entry, ``python -m tau_sim.simulator.run.worker``, and is not
imported here); ``preparing`` checks and prepares a new run once (``prepare_run``); ``runner``
plays a whole run into a store; ``signals`` stops it on Ctrl-C; ``progress``, ``estimate`` and
``rescore`` show, plan and re-evaluate runs. Code outside
``simulator.run`` imports these names from here.

Each name is imported from its module on first use (``core.exports.lazy_names``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tau_sim.simulator.core.exports import lazy_names

if TYPE_CHECKING:
    from tau_sim.simulator.run.checks import check_numbers, normalize_emotions, validate
    from tau_sim.simulator.run.orders import STDIN_COPY_ENV, WorkOrder, encode_order
    from tau_sim.simulator.run.player import (
        ADMISSION_INTERVAL_S,
        Player,
        backend_options,
        make_agent,
        open_providers,
        task_condition,
    )
    from tau_sim.simulator.run.preparing import prepare_run
    from tau_sim.simulator.run.processes import event_batches
    from tau_sim.simulator.run.progress import RunProgress
    from tau_sim.simulator.run.ray_actors import NAMESPACE
    from tau_sim.simulator.run.ray_setup import INSTALL, LOCAL
    from tau_sim.simulator.run.rescore import rescore_run
    from tau_sim.simulator.run.runner import Runner
    from tau_sim.simulator.run.signals import stop_signal

MODULE_OF = {
    "ADMISSION_INTERVAL_S": "player",
    "INSTALL": "ray_setup",
    "LOCAL": "ray_setup",
    "NAMESPACE": "ray_actors",
    "Player": "player",
    "prepare_run": "preparing",
    "RunProgress": "progress",
    "Runner": "runner",
    "STDIN_COPY_ENV": "orders",
    "WorkOrder": "orders",
    "backend_options": "player",
    "check_numbers": "checks",
    "encode_order": "orders",
    "event_batches": "processes",
    "make_agent": "player",
    "normalize_emotions": "checks",
    "open_providers": "player",
    "rescore_run": "rescore",
    "task_condition": "player",
    "stop_signal": "signals",
    "validate": "checks",
}
"""The module of this package that defines each public name."""

__all__ = [
    "ADMISSION_INTERVAL_S",
    "INSTALL",
    "LOCAL",
    "NAMESPACE",
    "STDIN_COPY_ENV",
    "Player",
    "RunProgress",
    "Runner",
    "WorkOrder",
    "backend_options",
    "check_numbers",
    "encode_order",
    "event_batches",
    "make_agent",
    "normalize_emotions",
    "open_providers",
    "prepare_run",
    "rescore_run",
    "stop_signal",
    "task_condition",
    "validate",
]

__getattr__ = lazy_names(__name__, globals(), MODULE_OF)
