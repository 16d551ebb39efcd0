"""``--resume RUN_ID``: the stored run's config, with only what may change given again.

Shared by ``tau-sim run``, ``tui`` and ``human``; every ``tau-sim`` call loads this module (its
imports are light: the run file, the grid, the store's readers).
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, Any

import msgspec

from tau_sim.simulator.cli.options import flag
from tau_sim.simulator.cli.run_file import merge
from tau_sim.simulator.cli.settings import OUTPUT_DEFAULTS, ray_address
from tau_sim.simulator.core.errors import UsageError
from tau_sim.simulator.core.infra import COMPLETED_WITH_ERRORS, run_error_share
from tau_sim.simulator.core.keys import KEY_OPTIONS
from tau_sim.simulator.core.options import parse_key_values
from tau_sim.simulator.grid.config import RunConfig, decode_config
from tau_sim.simulator.grid.keys import reattach_keys
from tau_sim.simulator.grid.workers import resolve_workers
from tau_sim.simulator.store.reads import get_run
from tau_sim.simulator.store.timeouts import STALE_AFTER_ENV, stale_after

if TYPE_CHECKING:
    from tau_sim.simulator.store.runs import Store

RESUME_OPTIONS = frozenset(
    {"concurrency", "workers", "quiet", "json", "db", "count_errors", "keep_errors"}
    | {"max_error_share", "ray"}
)
"""Options that may go with ``--resume``: the stored config defines everything else."""


def resume_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The output settings of a resumed run: ``OUTPUT_DEFAULTS`` and the options given."""
    return merge(OUTPUT_DEFAULTS, {k: v for k, v in vars(args).items() if k in RESUME_OPTIONS})


def resume_keys(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    """The ``api_key``/``api_key_env`` given with ``--resume``, by flag; nothing else may be.

    Raises:
        UsageError: an option that would redefine the stored run was given (all are named).
    """
    keys = {
        option: parse_key_values(getattr(args, dest, []), option)
        for option, dest in (
            ("--agent-arg", "agent_arg"),
            ("--user-arg", "user_arg"),
            ("--judge-arg", "judge_arg"),
        )
    }
    extra = [
        flag(dest)
        for dest in vars(args)
        if dest not in RESUME_OPTIONS
        and dest not in ("command", "resume", "agent_arg", "user_arg", "judge_arg")
    ]
    extra += [
        f"{option} {key}"
        for option, given in keys.items()
        for key in given
        if key not in KEY_OPTIONS
    ]
    if extra:
        raise UsageError(
            f"--resume takes the stored run as it is; remove {', '.join(extra)} (only "
            "--concurrency, --workers, --ray, --quiet, --json, --db and an api_key/api_key_env "
            "may go with it)"
        )
    return keys


def resume_config(
    args: argparse.Namespace, store: Store, keys: dict[str, dict[str, Any]]
) -> tuple[RunConfig, str]:
    """The stored config of the run to resume, with ``--concurrency``/``--workers`` and keys.

    Raises:
        UsageError: the run is unknown or completed, or a literal API key is needed again.
    """
    run = get_run(store.db, args.resume)
    _check_resumable(store, run, keep_errors="keep_errors" in args)
    if run["status"] == "running":
        raise UsageError(_still_running(run))
    config = decode_config(run["config"])
    changes = {
        key: getattr(args, key)
        for key in ("concurrency", "workers", "max_error_share", "ray")
        if key in args
    }
    if "workers" in changes:
        changes["workers"] = resolve_workers(changes["workers"])
    if "ray" in changes:
        changes["ray"] = ray_address(changes["ray"])
    if changes:
        config = msgspec.structs.replace(config, **changes)
    config = reattach_keys(
        config, run["id"], keys["--agent-arg"], keys["--user-arg"], keys.get("--judge-arg")
    )
    return config, run["id"]


def _check_resumable(store: Store, run: dict[str, Any], *, keep_errors: bool) -> None:
    """Refuse to resume a run with nothing left to play.

    A completed run (``completed`` or ``completed_with_errors``) is resumed only to play again
    the conversations endpoint or user-simulator errors ended, so not with ``--keep-errors``
    nor without any.
    """
    if run["status"] not in ("completed", COMPLETED_WITH_ERRORS):
        return
    share = run_error_share(store.db, run["id"])
    if not share.excluded:
        raise UsageError(f"--resume: run {run['id']} is already completed")
    if keep_errors:
        raise UsageError(
            f"--resume: run {run['id']} is completed and --keep-errors keeps its "
            f"{share.excluded} conversations ended by {share.what}: nothing to play"
        )


def _still_running(run: dict[str, Any]) -> str:
    """Why a run with a fresh heartbeat cannot be resumed (two writers would play its cells)."""
    beat = run.get("heartbeat_at") or run["created_at"]
    where = f" (pid {run['pid']} on {run['host']})" if run.get("pid") else ""
    return (
        f"--resume: run {run['id']} is still running{where}, its last heartbeat "
        f"{time.time() - beat:.0f} s ago; stop it, or wait until it reads stale (no heartbeat "
        f"for {stale_after():g} s, {STALE_AFTER_ENV})"
    )
