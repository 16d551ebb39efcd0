"""How a run that played ends for the CLI: its exit code on errors, an unused file removed.

Shared by ``tau-sim run`` (``cli.play``) and the commands that play under a screen (``tau-sim
tui``, ``human``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from tau_sim.simulator.core.infra import EXIT_ENDPOINT_ERRORS, run_error_share, share_line
from tau_sim.simulator.grid.config import RunConfig
from tau_sim.simulator.store.runs import Store


def error_share_exit(db: Any, run_id: str, config: RunConfig, settings: dict[str, Any]) -> int:
    """Exit code 3 (and the summary on stderr) when too many conversations hit errors.

    Those are endpoint and user-simulator errors. A smaller share is reported on stderr as a
    warning, with exit code 0.
    """
    share = run_error_share(db, run_id)
    if not share.excluded:
        return 0
    resume = f"tau-sim run --resume {run_id} --db {settings['db']}"
    line = share_line(share, resume, counted=settings["count_errors"])
    too_many = share.share > config.max_error_share
    print(f"tau-sim: {'error' if too_many else 'warning'}: {line}", file=sys.stderr)
    return EXIT_ENDPOINT_ERRORS if too_many else 0


def remove_unused(store: Store, db: str) -> None:
    """Close and delete a database file this command created but stored no run in.

    A new run that fails before its row is written (a bad option a provider found, an
    endpoint that did not answer the preflight, Ctrl-C during start-up) leaves no file behind.
    """
    store.close_sync()
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(db + suffix).unlink(missing_ok=True)
