"""The tool-calling agent: domain policy as system prompt, domain tools, the conversation."""

from __future__ import annotations

from simulator.chat import ChatMessage, ChatModel, ChatResponse
from simulator.context import ConversationContext
from simulator.referee import TerminationReason
from simulator.registry import AGENTS


def system_prompt(ctx: ConversationContext) -> str:
    """A short preamble on how to work, then the domain policy (which wins where they differ)."""
    domain = ctx.domain
    title = domain.title or domain.name
    lines = [
        f"You are a customer-service agent of {title}, chatting with a customer.",
        "- Follow the policy below exactly; where this preamble and the policy differ, the "
        "policy wins.",
        "- Look things up and act with your tools; never invent ids, amounts, dates or rules.",
        "- The customer sees only your messages, never your tool calls or their results: tell "
        "the customer what you found and what you did, briefly and in plain words.",
    ]
    transfers = [n for n, r in domain.toolkit.endings.items() if r is TerminationReason.TRANSFER]
    for transfer in transfers:
        lines.append(
            f"- When the request is outside what the policy allows you to do, call `{transfer}` "
            "and tell the customer they are being transferred."
        )
    return "\n".join([*lines, "", "# Policy", "", domain.policy])


class ToolCallingAgent:
    """Drives any chat model (scripted or real) as a customer-service agent with tools."""

    def __init__(self, model: ChatModel, ctx: ConversationContext) -> None:
        self.model = model
        self.tools = ctx.domain.toolkit.specs
        self.system = ChatMessage(role="system", content=system_prompt(ctx))

    async def respond(self, history: list[ChatMessage]) -> ChatResponse:
        """Ask the model for the next turn given the conversation so far."""
        return await self.model.chat([self.system, *history], self.tools)


@AGENTS.register("llm")
def make_agent(model: ChatModel, ctx: ConversationContext) -> ToolCallingAgent:
    """The default agent for every model name."""
    return ToolCallingAgent(model, ctx)
