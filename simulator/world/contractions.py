"""Contractions and their written-out forms: one table for whoever compares or rewrites words.

Output matching (``evaluation.normalize_text``) writes them out so that "can't be changed"
matches "cannot be changed"; a formal scripted user (``tau_sim.users.personas``) writes out
the contractions of its messages.
"""

from __future__ import annotations

import re

CONTRACTIONS = {
    "i'm": "i am",
    "i've": "i have",
    "i'd": "i would",
    "i'll": "i will",
    "it's": "it is",
    "that's": "that is",
    "what's": "what is",
    "you're": "you are",
    "let's": "let us",
    "can't": "cannot",
    "won't": "will not",
    "isn't": "is not",
    "aren't": "are not",
    "wasn't": "was not",
    "doesn't": "does not",
    "don't": "do not",
    "didn't": "did not",
    "couldn't": "could not",
    "shouldn't": "should not",
}
"""Contraction (lower case) -> its words."""

_CONTRACTION = re.compile(
    r"\b(" + "|".join(map(re.escape, CONTRACTIONS)) + r")(?![\w'])", re.IGNORECASE
)


def written_out(text: str) -> str:
    """``text`` with each contraction written out; a capital first letter stays capital."""

    def words(match: re.Match[str]) -> str:
        said = match.group(0)
        out = CONTRACTIONS[said.lower()]
        if said[0].isupper():
            return out[0].upper() + out[1:]
        return out if not out.startswith("i ") else "I" + out[1:]

    return _CONTRACTION.sub(words, text)
