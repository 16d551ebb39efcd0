"""A person playing the agent: the ``human`` agent kind (``tau-sim human --role agent``).

The agent's turns come from a screen through the same ``Desk`` as the human user's
(``tau_sim.users.human``); the person sees what any agent sees (the policy, the tools, the user's
messages and the tool results: an ``AgentView``, never the answer key), so their
conversations are demonstrations stored and scored like any agent's.
"""

from __future__ import annotations

from typing import Any

from tau_sim.simulator.core import AGENTS, ChatMessage, ChatResponse, NothingToStart, UsageError
from tau_sim.simulator.world import AgentView
from tau_sim.users.human import HUMAN, AgentAsk, Desk


class HumanAgent:
    """The agent of one conversation, played by a person through ``desk``."""

    def __init__(self, view: AgentView, desk: Desk) -> None:
        self.view = view
        self.desk = desk

    async def respond(self, history: list[ChatMessage]) -> ChatResponse:
        """The person's next turn: a reply and/or tool calls, as the screen answers it."""
        answer = await self.desk.ask(AgentAsk(self.view, list(history)))
        assert isinstance(answer, ChatResponse)  # the screen answers an agent ask so
        return answer


class HumanAgentProvider(NothingToStart):
    """Makes the human agent of each conversation; all of them share one ``desk``."""

    def __init__(self, name: str, args: dict[str, Any]) -> None:
        self.name = name
        if name or args:
            raise UsageError(f"--agent: {HUMAN!r} takes no model name or options")
        self.desk = Desk()

    async def __aenter__(self) -> HumanAgentProvider:
        """Refuse to start without a screen that reads the desk."""
        self.desk.check_open("agent")
        return self

    def for_conversation(self, view: AgentView) -> HumanAgent:
        """The person, for one conversation."""
        return HumanAgent(view, self.desk)


@AGENTS.register(HUMAN)
def make_human_agent(model: str, args: dict[str, Any]) -> HumanAgentProvider:
    """The ``human`` agent kind."""
    return HumanAgentProvider(model, args)
