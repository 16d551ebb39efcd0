"""The in-flight cap of each hosted model against the run's concurrency: fitted, and said.

A run's conversations reach each endpoint through its ``max_connections`` slots
(``tau_sim.simulator.models.limits``). An endpoint on this machine, or servers a provider launches,
takes the run's concurrency unless ``max_connections`` is set; a cap still below the
concurrency is reported in one line (at the run's start and in ``--dry-run``), never silent.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from tau_sim.simulator.models.hosted import HostedChatModel


def hosted_models(provider: Any) -> Iterator[tuple[HostedChatModel, bool]]:
    """The hosted chat model behind ``provider`` (an LLM agent or user); if it launches servers."""
    inner = getattr(provider, "model_provider", provider)
    model = getattr(inner, "model", None)
    if isinstance(model, HostedChatModel):
        yield model, bool(getattr(inner, "launches_servers", False))


def fit_connections(
    providers: Mapping[str, Mapping[str, Any]], concurrency: int, workers: int = 1
) -> list[str]:
    """Fit local endpoints to the run's concurrency; one line per cap still below it.

    ``providers`` maps an option flag (``--agent-arg``) to that role's providers by name. With
    ``workers`` processes each holds its own slots and plays its share of the concurrency.
    """
    share = -(-concurrency // max(workers, 1))
    notes: list[str] = []
    for flag, by_name in providers.items():
        for provider in by_name.values():
            for model, launched in hosted_models(provider):
                model.fit_concurrency(concurrency, launched=launched)
                if model.connections < share:
                    where = ", ".join(model.urls()) or "its endpoints"
                    per = " per worker process" if workers > 1 else ""
                    notes.append(
                        f"tau-sim: note: {model.name} sends at most {model.connections} requests "
                        f"at once{per} to {where} (max_connections), below the "
                        f"{share} conversations{per} of --concurrency {concurrency}; raise it "
                        f"with {flag} max_connections={share}"
                    )
    return notes
