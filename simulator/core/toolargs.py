"""Lenient parsing of the arguments a model wrote for a tool call.

Models write bad JSON: code fences, trailing prose, single objects wrapped in lists, a JSON string
holding the object. What still is an object after light repair is used; anything else is passed
on as ``{"__raw__": text}``, which the domain toolkit rejects with an error result that the agent
sees (never a crash: "arguments of `T` must be a JSON object ...; got a JSON array: ...", built
in ``simulator.world.toolerrors``), and which is sent back to the model verbatim in later turns.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

import msgspec

RAW = "__raw__"
_decode = msgspec.json.decode


def parse_arguments(raw: str | dict[str, Any] | None) -> dict[str, Any]:
    """The tool-call arguments as an object; ``{"__raw__": raw}`` when they are not one."""
    if raw is None:
        return {}
    if isinstance(raw, dict):
        return raw
    text = raw.strip()
    if not text:
        return {}
    try:
        value = _decode(text)
    except msgspec.DecodeError:
        value = first_object(text)
    if isinstance(value, str):  # double-encoded: "{\"a\": 1}"
        with contextlib.suppress(msgspec.DecodeError):
            value = _decode(value)
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if isinstance(value, dict):
        return value
    return {RAW: raw}


def first_object(text: str) -> dict[str, Any] | None:
    """The first JSON object in ``text`` (the whole text, or inside fences or prose), or None.

    Control characters inside its strings are taken as they are: a small model's raw line
    break in a message is still its message.
    """
    start = text.find("{")
    decoder = json.JSONDecoder(strict=False)
    while start != -1:
        try:
            value: dict[str, Any] = decoder.raw_decode(text, start)[0]  # "{" starts an object
            return value
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
    return None


def dump_arguments(arguments: dict[str, Any]) -> str:
    """The JSON text sent back to a model for arguments it wrote (raw text stays verbatim)."""
    if len(arguments) == 1 and isinstance(arguments.get(RAW), str):
        return str(arguments[RAW])
    return msgspec.json.encode(arguments).decode()
