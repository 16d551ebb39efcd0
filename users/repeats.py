"""Sentences a user says twice in one conversation (the repeated-sentence figure).

Sentences are compared lower-cased, without the conversation's end markers; a message repeats
when any of its sentences was said in an earlier message of the same conversation.
"""

from __future__ import annotations

import re

from tau_sim.simulator.core import STOP, UNSATISFIED

_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def sentences(text: str) -> list[str]:
    """The sentences of a user message, lower-cased, end markers left out."""
    text = text.replace(STOP, "").replace(UNSATISFIED, "")
    return [s.strip().lower() for s in _SENTENCE.split(text) if s.strip()]


def repeats(texts: list[str]) -> int:
    """How many of ``texts`` (one conversation's user messages) repeat an earlier sentence."""
    said: set[str] = set()
    count = 0
    for text in texts:
        parts = sentences(text)
        count += any(p in said for p in parts)
        said.update(parts)
    return count
