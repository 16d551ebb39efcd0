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
    from tau_sim.simulator.run.checks import (
        MAX_CELLS,
        MAX_SEED,
        MAX_TIMEOUT_S,
        check_numbers,
        check_unique,
        make_judge,
        make_providers,
        normalize_emotions,
        validate,
    )
    from tau_sim.simulator.run.estimate import (
        dry_run_plan,
        judge_line,
    )
    from tau_sim.simulator.run.orders import (
        STDIN_COPY_ENV,
        PartFailed,
        Pool,
        ProgressCallback,
        WorkOrder,
        encode_order,
    )
    from tau_sim.simulator.run.player import (
        ADMISSION_INTERVAL_S,
        GC_FIRST_GENERATION,
        Player,
        backend_options,
        make_agent,
        open_providers,
        order_player,
        settle_memory,
        task_condition,
    )
    from tau_sim.simulator.run.preparing import (
        check_pool,
        prepare_run,
    )
    from tau_sim.simulator.run.processes import (
        ProcessPool,
        event_batches,
    )
    from tau_sim.simulator.run.progress import (
        RunProgress,
    )
    from tau_sim.simulator.run.ray_actors import (
        NAMESPACE,
        RayPool,
        cluster,
    )
    from tau_sim.simulator.run.ray_setup import (
        INSTALL,
        LOCAL,
        check_run,
    )
    from tau_sim.simulator.run.rescore import (
        render_rescore,
        rescore_run,
    )
    from tau_sim.simulator.run.runner import (
        Runner,
    )
    from tau_sim.simulator.run.signals import (
        stop_signal,
        until_signal,
    )

MODULE_OF = {
    "ADMISSION_INTERVAL_S": "player",
    "GC_FIRST_GENERATION": "player",
    "INSTALL": "ray_setup",
    "LOCAL": "ray_setup",
    "MAX_CELLS": "checks",
    "MAX_SEED": "checks",
    "MAX_TIMEOUT_S": "checks",
    "NAMESPACE": "ray_actors",
    "PartFailed": "orders",
    "Player": "player",
    "check_pool": "preparing",
    "prepare_run": "preparing",
    "Pool": "orders",
    "ProcessPool": "processes",
    "ProgressCallback": "orders",
    "RayPool": "ray_actors",
    "RunProgress": "progress",
    "Runner": "runner",
    "STDIN_COPY_ENV": "orders",
    "WorkOrder": "orders",
    "backend_options": "player",
    "check_numbers": "checks",
    "check_run": "ray_setup",
    "check_unique": "checks",
    "cluster": "ray_actors",
    "dry_run_plan": "estimate",
    "encode_order": "orders",
    "event_batches": "processes",
    "judge_line": "estimate",
    "make_agent": "player",
    "make_judge": "checks",
    "make_providers": "checks",
    "normalize_emotions": "checks",
    "open_providers": "player",
    "order_player": "player",
    "render_rescore": "rescore",
    "rescore_run": "rescore",
    "settle_memory": "player",
    "task_condition": "player",
    "stop_signal": "signals",
    "until_signal": "signals",
    "validate": "checks",
}
"""The module of this package that defines each public name."""

__all__ = [
    "ADMISSION_INTERVAL_S",
    "GC_FIRST_GENERATION",
    "INSTALL",
    "LOCAL",
    "MAX_CELLS",
    "MAX_SEED",
    "MAX_TIMEOUT_S",
    "NAMESPACE",
    "STDIN_COPY_ENV",
    "PartFailed",
    "Player",
    "Pool",
    "ProcessPool",
    "ProgressCallback",
    "RayPool",
    "RunProgress",
    "Runner",
    "WorkOrder",
    "backend_options",
    "check_numbers",
    "check_pool",
    "check_run",
    "check_unique",
    "cluster",
    "dry_run_plan",
    "encode_order",
    "event_batches",
    "judge_line",
    "make_agent",
    "make_judge",
    "make_providers",
    "normalize_emotions",
    "open_providers",
    "order_player",
    "prepare_run",
    "render_rescore",
    "rescore_run",
    "settle_memory",
    "stop_signal",
    "task_condition",
    "until_signal",
    "validate",
]

__getattr__ = lazy_names(__name__, globals(), MODULE_OF)
