"""The ``ModelUsage`` event of a model call: what the agent, the user and the judge publish."""

from __future__ import annotations

import msgspec

from tau_sim.simulator.core.chat import Usage
from tau_sim.simulator.core.events import ModelUsage
from tau_sim.simulator.core.registry import split_model_name


def usage_event(conversation: str, role: str, model: str, usage: Usage) -> ModelUsage:
    """The ModelUsage event of one model call: its ``Usage``, addressed to a conversation and role.

    ``Usage`` is what a model call reports (it knows no conversation); the event carries every
    one of its fields under the same name, so a field added to one and not the other fails here.
    """
    return ModelUsage(
        conversation=conversation,
        role=role,
        backend=split_model_name(model)[0],
        model=model,
        **msgspec.structs.asdict(usage),
    )
