"""The tool-calling agent: the domain policy as system prompt, the domain tools, the conversation."""

from __future__ import annotations

from simulator.context import ConversationContext
from simulator.models.base import ChatMessage, ChatModel, ChatResponse
from simulator.registry import register_agent


class ToolCallingAgent:
    """Drives any chat model (scripted or real) as a customer-service agent with tools."""

    def __init__(self, model: ChatModel, ctx: ConversationContext) -> None:
        self.model = model
        self.tools = ctx.domain.toolkit.specs
        self.system = ChatMessage(role="system", content=ctx.domain.policy)

    async def respond(self, history: list[ChatMessage]) -> ChatResponse:
        """Ask the model for the next turn given the conversation so far."""
        return await self.model.chat([self.system, *history], self.tools)


@register_agent("llm")
def make_agent(model: ChatModel, ctx: ConversationContext) -> ToolCallingAgent:
    """The default agent for every model name."""
    return ToolCallingAgent(model, ctx)
