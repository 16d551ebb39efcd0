r"""Text from models and users made safe to print: control and invisible characters escaped.

A stored message may hold anything a model or a user wrote: NUL, ESC (``\x1b[31m`` recolours
the terminal, ``\x1b]52;...`` writes to the clipboard), backspace and carriage return (which
overprint what came before), the bidirectional overrides and isolates (U+202A-U+202E,
U+2066-U+2069, which reorder a line so it reads other than it is), and zero-width or other
format characters (U+200B-U+200F, U+2060, U+FEFF, the tag characters U+E0000-U+E007F) that
hide text. ``visible`` writes every such character as an escape (``\x00``, ``\u202e``,
``\U000e0041``), so what a terminal shows is what is stored; newline and tab stay as they are.
``json_visible`` does the same inside a JSON document with JSON's own ``\uXXXX`` escapes, so
the document decodes to exactly the stored text.

The characters escaped: every control (Unicode category Cc) but newline and tab, every format
character (Cf: the bidirectional marks, zero-width characters, soft hyphen, word joiner, byte
order mark, interlinear annotation, tag characters), and the line and paragraph separators
(Zl, Zp: U+2028, U+2029), as listed by Unicode 14 (``tests/simulator/core/test_escapes.py``
checks the list against the running Python's ``unicodedata``). A zero-width joiner inside an
emoji sequence is escaped too: the transcript shows the characters, not the glyph.
"""

from __future__ import annotations

import re

_RANGES = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f"
)
_HIDDEN = re.compile(f"[{_RANGES}]")
"""One character that ``visible`` escapes (controls but newline and tab, format characters,
the line and paragraph separators)."""


def _escape(match: re.Match[str]) -> str:
    point = ord(match.group())
    if point < 0x100:
        return f"\\x{point:02x}"
    return f"\\u{point:04x}" if point < 0x10000 else f"\\U{point:08x}"


def _json_escape(match: re.Match[str]) -> str:
    point = ord(match.group())
    if point < 0x10000:
        return f"\\u{point:04x}"
    high, low = divmod(point - 0x10000, 0x400)
    return f"\\u{0xD800 + high:04x}\\u{0xDC00 + low:04x}"


def visible(text: str) -> str:
    """``text`` with every control (but newline and tab) and format character escaped."""
    return _HIDDEN.sub(_escape, text)


def json_visible(document: str) -> str:
    r"""A JSON document with those characters written as ``\uXXXX`` (it decodes the same).

    JSON puts such characters only inside strings, where a ``\uXXXX`` escape stands for the
    character itself; characters beyond U+FFFF become a surrogate pair, as JSON spells them.
    """
    return _HIDDEN.sub(_json_escape, document)
