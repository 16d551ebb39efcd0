"""Chains of writes: the known mistakes of a long request, a need raised later, a conditional goal.

Each hard intent of these challenges draws its own records and tells its own goal; what they
share is where an agent goes wrong on the chain. ``Chain`` declares those mistakes as
``slips``: a link left out (``left_out``), a link changed (``changed``; the last write:
``last_write``), the need raised later never served (``later_left_out``), or a domain's own
function (the other branch of a condition). ``flipped``, ``more`` and ``less`` are changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from tau_sim.domains.kit.tasks import replaced
from tau_sim.simulator.world import Action, Domain, Intent, Task

Slip = Callable[[Domain, Task], "list[Action] | None"]
"""A known mistake on a task's chain: the wrong action path, or None where the task has none."""


class Chain(Intent):
    """An intent whose mistakes are its base class's, then the paths of its ``slips`` in order.

    Put it before the domain's intent class (``class MoveService(Chain, UtilitiesIntent)``).
    A slip whose path is the gold path itself is no mistake and is left out.
    """

    slips: ClassVar[tuple[Slip, ...]] = ()

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The base class's mistakes, then the path of each slip that applies to ``task``."""
        paths = list(super().mistakes(domain, task))
        for slip in self.slips:
            path = slip(domain, task)
            if path is not None and path != task.actions:
                paths.append(path)
        return paths


def links(task: Task, tool: str) -> list[Action]:
    """The task's gold actions that call ``tool``, in order."""
    return [a for a in task.actions if a.name == tool]


def left_out(tool: str, nth: int = 0) -> Slip:
    """The slip of the ``nth`` call of ``tool`` left out (none where the gold path lacks it)."""

    def path(domain: Domain, task: Task) -> list[Action] | None:
        found = links(task, tool)
        if not -len(found) <= nth < len(found):
            return None
        return [a for a in task.actions if a is not found[nth]]

    return path


def changed(tool: str, change: Callable[[Action], Action | None], nth: int | None = 0) -> Slip:
    """The slip of the ``nth`` call of ``tool`` (every call: ``nth=None``) made as ``change`` says.

    ``change`` gives the wrong call, or None where the call has no wrong variant.
    """

    def path(domain: Domain, task: Task) -> list[Action] | None:
        found = links(task, tool)
        if nth is not None:
            found = [found[nth]] if -len(found) <= nth < len(found) else []
        wrong = {id(a): change(a) for a in found}
        if not found or None in wrong.values():
            return None
        return [wrong.get(id(a)) or a for a in task.actions]

    return path


def last_write(change: Callable[[Action], Action | None]) -> Slip:
    """The slip of the task's last write (the agent's or the user's) made as ``change`` says."""

    def path(domain: Domain, task: Task) -> list[Action] | None:
        writes = domain.write_actions(task)
        wrong = change(writes[-1]) if writes else None
        return None if wrong is None else [wrong if a is writes[-1] else a for a in task.actions]

    return path


def flipped(name: str) -> Callable[[Action], Action | None]:
    """A ``change``: the call's yes-or-no argument ``name`` the other way."""
    return lambda action: replaced(action, **{name: not action.arguments[name]})


def more(name: str, by: float) -> Callable[[Action], Action | None]:
    """A ``change``: the call's argument ``name`` ``by`` more."""
    return lambda action: replaced(action, **{name: float(action.arguments[name]) + by})


def less(by: float) -> Callable[[Action], Action | None]:
    """A ``change``: the call's ``amount`` ``by`` less, rounded to cents (none unless above 0)."""

    def change(action: Action) -> Action | None:
        cut = round(action.arguments["amount"] - by, 2)
        return Action(action.name, {**action.arguments, "amount": cut}) if cut > 0 else None

    return change


def later_left_out(domain: Domain, task: Task) -> list[Action] | None:
    """The slip of the need raised later never served: the gold path up to ``later_at``."""
    return None if task.later_at is None else task.actions[: task.later_at]
