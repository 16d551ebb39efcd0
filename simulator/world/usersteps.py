"""User-side tools: how an agent asks the user to run each one, joined on demand.

Some worlds give the user tools of their own (a phone whose settings only the user can read and
change: ``Domain.user_toolkit``). The agent cannot call them; it asks the user in words, the user
runs the tool (``UserToolCall`` / ``UserToolResult`` events, on the conversation's database) and
tells the agent what happened. A gold action whose tool is one of the domain's user tools is such
a user step (the two toolkits never share a tool name).

``StepHint`` is the domain's vocabulary for one user tool (``Domain.user_tool_hints``), read by
the scripted user (which words of an agent's request ask for it) and the scripted agents (how
to ask for it); ``UserStep`` is a hint joined with its tool, as a ``UserView`` carries it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from tau_sim.simulator.world.domain import Domain


class StepHint(msgspec.Struct, frozen=True):
    """How an agent asks the user to run one user tool.

    ``keywords`` are phrases an agent's request names when it asks for this step (matched
    case-insensitively at word starts; two tools of a domain must not share one); ``request``
    is how a scripted agent words the request after "could you please", e.g. "toggle airplane
    mode on your phone". ``shows`` and ``does`` say the step by meaning, as regular expressions
    over lower-case text: ``shows`` what the step lets the user read (a request to look at it,
    or a question about it, asks for the step: "is Data Saver on?"), ``does`` what it changes
    or does (a request to change it asks for the step: "please switch Data Saver off").
    """

    keywords: tuple[str, ...]
    request: str
    shows: tuple[str, ...] = ()
    does: tuple[str, ...] = ()


class UserStep(msgspec.Struct, frozen=True):
    """One user tool as the user's view carries it: its hint and the parameters it takes.

    ``parameters`` are the tool's argument names (a scripted user fills each from the known-info
    slot of the same name); ``required`` those without a default; ``shows`` and ``does`` as in
    ``StepHint``.
    """

    name: str
    keywords: list[str]
    request: str
    parameters: list[str]
    required: list[str]
    shows: list[str] = []
    does: list[str] = []


def user_steps(domain: Domain) -> list[UserStep]:
    """The domain's user tools joined with their hints (a tool without a hint: its name)."""
    toolkit = domain.user_toolkit
    if toolkit is None:
        return []
    steps: list[UserStep] = []
    for tool in toolkit.tools.values():
        words = tool.name.replace("_", " ")
        hint = domain.user_tool_hints.get(tool.name) or StepHint((words,), words)
        parameters = tool.spec.parameters
        steps.append(
            UserStep(
                name=tool.name,
                keywords=list(hint.keywords),
                request=hint.request,
                parameters=list(parameters.get("properties", {})),
                required=list(parameters.get("required", [])),
                shows=list(hint.shows),
                does=list(hint.does),
            )
        )
    return steps


def step_request(domain: Domain, name: str) -> str:
    """How a scripted agent asks the user to run user tool ``name``."""
    hint = domain.user_tool_hints.get(name)
    return hint.request if hint is not None else name.replace("_", " ")
