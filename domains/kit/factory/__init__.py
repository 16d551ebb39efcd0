"""Build-time helpers the domains' task factories share: challenges as combinators.

Only task generation imports this package (``tau-sim domains generate``, Tracer's construct,
tests); a run never does. Each module holds one challenge or one family of shared helpers;
import from the module itself.
"""
