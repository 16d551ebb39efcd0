"""``visible`` and ``json_visible``: every control and format character, and only those."""

import json
import sys
import unicodedata

from tau_sim.simulator.core import json_visible, visible

HIDDEN_CATEGORIES = ("Cc", "Cf", "Zl", "Zp")


def test_every_control_and_format_character_is_escaped_and_nothing_else() -> None:
    hidden = [
        chr(c)
        for c in range(sys.maxunicode + 1)
        if unicodedata.category(chr(c)) in HIDDEN_CATEGORIES and chr(c) not in "\n\t"
    ]
    missed = [f"U+{ord(c):04X}" for c in hidden if visible(c) == c]
    assert missed == [], f"Unicode {unicodedata.unidata_version} has more: {missed}"
    sample = "".join(chr(c) for c in range(0x20, 0x3000) if chr(c) not in hidden)
    assert visible(sample) == sample  # printable text, accents, CJK: as they are
    assert visible("tab\tand\nnewline") == "tab\tand\nnewline"


def test_the_escapes_name_the_character() -> None:
    assert visible("a\x00b\x1b[31mc\rd\x9b") == r"a\x00b\x1b[31mc\x0dd\x9b"
    assert visible("\u202eevil\u2066x\u2069") == r"\u202eevil\u2066x\u2069"
    assert visible("zero\u200bwidth\ufeff") == r"zero\u200bwidth\ufeff"
    assert visible("tag\U000e0041") == r"tag\U000e0041"


def test_json_visible_decodes_to_the_same_text() -> None:
    text = "a\x00b\x1b[31m\x7f\x9b\u202e\u200b\u2028\ufeff\U000e0041 é 字 😀"
    document = json.dumps({"text": text}, ensure_ascii=False)
    shown = json_visible(document)
    assert json.loads(shown) == {"text": text}
    assert all(visible(c) == c for c in shown)  # nothing hidden left in the document
    assert r"\u202e" in shown and r"\udb40\udc41" in shown and "😀" in shown
