"""Model backends: one async chat-with-tools interface over hosted APIs and servers tau-sim starts.

Each provider (``openai_provider``, ``anthropic_provider``, ``vllm_provider``, ``local_provider``,
``servers``) registers itself by name when its plugin entry point is imported, so none is named
here. What agents and users share is: options (``key=value`` flags, the run file, typed checks)
and lenient parsing of the arguments a model wrote for a tool call.
"""

from tau_sim.simulator.models.options import (
    ROLES,
    SECRET_KEYS,
    CommaList,
    RunFile,
    ShellWords,
    convert_options,
    load_config,
    merge,
    model_options,
    parse_key_values,
    parse_value,
)
from tau_sim.simulator.models.toolargs import (
    RAW,
    dump_arguments,
    first_object,
    parse_arguments,
)

__all__ = [
    "RAW",
    "ROLES",
    "SECRET_KEYS",
    "CommaList",
    "RunFile",
    "ShellWords",
    "convert_options",
    "dump_arguments",
    "first_object",
    "load_config",
    "merge",
    "model_options",
    "parse_arguments",
    "parse_key_values",
    "parse_value",
]
