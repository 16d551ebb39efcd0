"""Model backends: one async chat-with-tools interface over hosted APIs and servers tau-sim starts.

Each provider (``openai_provider``, ``anthropic_provider``, ``vllm_provider``, ``local_provider``,
``servers``) registers itself by name when its plugin entry point is imported, so none is named
here. The two names below are what the users share with the providers: the option check
(``core.options``) and the lenient reading of a JSON object a model wrote (``core.toolargs``);
they are defined in ``simulator.core`` and named here for the code that imports them from
``simulator.models``.
"""

from __future__ import annotations

from tau_sim.simulator.core.options import convert_options
from tau_sim.simulator.core.toolargs import first_object

__all__ = ["convert_options", "first_object"]
