"""Refused writes: the base of every intent whose user asks for a write the policy refuses.

``Refuses`` gives such an intent its violations and its first known mistake, the agent that
gives in (``gave_in``: the gold path, then the refused writes). The mixed challenge
(``mixed.Mixed``) and the disproven claim (``claims.DisprovenClaim``) are built over it.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from tau_sim.simulator.world import Action, Domain, Intent, Task

Placement = Literal["after", "before", "none"]
"""Where an intent's own mistakes stand beside the agent that gives in (``Refuses``)."""


def refusing(task: Task, *writes: Action) -> Task:
    """``task`` with ``writes`` as the writes the policy refuses its user (its violations)."""
    return msgspec.structs.replace(task, violations=list(writes))


class Refuses(Intent):
    """An intent whose user asks for writes the policy refuses: its ``violations``.

    They are the writes its ``sample`` named with ``refusing``, unless the intent works them
    out from the task itself (overriding ``violations``). Its mistakes are the agent that
    gives in (``gave_in``) and the base intent's own, placed as ``own_mistakes`` says:
    "after" the gave-in path, "before" it, or "none". Where there is nothing refused (the
    tools refuse the write themselves) the base intent's mistakes are all there is. Put it
    before the domain's intent class in the bases.
    """

    done_at: ClassVar[Literal["after", "instead", "before"]] = "after"
    """Where an agent that gives in makes the refused writes: ``"after"`` the gold path, or,
    where it ends in the fallback the user accepts (a transfer, another write), ``"instead"``
    of that last action or ``"before"`` it."""
    own_mistakes: ClassVar[Placement] = "after"

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The refused writes the task was built with (``refusing``)."""
        return list(task.violations)

    def gave_in(self, domain: Domain, task: Task) -> list[Action]:
        """The agent that gives in: the gold path with the refused writes where ``done_at`` says."""
        made = self.violations(domain, task)
        if self.done_at == "after":
            return [*task.actions, *made]
        *kept, last = task.actions
        return [*kept, *made] if self.done_at == "instead" else [*kept, *made, last]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The agent that gives in and the base intent's mistakes (``own_mistakes``)."""
        if not self.violations(domain, task):
            return super().mistakes(domain, task)
        gave_in = self.gave_in(domain, task)
        if self.own_mistakes == "none":
            return [gave_in]
        own = super().mistakes(domain, task)
        return [*own, gave_in] if self.own_mistakes == "before" else [gave_in, *own]
