"""How ``tracer stats`` sorts the user's tags and bins a conversation, without a store."""

from __future__ import annotations

import pytest

from tau_sim.tracer.questions import Questions, tags_questions
from tau_sim.tracer.stats import Point, bin_label, binned


def point(
    tools: int, triggers: list[str], *, user: str = "scripted", success: bool = True
) -> Point:
    return Point(
        run_id="r",
        id="r/0",
        agent="scripted/gold",
        user=user,
        emotion="neutral",
        intensity=0.0,
        tools=tools,
        kinds=Questions.of(triggers).as_dict(),
        tagged=tags_questions(user),
        untagged=0 if tags_questions(user) else 3,
        success=success,
        abandoned=not success,
    )


def test_tags_split_into_necessary_needless_and_unclear() -> None:
    found = Questions.of(
        [
            "opening",
            "question:email",
            "question:order_id",
            "confirmation",
            "lookupable_question:order_id",
            "unknown_question:user_id",
            "repeated_question:email",
            "repeated_question:zip",
            "unclear_question",
            "dismissive",
            "progress",
            "insisted:firm",
        ]
    )
    assert found.necessary == 3 and found.needless == 4 and found.unclear == 1
    assert found.as_dict() == {
        "asked": 2,
        "confirmation": 1,
        "lookupable": 1,
        "unknown": 1,
        "repeated": 2,
        "unclear": 1,
    }


def test_only_the_scripted_user_tags_questions() -> None:
    assert tags_questions("scripted")
    assert not tags_questions("openai/gpt-4.1-mini") and not tags_questions("human")


def test_balance_and_its_bins() -> None:
    assert point(3, ["question:email", "confirmation"]).balance == 1.0
    assert point(1, ["question:email", "lookupable_question:order_id"]).balance == pytest.approx(
        2 / 3
    )
    assert point(0, []).balance is None  # no moves at all
    assert point(4, ["question:email"], user="openai/m").balance is None  # untagged
    assert point(0, ["unclear_question"]).balance is None  # unclear counts in neither
    assert [bin_label(b) for b in (0.0, 0.2, 0.59, 0.8, 1.0, None)] == [
        "0.0-0.2",
        "0.2-0.4",
        "0.4-0.6",
        "0.8-1.0",
        "0.8-1.0",
        "none",
    ]
    rows = binned([point(1, ["repeated_question:email"], success=False), point(2, [])])
    assert [(r["balance"], r["conversations"]) for r in rows] == [
        ("0.0-0.2", 0),
        ("0.2-0.4", 0),
        ("0.4-0.6", 1),
        ("0.6-0.8", 0),
        ("0.8-1.0", 1),
    ]
    assert rows[2]["success_rate"] == 0.0 and rows[4]["success_rate"] == 1.0
    with_none = binned([point(0, [], user="human")])
    assert with_none[-1]["balance"] == "none" and with_none[-1]["totals"]["untagged"] == 3
