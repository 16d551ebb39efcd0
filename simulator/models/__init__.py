"""Model backends: one async chat-with-tools interface over hosted APIs and servers tau-sim starts.

Each provider (``openai_provider``, ``anthropic_provider``, ``vllm_provider``, ``local_provider``,
``servers``) registers itself by name when its plugin entry point is imported, so none is named
here. What agents and users share is: options (``key=value`` flags, the run file, typed checks)
and lenient parsing of the arguments a model wrote for a tool call.

Each name is imported from its module on first use (``core.exports.lazy_names``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tau_sim.simulator.core.exports import lazy_names

if TYPE_CHECKING:
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

MODULE_OF = {
    "CommaList": "options",
    "RAW": "toolargs",
    "ROLES": "options",
    "RunFile": "options",
    "SECRET_KEYS": "options",
    "ShellWords": "options",
    "convert_options": "options",
    "dump_arguments": "toolargs",
    "first_object": "toolargs",
    "load_config": "options",
    "merge": "options",
    "model_options": "options",
    "parse_arguments": "toolargs",
    "parse_key_values": "options",
    "parse_value": "options",
}
"""The module of this package that defines each public name."""

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

__getattr__ = lazy_names(__name__, globals(), MODULE_OF)
