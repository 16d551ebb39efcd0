"""The report's ``assertions`` section: natural-language assertions judged, met, not evaluated.

Read from each completed conversation's stored breakdown (``RewardBreakdown.judged`` and
``not_evaluated``), so ``report`` shows what the judge (``tau-sim run --judge``) decided and how
many conversations had assertions nobody judged.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

NL_ASSERTION = "NL_ASSERTION"


def assertion_report(rows: Iterable[dict[str, Any]]) -> dict[str, int] | None:
    """Counts over ``rows`` (conversation rows, read once); None when none had assertions."""
    judged = met = conversations = not_evaluated = 0
    for row in rows:
        if row.get("status") != "completed" or not row.get("breakdown"):
            continue
        breakdown = json.loads(row["breakdown"])
        verdicts = breakdown.get("judged") or {}
        if verdicts:
            conversations += 1
            judged += len(verdicts)
            met += sum(1 for v in verdicts.values() if v)
        if NL_ASSERTION in (breakdown.get("not_evaluated") or []):
            not_evaluated += 1
    if not conversations and not not_evaluated:
        return None
    return {
        "conversations_judged": conversations,
        "assertions_judged": judged,
        "assertions_met": met,
        "conversations_not_evaluated": not_evaluated,
    }


def assertion_line(section: dict[str, int] | None) -> str | None:
    """The report's line about natural-language assertions (None: the run had none)."""
    if section is None:
        return None
    line = (
        f"natural-language assertions: {section['assertions_met']}/"
        f"{section['assertions_judged']} met in {section['conversations_judged']} judged "
        "conversations"
    )
    if section["conversations_not_evaluated"]:
        line += (
            f"; {section['conversations_not_evaluated']} conversations count them but were "
            "not judged (no --judge, or the judge's answer was empty or unreadable): scored 0, "
            "never passed"
        )
    return line
