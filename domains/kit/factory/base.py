"""What the base intents of every domain share: ``one_of`` and the mistakes mixins.

``one_of`` draws one of several wordings of the same message (an opening, a reason).

The mixins over ``CustomerIntent`` are mistakes many intents share. An intent names one before
its domain's base class (``class X(DoneAnyway, HotelIntent)``): the mixin's ``mistakes`` builds
on the domain's own (``super().mistakes``), so the generic mistakes stay the domain's and only
the pattern is written once.

- ``DoneAnyway``: the generic mistakes, and the refused request done anyway (``violations``):
  after the gold path, or instead of (or before) its closing transfer.
- ``OnlyDoneAnyway``: only the refused request done anyway.
- ``OtherChoice``: the generic mistakes, and the last write with another of the user's choices
  (another cancellation reason, another item category).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Literal, TypeVar

from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.simulator.world import Action, Domain, Task

T = TypeVar("T")


def one_of(rng: random.Random, *options: T) -> T:
    """One of ``options``, drawn by ``rng`` (one draw, as ``rng.choice`` of their list)."""
    return rng.choice(options)


class DoneAnyway(CustomerIntent):
    """Mistakes: the generic ones, and the refused request done anyway (``done_anyway``).

    ``done_at`` says where the refused writes go: ``"after"`` the gold path, or, where it ends
    in a transfer, ``"instead"`` of the transfer or ``"before"`` it.
    """

    done_at: ClassVar[Literal["after", "instead", "before"]] = "after"

    def done_anyway(self, domain: Domain, task: Task) -> list[Action]:
        """The gold path with the intent's ``violations`` put where ``done_at`` says."""
        wrong = self.violations(domain, task)
        if self.done_at == "after":
            return [*task.actions, *wrong]
        *reads, last = task.actions
        return [*reads, *wrong] if self.done_at == "instead" else [*reads, *wrong, last]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the refused request done anyway (the tools allow it)."""
        return [*super().mistakes(domain, task), self.done_anyway(domain, task)]


class OnlyDoneAnyway(DoneAnyway):
    """Mistakes: only the refused request done anyway (``DoneAnyway.done_anyway``)."""

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The refused request done anyway (the tools allow it)."""
        return [self.done_anyway(domain, task)]


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
