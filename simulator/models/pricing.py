"""List prices of hosted models, for the ``cost_usd`` of each call.

USD per million tokens (input, output), standard tier, no batch or cache discounts, from the
providers' public pricing pages (openai.com/api/pricing, anthropic.com/pricing) as of 2025.
Prices change: pass ``price_in=`` / ``price_out=`` (USD per million tokens) as model arguments to
override them, or to price a self-hosted model. Unknown models get no cost (None), never a guess.
"""

from __future__ import annotations

import re

PRICES: dict[str, tuple[float, float]] = {
    # OpenAI
    "gpt-5": (1.25, 10.0),
    "gpt-5-mini": (0.25, 2.0),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-4.1": (2.0, 8.0),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4o": (2.50, 10.0),
    "gpt-4o-mini": (0.15, 0.60),
    "o3": (2.0, 8.0),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
    "o1": (15.0, 60.0),
    # Anthropic
    "claude-opus-4-5": (5.0, 25.0),
    "claude-opus-4-1": (15.0, 75.0),
    "claude-opus-4": (15.0, 75.0),
    "claude-sonnet-4-5": (3.0, 15.0),
    "claude-sonnet-4": (3.0, 15.0),
    "claude-haiku-4-5": (1.0, 5.0),
    "claude-3-7-sonnet": (3.0, 15.0),
    "claude-3-5-sonnet": (3.0, 15.0),
    "claude-3-5-haiku": (0.80, 4.0),
    "claude-3-haiku": (0.25, 1.25),
    "claude-3-opus": (15.0, 75.0),
}

# a snapshot of a model adds a date or "latest": claude-3-5-haiku-20241022, gpt-4.1-2025-04-14
_SNAPSHOT = re.compile(r"(?P<base>.+)-(?:\d{8}|\d{4}-\d{2}-\d{2}|latest)")


def price_of(model: str) -> tuple[float, float] | None:
    """(input, output) USD per million tokens of ``model`` or a dated snapshot of it."""
    name = model.rsplit("/", 1)[-1].lower()
    if name in PRICES:
        return PRICES[name]
    match = _SNAPSHOT.fullmatch(name)
    return PRICES.get(match.group("base")) if match else None


def cost_usd(tokens_in: int, tokens_out: int, prices: tuple[float, float] | None) -> float | None:
    """Cost of one call at ``prices`` (USD per million tokens), or None when unpriced."""
    if prices is None:
        return None
    return (tokens_in * prices[0] + tokens_out * prices[1]) / 1_000_000
