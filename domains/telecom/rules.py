"""The figures of the telecom policy: the dispute window, the credit cap, the roaming day fee.

The intents use them to compute the gold path of each task (``access`` refuses a dispute past
the window), and the policy states the same numbers.
"""

from __future__ import annotations

DISPUTE_WINDOW_DAYS = 60
"""A charge can be disputed up to this many days after its bill was issued."""

CREDIT_CAP = 50.0
"""The most an agent may credit for one charge; above it a human agent decides."""

ROAMING_DAY_FEE = 10.0
"""What a day abroad costs on a plan without roaming included."""
