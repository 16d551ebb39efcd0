"""The published lexicons the user audit reads user words with: NRC emotions and VADER valence.

Both ship their data inside a PyPI package (``nrclex``: the NRC Emotion Lexicon as JSON;
``vadersentiment``: VADER's lexicon and analyser); nothing is downloaded. ``nrclex``'s own
tokenizer needs TextBlob corpora, so its lexicon file is read directly. A missing package is a
``UsageError`` naming what to install.
"""

from __future__ import annotations

import importlib.util
import json
import re
from functools import cache
from pathlib import Path
from typing import Protocol

from tau_sim.simulator.core import UsageError

# NRC's emotion names mapped to our families; its other emotions (anticipation, surprise,
# trust) and its valence tags (positive, negative) name no family.
NRC_FAMILY: dict[str, str] = {
    "anger": "anger",
    "fear": "fear",
    "sadness": "sadness",
    "disgust": "disgust",
    "joy": "enjoyment",
}
_ENDINGS = (
    ("ied", "y"),
    ("ies", "y"),
    ("ying", "y"),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
    ("ly", ""),
    ("es", ""),
    ("s", ""),
)
_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
_WORD_CASED = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


class _Analyser(Protocol):
    lexicon: dict[str, float]

    def polarity_scores(self, text: str) -> dict[str, float]: ...


@cache
def nrc_lexicon() -> dict[str, frozenset[str]]:
    """Each word of the NRC Emotion Lexicon and the NRC emotions it carries."""
    spec = importlib.util.find_spec("nrclex")
    if spec is None or spec.origin is None:
        raise UsageError("users audit: the NRC lexicon is missing (pip install nrclex)")
    folder = Path(spec.origin).parent
    # nrclex 4 keeps the file in its data folder; earlier releases beside the module
    found = [p for p in (folder / "data" / "nrc_en.json", folder / "nrc_en.json") if p.is_file()]
    if not found:
        raise UsageError(f"users audit: nrclex ships no lexicon file under {folder}")
    path = found[0]
    raw: dict[str, list[str]] = json.loads(path.read_text(encoding="utf-8"))
    return {word: frozenset(emotions) for word, emotions in raw.items()}


@cache
def _vader() -> _Analyser:
    try:
        from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer
    except ImportError:
        raise UsageError("users audit: VADER is missing (pip install vadersentiment)") from None
    analyser: _Analyser = SentimentIntensityAnalyzer()
    return analyser


def words(text: str) -> list[str]:
    """The lower-cased words of a text."""
    return _WORD.findall(text.lower())


def family_counts(text: str, given: frozenset[str] = frozenset()) -> dict[str, int]:
    """How many words of ``text`` the NRC lexicon files under each family.

    Words in ``given`` (those of the scenario and of what the agent said) are not counted: they
    name the matter ("cancel an order made by mistake"), not the user's feeling about it.
    """
    lexicon = nrc_lexicon()
    counts = dict.fromkeys(NRC_FAMILY.values(), 0)
    for word in words(text):
        if word in given:
            continue
        for emotion in _entry(lexicon, word):
            family = NRC_FAMILY.get(emotion)
            if family is not None:
                counts[family] += 1
    return counts


def _entry(lexicon: dict[str, frozenset[str]], word: str) -> frozenset[str]:
    """A word's NRC emotions; an inflected form the lexicon lacks reads as its stem.

    The lexicon lists base forms ("scare", "worry"); "scared", "worried" and "worrying" are
    looked up as those (the stem rules cover English's regular endings only).
    """
    if word in lexicon:
        return lexicon[word]
    for ending, back in _ENDINGS:
        if word.endswith(ending) and len(word) > len(ending) + 2:
            stem = word[: -len(ending)] + back
            if stem in lexicon:
                return lexicon[stem]
    return frozenset()


def valence(text: str, given: frozenset[str] = frozenset()) -> float:
    """VADER's compound valence of ``text``, -1..1, its words in ``given`` left unscored.

    VADER weighs capitals, exclamation marks and intensifiers, so shouting reads stronger; a
    word of the scenario or of the agent's messages that VADER scores ("mistake") is dropped
    from the text first, so that only the user's own words carry the valence.
    """
    analyser = _vader()
    if given:
        scored = given & analyser.lexicon.keys()
        text = _WORD_CASED.sub(lambda m: "" if m.group(0).lower() in scored else m.group(0), text)
    return analyser.polarity_scores(text)["compound"]


def negativity(text: str, given: frozenset[str] = frozenset()) -> float:
    """The negative valence of ``text``, 0..1 (``valence`` below zero, negated)."""
    return max(0.0, -valence(text, given))


def positivity(text: str, given: frozenset[str] = frozenset()) -> float:
    """The positive valence of ``text``, 0..1 (``valence`` above zero)."""
    return max(0.0, valence(text, given))
