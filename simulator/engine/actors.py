"""The three actors of a conversation: agent, user and environment.

Each receives from its own ``Inbox``, handles one event at a time and publishes what it
produces through its ``Outbox``; none calls another, and none can end the conversation (the
referee does, and then every inbox stops).
"""

from __future__ import annotations

from tau_sim.simulator.core.chat import ChatMessage
from tau_sim.simulator.core.events import (
    AgentMessage,
    ToolCall,
    ToolResult,
    UserMessage,
    UserToolCall,
    UserToolResult,
)
from tau_sim.simulator.core.roles import Agent, UserSimulator
from tau_sim.simulator.engine.bus import AGENT, USER, Inbox, Outbox
from tau_sim.simulator.engine.usage import usage_event
from tau_sim.simulator.world.database import Database
from tau_sim.simulator.world.evaluation import state_event
from tau_sim.simulator.world.tools import Toolkit


class AgentActor:
    """Turns user messages and tool results into agent turns.

    ``waiting`` is true while the agent's model call is in flight (a conversation whose deadline
    passes then has waited on an endpoint, not on the agent's choices).
    """

    def __init__(self, agent: Agent, model: str, inbox: Inbox, outbox: Outbox) -> None:
        self.agent = agent
        self.model = model
        self.inbox = inbox
        self.outbox = outbox
        self.history: list[ChatMessage] = []
        self._pending: set[str] = set()
        self.waiting = False

    async def run(self) -> None:
        """Handle the inbox until the conversation ends."""
        receive = self.inbox.receive
        while (event := await receive()) is not None:
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
        self.waiting = True
        response = await self.agent.respond(self.history)
        self.waiting = False
        publish = self.outbox.publish
        conversation = self.outbox.conversation
        if await publish(usage_event(conversation, AGENT, self.model, response.usage)) is None:
            return  # the conversation ended while the model answered
        message = response.message
        self.history.append(message)
        await publish(
            AgentMessage(
                conversation=conversation,
                text=message.content,
                tool_calls=list(message.tool_calls),
                reasoning=message.reasoning,
            )
        )
        self._pending = {call.id for call in message.tool_calls}
        for call in message.tool_calls:
            if await publish(ToolCall(conversation=conversation, call=call)) is None:
                return


class UserActor:
    """Speaks first, then answers every agent text (``waiting``: as for ``AgentActor``).

    A user turn with tool calls (the user acting on its own device) publishes one
    ``UserToolCall`` per call; once every ``UserToolResult`` is back in the transcript the user
    is asked again.
    """

    def __init__(self, user: UserSimulator, model: str, inbox: Inbox, outbox: Outbox) -> None:
        self.user = user
        self.model = model
        self.inbox = inbox
        self.outbox = outbox
        self.transcript: list[ChatMessage] = []
        self.waiting = False
        self._pending: set[str] = set()

    async def run(self) -> None:
        """Write the opening message, then handle the inbox until the conversation ends."""
        await self._turn()
        receive = self.inbox.receive
        while (event := await receive()) is not None:
            if isinstance(event, AgentMessage):
                self.transcript.append(ChatMessage(role="assistant", content=event.text or ""))
                await self._turn()
            elif isinstance(event, UserToolResult):
                self.transcript.append(
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
        self.waiting = True
        turn = await self.user.respond(self.transcript)
        self.waiting = False
        publish = self.outbox.publish
        conversation = self.outbox.conversation
        if turn.usage is not None:
            await publish(usage_event(conversation, USER, turn.model, turn.usage))
        if turn.state is not None:
            await publish(turn.state)
        if turn.tool_calls:
            calls = list(turn.tool_calls)
            self.transcript.append(ChatMessage(role="user", content=None, tool_calls=calls))
            self._pending = {call.id for call in calls}
            for call in calls:
                if await publish(UserToolCall(conversation=conversation, call=call)) is None:
                    return
            return
        self.transcript.append(ChatMessage(role="user", content=turn.text))
        await publish(UserMessage(conversation=conversation, text=turn.text, ends=turn.ends))


class EnvActor:
    """Executes tool calls against the conversation's own database.

    The agent's calls run with ``toolkit``; the user's own calls (``UserToolCall``) with
    ``user_toolkit``, on the same database, and are answered with ``UserToolResult``.
    """

    def __init__(
        self,
        toolkit: Toolkit,
        db: Database,
        inbox: Inbox,
        outbox: Outbox,
        user_toolkit: Toolkit | None = None,
    ) -> None:
        self.toolkit = toolkit
        self.user_toolkit = user_toolkit or Toolkit(())
        self.db = db
        self.inbox = inbox
        self.outbox = outbox

    async def run(self) -> None:
        """Answer every tool call with a tool result until the conversation ends."""
        receive = self.inbox.receive
        while (event := await receive()) is not None:
            if isinstance(event, UserToolCall):
                outcome = self.user_toolkit.call(self.db, event.call.name, event.call.arguments)
                await self.outbox.publish(
                    UserToolResult(
                        conversation=self.outbox.conversation,
                        call_id=event.call.id,
                        name=event.call.name,
                        content=outcome.content,
                        error=outcome.error,
                    )
                )
            elif isinstance(event, ToolCall):
                outcome = self.toolkit.call(self.db, event.call.name, event.call.arguments)
                await self.outbox.publish(
                    ToolResult(
                        conversation=self.outbox.conversation,
                        call_id=event.call.id,
                        name=event.call.name,
                        content=outcome.content,
                        error=outcome.error,
                    )
                )

    async def publish_state(self) -> None:
        """Publish the final state (hash and changed records) once the conversation has ended."""
        await self.outbox.publish(state_event(self.outbox.conversation, self.db), final=True)
