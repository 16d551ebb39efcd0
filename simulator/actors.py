"""The three actors of a conversation: agent, user and environment.

Each owns an inbox on the conversation's channel, handles one event at a time and publishes
what it produces; none calls another.
"""

from __future__ import annotations

from simulator.bus import AGENT, ENV, USER, Channel
from simulator.chat import ChatMessage, Usage
from simulator.database import Database
from simulator.events import (
    AgentMessage,
    EmotionUpdate,
    ModelUsage,
    ToolCall,
    ToolResult,
    UserMessage,
)
from simulator.registry import split_model_name
from simulator.roles import Agent, UserSimulator
from simulator.tools import Toolkit


def usage_event(conversation: str, role: str, model: str, usage: Usage) -> ModelUsage:
    """The ModelUsage event of one model call."""
    return ModelUsage(
        conversation=conversation,
        role=role,
        backend=split_model_name(model)[0],
        model=model,
        tokens_in=usage.tokens_in,
        tokens_out=usage.tokens_out,
        latency_s=usage.latency_s,
        retries=usage.retries,
        cost_usd=usage.cost_usd,
    )


class AgentActor:
    """Turns user messages and tool results into agent turns."""

    def __init__(self, agent: Agent, model: str, channel: Channel) -> None:
        self.agent = agent
        self.model = model
        self.channel = channel
        self.history: list[ChatMessage] = []
        self.texts: list[str] = []
        self._pending: set[str] = set()

    async def run(self) -> None:
        """Handle the inbox until the conversation is cancelled."""
        inbox = self.channel.inboxes[AGENT]
        while not self.channel.closed:
            event = await inbox.get()
            if event is None or self.channel.closed:
                return
            if isinstance(event, UserMessage):
                self.history.append(ChatMessage(role="user", content=event.text))
                if event.ends is None:
                    await self._turn()
            elif isinstance(event, ToolResult):
                self.history.append(
                    ChatMessage(
                        role="tool",
                        content=event.content,
                        tool_call_id=event.call_id,
                        name=event.name,
                    )
                )
                self._pending.discard(event.call_id)
                if not self._pending:
                    await self._turn()

    async def _turn(self) -> None:
        response = await self.agent.respond(self.history)
        if self.channel.closed:
            return
        conversation = self.channel.conversation
        await self.channel.publish(usage_event(conversation, AGENT, self.model, response.usage))
        message = response.message
        self.history.append(message)
        if message.content and not message.tool_calls:
            self.texts.append(message.content)
        await self.channel.publish(
            AgentMessage(
                conversation=conversation,
                text=message.content,
                tool_calls=list(message.tool_calls),
                reasoning=message.reasoning,
            )
        )
        self._pending = {call.id for call in message.tool_calls}
        for call in message.tool_calls:
            if self.channel.closed:
                return
            await self.channel.publish(ToolCall(conversation=conversation, call=call))


class UserActor:
    """Speaks first, then answers every agent text."""

    def __init__(self, user: UserSimulator, model: str, channel: Channel) -> None:
        self.user = user
        self.model = model
        self.channel = channel
        self.transcript: list[ChatMessage] = []

    async def run(self) -> None:
        """Write the opening message, then handle the inbox until cancelled."""
        inbox = self.channel.inboxes[USER]
        await self._turn()
        while not self.channel.closed:
            event = await inbox.get()
            if event is None or self.channel.closed:
                return
            if isinstance(event, AgentMessage):
                self.transcript.append(ChatMessage(role="assistant", content=event.text or ""))
                await self._turn()

    async def _turn(self) -> None:
        turn = await self.user.respond(self.transcript)
        if self.channel.closed:
            return
        conversation = self.channel.conversation
        if turn.usage is not None:
            await self.channel.publish(usage_event(conversation, USER, turn.model, turn.usage))
        if turn.state is not None:
            s = turn.state
            await self.channel.publish(
                EmotionUpdate(
                    conversation=conversation,
                    emotion=s.emotion,
                    intensity=s.intensity,
                    dissatisfaction=s.dissatisfaction,
                    reason=s.reason,
                    triggers=list(s.triggers),
                )
            )
        self.transcript.append(ChatMessage(role="user", content=turn.text))
        await self.channel.publish(
            UserMessage(conversation=conversation, text=turn.text, ends=turn.ends)
        )


class EnvActor:
    """Executes tool calls against the conversation's own database."""

    def __init__(self, toolkit: Toolkit, db: Database, channel: Channel) -> None:
        self.toolkit = toolkit
        self.db = db
        self.channel = channel

    async def run(self) -> None:
        """Answer every tool call with a tool result until cancelled."""
        inbox = self.channel.inboxes[ENV]
        while not self.channel.closed:
            event = await inbox.get()
            if event is None or self.channel.closed:
                return
            if isinstance(event, ToolCall):
                outcome = self.toolkit.call(self.db, event.call.name, event.call.arguments)
                await self.channel.publish(
                    ToolResult(
                        conversation=self.channel.conversation,
                        call_id=event.call.id,
                        name=event.call.name,
                        content=outcome.content,
                        error=outcome.error,
                    )
                )
