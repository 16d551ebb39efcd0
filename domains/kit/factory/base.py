"""The mistakes that base intents of every domain share, as mixins over ``CustomerIntent``.

An intent names one before its domain's base class (``class X(DoneAnyway, HotelIntent)``): the
mixin's ``mistakes`` builds on the domain's own (``super().mistakes``), so the generic mistakes
stay the domain's and only the pattern is written once.

- ``DoneAnyway``: the generic mistakes, and the refused request done anyway (``violations``).
- ``OnlyDoneAnyway``: only the refused request done anyway, after the gold path.
- ``OtherChoice``: the generic mistakes, and the last write with another of the user's choices
  (another cancellation reason, another item category).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.simulator.world import Action, Domain, Task


class DoneAnyway(CustomerIntent):
    """Mistakes: the generic ones, and the gold path followed by the intent's ``violations``."""

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the refused request done anyway (the tools allow it)."""
        return [*super().mistakes(domain, task), [*task.actions, *self.violations(domain, task)]]


class OnlyDoneAnyway(CustomerIntent):
    """Mistakes: only the gold path followed by the intent's ``violations``."""

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The refused request done anyway (the tools allow it)."""
        return [[*task.actions, *self.violations(domain, task)]]


class OtherChoice(CustomerIntent):
    """Mistakes: the generic ones, and the last write made with another of ``choices``.

    ``choice`` names the argument of the task's last action (a write) that the user chose;
    ``choices`` lists every value it takes in a fixed order: the wrong write takes the first
    one that is not the task's.
    """

    choice: ClassVar[str] = ""
    choices: ClassVar[Sequence[str]] = ()

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the last write with the first other value of ``choices``."""
        chosen = task.actions[-1].arguments[self.choice]
        other = next(c for c in self.choices if c != chosen)
        return [
            *super().mistakes(domain, task),
            self.last_write_changed(domain, task, **{self.choice: other}),
        ]
