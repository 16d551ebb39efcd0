"""A need the user raises mid-conversation: the scripted user raises it, gold waits for it.

A toy-gym task asks for one booking's status and, later, to cancel the other booking. The
scripted user raises the later need in its reply to the agent's third text, or earlier
instead of closing when asked whether there is anything else; the gold agent does not start
the later part before the user raised it, confirms it apart, and scores 1.0.
"""

from __future__ import annotations

import anyio
import msgspec

from tau_sim.simulator.core.chat import ChatMessage
from tau_sim.simulator.core.events import ToolCall, UserMessage
from tau_sim.simulator.world import LATER_AFTER, Action, Task
from tau_sim.simulator.world.views import answer_key, user_view
from tau_sim.users.scripted import ScriptedUser
from tests.agents.dialog import context, play
from tests.agents.toy_domain import TASKS, gym

DOMAIN = gym()
LATER = "Oh, and while I have you, could you also cancel my other booking B1? I moved away."


def _later_task() -> Task:
    status = next(t for t in TASKS if t.intent == "booking_status")
    cancel = {"booking_id": "B1", "reason": "I moved away"}
    actions = [
        *status.actions,
        Action("get_booking", {"booking_id": "B1"}),
        Action("cancel_booking", cancel),
    ]
    known = {**status.scenario.known_info, "reason": "I moved away"}
    scenario = msgspec.structs.replace(status.scenario, later=LATER, known_info=known)
    return msgspec.structs.replace(
        status, id="gym-later", scenario=scenario, actions=actions, later_at=len(status.actions)
    )


def test_the_answer_key_carries_where_the_later_part_starts() -> None:
    task = _later_task()
    key = answer_key(DOMAIN, task)
    assert key.later_at == task.later_at == 3
    assert [key.actions[i].name for i in key.writes] == ["cancel_booking"]


def test_gold_waits_for_the_later_need_and_then_serves_it() -> None:
    task = _later_task()
    outcome = anyio.run(play, DOMAIN, task, "scripted/gold")
    assert outcome.reward == 1.0 and outcome.ended == "user_stop"
    events = outcome.events
    raised = next(
        n
        for n, e in enumerate(events)
        if isinstance(e, UserMessage) and "cancel my other" in e.text
    )
    later_call = next(
        n
        for n, e in enumerate(events)
        if isinstance(e, ToolCall) and e.call.arguments.get("booking_id") == "B1"
    )
    assert raised < later_call
    # the status was answered (and "anything else?" asked) before the later need came up
    before = [t for t in outcome.agent_texts if "anything else" in t.lower()]
    assert before and "confirmed" in before[0]
    assert "later" in outcome.triggers


def test_gold_never_serves_a_later_need_the_user_does_not_raise() -> None:
    task = _later_task()
    # the answer key still says where the later part starts, but this user never raises it
    silent = msgspec.structs.replace(
        task, scenario=msgspec.structs.replace(task.scenario, later="")
    )
    outcome = anyio.run(play, DOMAIN, silent, "scripted/gold")
    assert outcome.ended == "user_stop" and "cancel_booking" not in outcome.tool_calls
    assert outcome.reward == 0.0  # the answer key wanted the cancellation nobody asked for


def test_the_scripted_user_raises_it_in_reply_to_the_third_text_at_the_latest() -> None:
    task = _later_task()
    user = ScriptedUser(user_view(context(DOMAIN, task)))
    transcript: list[ChatMessage] = []

    async def turn(text: str | None) -> str:
        if text is not None:
            transcript.append(ChatMessage(role="assistant", content=text))
        reply = await user.respond(list(transcript))
        transcript.append(ChatMessage(role="user", content=reply.text))
        return reply.text

    async def dialogue() -> list[str]:
        replies = [await turn(None)]
        replies.append(await turn("Could you please provide your email address?"))
        replies.append(await turn("Thank you. Could you tell me your booking ID?"))
        replies.append(await turn("Thanks. Shall I go ahead? Please reply yes or no."))
        replies.append(await turn("Done. Is there anything else I can help you with?"))
        return replies

    replies = anyio.run(dialogue)
    # replies[n] answers the agent's n-th text (replies[0] is the opening)
    assert all(LATER not in r for r in replies[:LATER_AFTER])
    assert LATER in replies[LATER_AFTER]
    assert "###STOP###" in replies[LATER_AFTER + 1]  # raised once: "anything else?" closes
