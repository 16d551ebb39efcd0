"""User-side tools: how an agent asks the user to run each one, joined on demand.

Some worlds give the user tools of their own (a phone whose settings only the user can read and
change: ``Domain.user_toolkit``). The agent cannot call them; it asks the user in words, the user
runs the tool (``UserToolCall`` / ``UserToolResult`` events, on the conversation's database) and
tells the agent what happened. A gold action whose tool is one of the domain's user tools is such
a user step (the two toolkits never share a tool name).

``StepHint`` is the domain's vocabulary for one user tool (``Domain.user_tool_hints``), read by
the scripted user (what the step is about and whether it changes the device, so that it reads
an agent's request by meaning: ``tau_sim.users.device_steps``) and the scripted agents (how to
ask for it); ``UserStep`` is a hint joined with its tool, as a ``UserView`` carries it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from tau_sim.simulator.world.domain import Domain


class StepHint(msgspec.Struct, frozen=True, kw_only=True):
    """What one user tool is about, and how an agent asks the user to run it.

    ``topic`` is a regular expression (over lower-case text) of the words that name what the
    step is about; a step that looks at a thing and one that changes it share their topic.
    ``changes`` says which this step does (a step with nothing to look at, such as a restart,
    is read either way). ``change_words``, where given, are the words that alone ask for this
    change (the APN is reset only when a request says "reset" or "default"); ``also_shows``
    are the topics of other steps this one, a look, shows (the status bar shows the airplane
    icon). ``request`` is how a scripted agent words the request after "could you please",
    e.g. "toggle airplane mode on your phone".
    """

    topic: str
    changes: bool
    request: str
    change_words: str = ""
    also_shows: tuple[str, ...] = ()


class UserStep(msgspec.Struct, frozen=True):
    """One user tool as the user's view carries it: its hint and the parameters it takes.

    ``parameters`` are the tool's argument names (a scripted user fills each from the known-info
    slot of the same name); ``required`` those without a default.
    """

    name: str
    hint: StepHint
    parameters: list[str]
    required: list[str]


def user_steps(domain: Domain) -> list[UserStep]:
    """The domain's user tools joined with their hints (a tool without a hint: its name)."""
    toolkit = domain.user_toolkit
    if toolkit is None:
        return []
    steps: list[UserStep] = []
    for tool in toolkit.tools.values():
        words = tool.name.replace("_", " ")
        hint = domain.user_tool_hints.get(tool.name) or StepHint(
            topic=re.escape(words), changes=tool.kind.name == "WRITE", request=words
        )
        parameters = tool.spec.parameters
        steps.append(
            UserStep(
                name=tool.name,
                hint=hint,
                parameters=list(parameters.get("properties", {})),
                required=list(parameters.get("required", [])),
            )
        )
    return steps


def step_request(domain: Domain, name: str) -> str:
    """How a scripted agent asks the user to run user tool ``name``."""
    hint = domain.user_tool_hints.get(name)
    return hint.request if hint is not None else name.replace("_", " ")
