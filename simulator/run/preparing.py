"""A new run made ready once, before the store is opened: keys sealed, pool checked, tasks prepared.

``tau-sim run``, ``tau-sim tui``, ``tau-sim human`` and the Gymnasium rollouts call
``prepare_run`` and hand its player to whatever plays the run (``Runner(player=...)``), which
then seals, checks and prepares nothing again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.grid.config import RunConfig
from tau_sim.simulator.grid.keys import seal_keys
from tau_sim.simulator.run.player import Player
from tau_sim.simulator.run.ray_setup import check_run


def check_pool(config: RunConfig, providers: Sequence[Any], *, auto: bool = False) -> None:
    """Refuse a run whose Ray actors or worker processes could not share its providers.

    ``auto``: the workers were asked for as ``--workers auto`` (refused with a launching
    provider whatever number of cores it found).

    Raises:
        UsageError: ``check_run``'s refusals with ``--ray``; with ``--workers N`` (N > 1) or
            ``--workers auto``, a provider that starts its own servers (each worker would start
            them again).
    """
    if config.ray is not None:
        check_run(config, providers)
        return
    if config.workers <= 1 and not auto:
        return
    for provider in providers:
        if not getattr(provider, "launches_servers", False):
            continue
        if auto:
            raise UsageError(
                f"--workers auto: {provider.name} starts its own servers, which worker "
                "processes cannot share; leave --workers out (one process drives them), or "
                "start the servers once and pass base_url=... to use every core"
            )
        raise UsageError(
            f"--workers {config.workers}: {provider.name} starts its own servers; "
            "start them once and pass base_url=..., or use --workers 1"
        )


def prepare_run(config: RunConfig, run_id: str, *, auto_workers: bool = False) -> Player:
    """The run's player: ``config``'s keys sealed, its pool checked, the per-task work done.

    The per-task work is ``Player.prepare``'s (gold states, answer keys); ``auto_workers`` is
    ``check_pool``'s ``auto``.

    Raises:
        UsageError: a pool that cannot work (``check_pool``) or a gold path that fails.
        OptionError: a model's options do not convert (from ``Player``).
    """
    player = Player(seal_keys(config), run_id)
    check_pool(player.config, player.providers, auto=auto_workers)
    player.prepare()
    return player
