"""Plays one conversation without the engine: scripted agent, scripted user and domain tools."""

from __future__ import annotations

from typing import Any

import msgspec

from simulator.chat import ChatMessage, ChatModel
from simulator.context import ConversationContext
from simulator.domain import Domain, Task
from simulator.events import RewardBreakdown
from simulator.roles import UNSATISFIED, EmotionState, UserSimulator


class Outcome(msgspec.Struct):
    reward: float
    ended: str  # "###STOP###", "###UNSATISFIED###", "transfer" or "max_steps"
    breakdown: RewardBreakdown
    tool_calls: list[str]
    agent_texts: list[str]
    user_texts: list[str]
    states: list[EmotionState]

    @property
    def abandoned(self) -> bool:
        return self.ended == UNSATISFIED

    @property
    def triggers(self) -> list[str]:
        return [t for s in self.states for t in s.triggers]


def context(
    domain: Domain, task: Task, emotion: str = "neutral", intensity: float = 0.6, seed: int = 0
) -> ConversationContext:
    return ConversationContext(
        conversation_id=f"{task.id}-{emotion}-{seed}",
        run_id="test",
        task=task,
        domain=domain,
        emotion=emotion,
        intensity=intensity,
        trial=0,
        seed=seed,
    )


async def play(
    domain: Domain, task: Task, agent: ChatModel, user: UserSimulator, max_steps: int = 30
) -> Outcome:
    db = domain.new_database()
    system = ChatMessage(role="system", content=domain.policy)
    history: list[ChatMessage] = []
    transcript: list[ChatMessage] = []
    agent_texts: list[str] = []
    tool_calls: list[str] = []
    states: list[EmotionState] = []
    ended = "max_steps"

    async def user_turn() -> str | None:
        turn = await user.respond(list(transcript))
        message = ChatMessage(role="user", content=turn.text)
        transcript.append(message)
        history.append(message)
        if turn.state is not None:
            states.append(turn.state)
        return turn.ends

    await user_turn()
    for _ in range(max_steps):
        response = await agent.chat([system, *history], domain.toolkit.specs)
        message = response.message
        history.append(message)
        if message.content:
            agent_texts.append(message.content)
            transcript.append(ChatMessage(role="assistant", content=message.content))
        if message.tool_calls:
            assert len(message.tool_calls) == 1, "one tool call per turn"
            call = message.tool_calls[0]
            tool_calls.append(call.name)
            args: dict[str, Any] = dict(call.arguments)
            outcome = domain.toolkit.call(db, call.name, args)
            history.append(
                ChatMessage(
                    role="tool", content=outcome.content, tool_call_id=call.id, name=call.name
                )
            )
            if domain.toolkit.ends(call.name) is not None:
                ended = "transfer"
                break
            continue
        ends = await user_turn()
        if ends:
            ended = ends
            break
    reward, breakdown = domain.evaluate(task, db, agent_texts)
    return Outcome(
        reward=reward,
        ended=ended,
        breakdown=breakdown,
        tool_calls=tool_calls,
        agent_texts=agent_texts,
        user_texts=[m.content or "" for m in transcript if m.role == "user"],
        states=states,
    )
