"""The tool-calling agent: domain policy as system prompt, domain tools, the conversation.

This is the agent every model name plays (``openai/gpt-4.1``, ``vllm/Qwen/Qwen3-8B`` …). It is
built from the ``AgentView`` alone, so neither it nor its model provider ever sees a task's gold
actions or required outputs.
"""

from __future__ import annotations

from typing import Any

from tau_sim.simulator.core import (
    AGENTS,
    ChatMessage,
    ChatModel,
    ChatResponse,
    ModelBacked,
    ModelProvider,
    make_model_provider,
)
from tau_sim.simulator.world import AgentView


def system_prompt(view: AgentView) -> str:
    """A short preamble on how to work, then the domain policy (which wins where they differ)."""
    lines = [
        f"You are a customer-service agent of {view.title}, chatting with a customer.",
        "- Follow the policy below exactly; where this preamble and the policy differ, the "
        "policy wins.",
        "- Look things up and act with your tools; never invent ids, amounts, dates or rules.",
        "- The customer sees only your messages, never your tool calls or their results: tell "
        "the customer what you found and what you did, briefly and in plain words.",
    ]
    for tool, reason in view.ending_tools.items():
        if reason == "transfer":
            lines.append(
                f"- When the request is outside what the policy allows you to do, call `{tool}` "
                "and tell the customer they are being transferred."
            )
    return "\n".join([*lines, "", "# Policy", "", view.policy])


class ToolCallingAgent:
    """Drives any chat model as a customer-service agent with the domain's tools."""

    def __init__(self, model: ChatModel, view: AgentView) -> None:
        self.model = model
        self.tools = view.tools
        self.system = ChatMessage(role="system", content=system_prompt(view))

    async def respond(self, history: list[ChatMessage]) -> ChatResponse:
        """Ask the model for the next turn given the conversation so far."""
        return await self.model.chat([self.system, *history], self.tools)


class LLMAgentProvider(ModelBacked):
    """The tool-calling agent over the model provider of one ``provider/model`` name."""

    def __init__(self, name: str, args: dict[str, Any]) -> None:
        self.name = name
        self.model_provider: ModelProvider = make_model_provider(name, args)

    @property
    def launches_servers(self) -> bool:
        """Whether the model provider starts its own servers (no ``--workers`` then)."""
        return bool(getattr(self.model_provider, "launches_servers", False))

    def for_conversation(self, view: AgentView) -> ToolCallingAgent:
        """A tool-calling agent for one conversation, on the provider's model."""
        return ToolCallingAgent(
            self.model_provider.for_conversation(view.conversation_id, "agent"), view
        )


@AGENTS.register("llm")
def make_llm_agent(name: str, args: dict[str, Any]) -> LLMAgentProvider:
    """The default agent: every model name that is not a registered agent kind."""
    return LLMAgentProvider(name, args)
