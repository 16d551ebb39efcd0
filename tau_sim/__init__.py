"""tau-sim: tool-calling agents against simulated emotional users, and training data from them.

The design card's folders (``simulator/``, ``agents/``, ``users/``, ``domains/``, ``tui/``,
``tracer/``) sit at the repository's top; this package links them in, so that the checkout and
an installed wheel import the same names: ``tau_sim.simulator``, ``tau_sim.agents``, ….
"""
