"""``tracer.signals`` on a real retail task: redundant, unanswered and the user's tags."""

from __future__ import annotations

from tau_sim.simulator.core.events import AgentMessage, EmotionUpdate, Event, UserMessage
from tau_sim.simulator.core.registry import get_domain, load_plugins
from tau_sim.simulator.world import Task
from tau_sim.tracer.signals import signals
from tau_sim.tracer.source import Conversation

C = "c1"
ROW = {"id": C, "run_id": "r", "emotion": "anger", "intensity": 0.9, "trial": 0, "seed": 1}


def _task() -> Task:
    """The first retail task whose opening names its order and whose user holds a zip code."""
    load_plugins()
    return next(
        t
        for t in get_domain("retail").tasks
        if t.scenario.volunteered() == ["order_id"] and "zip" in t.scenario.known_info
    )


TASK = _task()
ORDER = TASK.scenario.known_info["order_id"]


def conversation(events: list[Event]) -> Conversation:
    return Conversation(ROW, TASK, get_domain("retail"), events)


def user(text: str) -> UserMessage:
    return UserMessage(conversation=C, text=text)


def say(text: str) -> AgentMessage:
    return AgentMessage(conversation=C, text=text)


def test_asking_what_the_opening_gave_is_redundant_and_a_question_asked_back_unanswered() -> None:
    found = signals(
        conversation(
            [
                user(TASK.scenario.opening),
                say("Could you please provide your zip code?"),
                user("It is 10001. Is this going to take long?"),
                say("Could you please provide your order ID?"),  # the opening gave it
                EmotionUpdate(
                    conversation=C,
                    emotion="frustration",
                    intensity=0.9,
                    dissatisfaction=0.3,
                    triggers=["repeated_question:order_id", "dismissive", "question:zip"],
                ),
                user(f"I told you: {ORDER}. Why again?"),
                say("Sorry about that. Could you please provide your zip code once more?"),
            ]
        )
    )
    assert found.redundant == 2  # the order id (volunteered), the zip code (asked before)
    assert found.reliance == 1  # the order id is also lookupable
    assert found.unanswered == 1  # "take long?" got a question back; "why again?" an apology
    assert found.tags == {"dismissive": 1, "question": 1, "repeated_question": 1}
    assert found.questions == 3 and found.turns == 6
