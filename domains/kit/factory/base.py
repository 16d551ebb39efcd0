"""What the base intents of every domain share: ``one_of``, ``listing``, ``OtherChoice``.

``one_of`` draws one of several wordings of the same message (an opening, a reason);
``listing`` joins several things as a sentence lists them.

``OtherChoice`` gives an intent over ``CustomerIntent`` the generic mistakes and the last write
made with another of the user's choices (another cancellation reason, another item category).
An intent names it before its domain's base class (``class X(OtherChoice, RetailIntent)``): its
``mistakes`` builds on the domain's own (``super().mistakes``). A refused request done anyway
is ``refusals.Refuses``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, TypeVar

from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.simulator.world import Action, Domain, Task

T = TypeVar("T")


def one_of(rng: random.Random, *options: T) -> T:
    """One of ``options``, drawn by ``rng`` (one draw, as ``rng.choice`` of their list)."""
    return rng.choice(options)


def listing(texts: Sequence[str]) -> str:
    """``texts`` joined as a sentence lists them: "a, b and c"."""
    return texts[0] if len(texts) == 1 else f"{', '.join(texts[:-1])} and {texts[-1]}"


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
