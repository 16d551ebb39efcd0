"""The embedded model's server: llama-cpp-python's, with tau-sim's chat format registered.

``python -m tau_sim.simulator.models.llama_server ARGS`` takes the arguments of
``python -m llama_cpp.server``; ``--chat_format tau-sim-tools`` selects ``llama_chat``'s
bounded tool-calling handler, and llama-cpp-python's own formats stay available by their names.
"""

from __future__ import annotations

import runpy

from tau_sim.simulator.models.llama_chat import register


def main() -> None:
    """Register ``llama_chat.FORMAT``, then run ``python -m llama_cpp.server`` on ``sys.argv``."""
    register()
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
