"""The ``tau-sim`` command line: one module per command, and what command plugins share.

``main`` parses and dispatches; ``parser`` holds the built-in commands (``run``, ``report``,
``compare``, ``rescore``, ``show``, ``export``, ``review``, ``runs``, ``models``, ``emotions``,
``domains``) and places those of plugins (``core.registry.COMMANDS``). The names below are what
a plugin's command (``tau-sim tui``, ``human``) needs to configure, resume and end a run the way
``tau-sim run`` does.

They load on first use (PEP 562 ``__getattr__``): importing this package loads none of the
modules it names, so a command imports only what it uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tau_sim.simulator.core.exports import lazy_names

if TYPE_CHECKING:
    from tau_sim.simulator.cli.domains import installed_domains
    from tau_sim.simulator.cli.endings import error_share_exit, remove_unused
    from tau_sim.simulator.cli.errors import EXIT_INTERRUPTED, exit_code_of, silence_output
    from tau_sim.simulator.cli.options import flag
    from tau_sim.simulator.cli.parser import parsers
    from tau_sim.simulator.cli.reporting import print_report
    from tau_sim.simulator.cli.resume import resume_config, resume_keys, resume_settings
    from tau_sim.simulator.cli.run_options import add_run_arguments
    from tau_sim.simulator.cli.settings import config_from_settings, configure_run, unique

__all__ = [
    "EXIT_INTERRUPTED",
    "add_run_arguments",
    "config_from_settings",
    "configure_run",
    "error_share_exit",
    "exit_code_of",
    "flag",
    "installed_domains",
    "parsers",
    "print_report",
    "remove_unused",
    "resume_config",
    "resume_keys",
    "resume_settings",
    "silence_output",
    "unique",
]

_MODULE_OF = {
    "EXIT_INTERRUPTED": "errors",
    "add_run_arguments": "run_options",
    "config_from_settings": "settings",
    "configure_run": "settings",
    "error_share_exit": "endings",
    "exit_code_of": "errors",
    "flag": "options",
    "installed_domains": "domains",
    "parsers": "parser",
    "print_report": "reporting",
    "remove_unused": "endings",
    "resume_config": "resume",
    "resume_keys": "resume",
    "resume_settings": "resume",
    "silence_output": "errors",
    "unique": "settings",
}
"""Each public name's module in this package."""

__getattr__ = lazy_names(__name__, globals(), _MODULE_OF)
