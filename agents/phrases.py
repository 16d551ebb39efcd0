"""The scripted agents' words: acknowledgements that fit the feeling shown, greetings, closings.

An acknowledgement is chosen by the family and level of the feeling the user's words show
(``agents.cues.feeling``), never by the experimental condition. Every one carries an
acknowledgement cue of ``users.dialogue`` ("sorry", "I understand", "I hear you", "here to
help" …), none asks anything, claims progress or closes, so the scripted user reads it as care
and nothing else. Variants are picked by a stable hash of the conversation's task and the
agent's turn (``pick``): the gold agent draws no random numbers, yet its texts vary across
tasks and turns.
"""

from __future__ import annotations

import zlib

from tau_sim.agents.cues import Feeling

ACKNOWLEDGEMENTS: dict[str, dict[str, tuple[str, ...]]] = {
    "anger": {
        "low": (
            "I understand you'd like this sorted out, and I'll take care of it.",
            "I hear you; let's get this sorted out.",
            "I understand, and I'll handle this for you.",
        ),
        "medium": (
            "I'm sorry for the trouble; I understand how frustrating this is.",
            "I can see this is frustrating, and I'm sorry. Let's fix it.",
            "I'm sorry about this. I understand, and I'll get it done.",
        ),
        "high": (
            "I'm truly sorry. I understand how frustrating this is, and I'll deal with it "
            "right away.",
            "I hear you, and I'm very sorry this happened. I'll put it right straight away.",
            "I'm really sorry about all of this; I understand why you're upset, and I'll fix it.",
        ),
    },
    "fear": {
        "low": (
            "No worries, I'll make sure this goes smoothly.",
            "I understand; I'm here to help you with this.",
            "No worries at all; I'll take care of it.",
        ),
        "medium": (
            "I understand this is worrying. I'm here to help, and we'll go through it step by "
            "step.",
            "I can see why you're nervous; we'll sort it out together.",
            "I'm sorry this is causing you worry. I'm here to help.",
        ),
        "high": (
            "I'm so sorry you're going through this. I understand how scary it is, and I'll do "
            "everything I can right now.",
            "I hear you, and I'm here to help. We'll get this fixed, step by step.",
            "I'm sorry, I can imagine how stressful this is. I'm here to help you through it.",
        ),
    },
    "sadness": {
        "low": (
            "I'm glad to help with this.",
            "Happy to help; we'll take care of it.",
            "I'm here to help, and I'll take care of this.",
        ),
        "medium": (
            "I'm sorry you're having a hard time. I'm here to help.",
            "That must be tiring, and I'm sorry. We'll take care of this together.",
            "I'm sorry it's been a rough time. I'm here to help with this.",
        ),
        "high": (
            "I'm really sorry things are so hard right now. I'm here to help, and I'll take care "
            "of this for you.",
            "That must be overwhelming, and I'm so sorry. I'll handle this for you.",
            "I'm so sorry you're dealing with all of this. I'm here to help, one thing at a time.",
        ),
    },
    "disgust": {
        "low": (
            "I understand; I'll keep this quick.",
            "I hear you. We'll get it done.",
            "I understand, I'll make this as quick as I can.",
        ),
        "medium": (
            "I'm sorry the service fell short of what you expected. I'll put it right.",
            "I understand your disappointment, and I apologize. We'll fix this.",
            "I apologize for the trouble; I understand it's not what you expected.",
        ),
        "high": (
            "I apologize; this is not the standard you should get from us. I'll fix it now.",
            "I'm sorry, you deserved better than this. I'll put it right.",
            "I understand, and I sincerely apologize. I'll make this right.",
        ),
    },
}
"""Acknowledgements by family and level of the feeling the user's words show."""

GREETINGS = (
    "Thanks for reaching out.",
    "Thank you for contacting us.",
    "Hello, and thanks for getting in touch.",
    "Thanks for getting in touch.",
)
"""How a first text opens when the user's words show no feeling."""


def pick(options: tuple[str, ...], *keys: object) -> str:
    """One of ``options``, the same for the same ``keys`` (a stable hash, no random draw)."""
    digest = zlib.crc32("\x1f".join(map(str, keys)).encode())
    return options[digest % len(options)]


def acknowledgement(shown: Feeling, *keys: object) -> str:
    """An acknowledgement of the feeling ``shown``, varied by ``keys`` (see ``pick``)."""
    return pick(ACKNOWLEDGEMENTS[shown.family][shown.level], *keys)
