"""How a user writes (``UserScenario.persona``): what the LLM user is told, how scripted ones write.

The personas are the world's ``PERSONAS``: ``plain``, ``terse``, ``rambling``, ``formal`` and
``non-native``. ``described`` is the instruction the LLM user gets (a persona written by hand,
free text, is passed on as it is). ``styled`` rewrites a scripted user's message in the
persona, deterministically from the given rng. It changes only the words between the phrases
it is told to keep (the facts the user holds, so an agent can still read them, and the words
that carry its feeling: ``users.tone.FEELING_WORDS``) and it never adds a question, a digit,
a yes or a no, so what the agents' readers take from a message (facts, feelings,
confirmations, refusals accepted or pressed) is what the plain message said.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterable

from tau_sim.simulator.world import written_out

ASIDES = (
    "It has been a long week at work.",
    "I meant to sort this out days ago and never got round to it.",
    "My sister told me to just contact you.",
    "I am writing this on my lunch break.",
    "I had to dig through my emails to find everything.",
)
"""What a rambling user adds around its point: no question, digit, yes, no or feeling."""

DESCRIPTIONS: dict[str, str] = {
    "plain": "You write in plain, everyday sentences.",
    "terse": "You write as few words as you can: short fragments, no greetings, no small talk.",
    "rambling": (
        "You write chatty messages that take a moment to get to the point, and once in the "
        "conversation you add one aside about your day, one of these: "
        + " / ".join(ASIDES)
        + " Never add a fact about your case that this brief does not give."
    ),
    "formal": "You write formally and courteously, in full sentences without contractions.",
    "non-native": (
        "English is not your first language: you write short, simple sentences and sometimes "
        "leave out an article, but every fact you give (names, numbers, ids) is exact."
    ),
}
"""What the LLM user is told for each persona."""


_FILLER = re.compile(
    r"\b(?:please|just|actually|kindly|basically)\s+|^(?:hi|hello|hey),?\s+",
    re.IGNORECASE,
)
_ARTICLE = re.compile(r"\b(?:the|a|an) (?=\w)")


def described(persona: str) -> str:
    """The LLM user's instruction for ``persona`` (free text is returned as it is)."""
    return DESCRIPTIONS.get(persona, persona)


def styled(
    persona: str,
    text: str,
    kept: Iterable[str],
    rng: random.Random,
    asides: set[str] | None = None,
) -> str:
    """``text`` as a user of ``persona`` writes it; the ``kept`` phrases stay verbatim.

    A rambling user adds an aside around the whole message, once per conversation where the
    caller keeps the ``asides`` used so far (the set is updated); the others rewrite the words
    between the kept phrases; a plain user (or a persona written by hand) writes as it is.
    """
    if not text:
        return text
    if persona == "rambling":
        if asides is not None and asides:
            return text
        said = _ramble(text, rng)
        if asides is not None:
            asides.add(said)
        return said
    rewrite = _WORDING.get(persona)
    if rewrite is None:
        return text
    return _outside(text, kept, lambda part: rewrite(part, rng))


def _terse(part: str, rng: random.Random) -> str:
    cut = _FILLER.sub("", part)
    return re.sub(r"([.!?]\s+)([a-z])", lambda m: m.group(1) + m.group(2).upper(), cut)


def _formal(part: str, rng: random.Random) -> str:
    return written_out(part)


def _non_native(part: str, rng: random.Random) -> str:
    expanded = written_out(part)
    return _ARTICLE.sub(lambda m: "" if rng.random() < 0.5 else m.group(0), expanded)


def _ramble(text: str, rng: random.Random) -> str:
    aside = ASIDES[rng.randrange(len(ASIDES))]
    return f"{aside} {text}" if rng.random() < 0.5 else f"{text} {aside}"


_WORDING: dict[str, Callable[[str, random.Random], str]] = {
    "terse": _terse,
    "formal": _formal,
    "non-native": _non_native,
}
"""How each persona that rewords writes the words between the kept phrases."""


def _outside(text: str, kept: Iterable[str], rewrite: Callable[[str], str]) -> str:
    """``text`` with ``rewrite`` applied to the parts between the ``kept`` phrases.

    Spaces the rewrite doubles are collapsed and a first letter it lowered is raised again;
    the values themselves are never touched.
    """
    values = sorted({v for v in kept if v}, key=len, reverse=True)
    pattern = re.compile("|".join(map(re.escape, values)), re.IGNORECASE) if values else None
    out: list[str] = []
    last = 0
    for match in pattern.finditer(text) if pattern is not None else ():
        out.append(_spaced(rewrite(text[last : match.start()])))
        out.append(match.group(0))
        last = match.end()
    out.append(_spaced(rewrite(text[last:])))
    if out[0][:1].islower():
        out[0] = out[0][0].upper() + out[0][1:]
    return "".join(out).strip()


def _spaced(text: str) -> str:
    return re.sub(r"[ \t]{2,}", " ", text)
