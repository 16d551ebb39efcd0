"""Model backends: one async chat-with-tools interface over hosted APIs and servers tau-sim starts.

Each provider (``openai_provider``, ``anthropic_provider``, ``vllm_provider``, ``local_provider``,
``servers``) registers itself by name when its plugin entry point is imported, so none is named
here. The names below are what agents and users share with the providers: option checks
(``core.options``) and lenient parsing of the arguments a model wrote for a tool call
(``core.toolargs``); they are defined in ``simulator.core`` and named here too for plugins that
import them from ``simulator.models``.
"""

from __future__ import annotations

from tau_sim.simulator.core.options import (
    SECRET_KEYS,
    CommaList,
    ShellWords,
    convert_options,
    parse_key_values,
    parse_value,
)
from tau_sim.simulator.core.toolargs import (
    RAW,
    dump_arguments,
    first_object,
    parse_arguments,
)

__all__ = [
    "RAW",
    "SECRET_KEYS",
    "CommaList",
    "ShellWords",
    "convert_options",
    "dump_arguments",
    "first_object",
    "parse_arguments",
    "parse_key_values",
    "parse_value",
]
