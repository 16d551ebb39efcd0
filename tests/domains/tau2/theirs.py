"""τ²-bench's own reward of a simulation: their top-level ``evaluate_simulation``, in process.

Their evaluator module imports litellm (their registry loads their LLM agents), which the
``tau2`` extra installs. ``LITELLM_LOCAL_MODEL_COST_MAP`` keeps litellm from fetching its price
table at import (offline it would try, fail and fall back to the copy it ships). Their
NL-assertion judge goes through litellm to the model ``tau2.config.DEFAULT_LLM_NL_ASSERTIONS``
(an OpenAI name), so ``OPENAI_BASE_URL`` routes it to a local endpoint (``their_judge_at``).
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from tau2.data_model.simulation import SimulationRun
from tau2.data_model.tasks import Task as Tau2Task
from tau2.evaluator.evaluator import EvaluationType, evaluate_simulation


def their_reward(
    name: str, task: Tau2Task, simulation: SimulationRun, *, nl: bool = False
) -> float:
    """τ²-bench's reward of ``simulation`` (``ALL``, or ``ALL_WITH_NL_ASSERTIONS`` with ``nl``)."""
    kind = EvaluationType.ALL_WITH_NL_ASSERTIONS if nl else EvaluationType.ALL
    return evaluate_simulation(simulation, task, kind, solo_mode=False, domain=name).reward


@contextmanager
def their_judge_at(base_url: str) -> Iterator[None]:
    """Send their NL-assertion judge's litellm calls to ``base_url`` (an OpenAI-style /v1).

    litellm's first call builds pydantic models that warn about a ``ReadOnly`` qualifier (its
    code, not ours): that warning is let through here. Afterwards the clients litellm keeps
    (their sockets to ``base_url``) are closed, and so is the event loop it made this thread's.
    """
    import asyncio

    import litellm

    saved = {k: os.environ.get(k) for k in ("OPENAI_BASE_URL", "OPENAI_API_KEY")}
    os.environ.update(OPENAI_BASE_URL=base_url, OPENAI_API_KEY="sk-test")
    policy = asyncio.get_event_loop_policy()
    loop_before = getattr(getattr(policy, "_local", None), "_loop", None)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "Items? .*ReadOnly", UserWarning)
            yield
    finally:
        cache = litellm.in_memory_llm_clients_cache
        for client in list(cache.cache_dict.values()):
            close = getattr(client, "close", None)
            if close is not None and not asyncio.iscoroutinefunction(close):
                close()
        cache.flush_cache()
        loop = getattr(getattr(policy, "_local", None), "_loop", None)
        if loop is not None and loop is not loop_before and not loop.is_running():
            loop.close()
            asyncio.set_event_loop(None)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
