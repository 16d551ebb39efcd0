"""The mixed challenge: a request the policy allows in part and refuses in part.

``Mixed`` is the base of such an intent (hard tier), over ``refusals.Refuses``: its ``sample``
builds the gold path of the allowed writes and hands the refused ones to ``refusing``, so no
intent reads them back from the task's words; its mistakes start with the agent that gives in
(the gold path, then the refused writes: ``gave_in``).

``CancelOwnAndOthers`` is one whole mixed intent over a domain's ``search.Shelf``: the user
cancels a record of its own, described, and a friend's, its code given; the own one is
cancelled, the friend's refused.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.factory.search import Shelf
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import money_text
from tau_sim.domains.kit.tasks import CONFIRM, CustomerIntent, Owned
from tau_sim.simulator.world import Database, Domain, Task

R = TypeVar("R", bound=Owned)


class Mixed(Refuses):
    """A hard intent whose user asks for writes the policy allows and one it refuses."""

    tier = "hard"


@dataclass(frozen=True)
class Cancelling(Generic[R]):
    """When a record can be cancelled and what cancelling it now refunds (``Shelf.cancel``).

    ``refund`` is (refund, whether the late fee applies), ``kept`` the (paid, fee) the
    agent's check of the refund after the fee works out, ``place`` the words an opening
    names the record's place with (``{place}``).
    """

    cancellable: Callable[[R], bool]
    refund: Callable[[R], tuple[float, bool]]
    kept: Callable[[R], tuple[float, float]]
    place: Callable[[Database, R], str]


class CancelOwnAndOthers(Mixed, CustomerIntent, Generic[R]):
    """Cancel the user's described record; a friend's record (its code given) is refused.

    A domain declares its ``shelf``, the ``slot`` of the described record ("stay"),
    ``cancelling``, the ``openings`` (``{place}`` and ``{friend}``) and the intent's name,
    description and rules.
    """

    challenges = frozenset({"mixed"})
    shelf: ClassVar[Shelf[Any, Any]]
    slot: ClassVar[str]
    cancelling: ClassVar[Cancelling[Any]]
    openings: ClassVar[tuple[str, ...]]

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        held, cancel = self.shelf, self.cancelling
        user = held.owner(db, rng, lambda rs: any(cancel.cancellable(r) for r in rs))
        if user is None:
            return None
        mine = rng.choice([r for r in held.of(db, user.user_id) if cancel.cancellable(r)])
        theirs = pick(
            db,
            rng,
            held.table,
            lambda r: (
                cancel.cancellable(r) and r.user_id != user.user_id and cancel.refund(r)[0] > 0
            ),
        )
        words = held.describe(db, mine, rng)
        refund, fee = cancel.refund(mine)
        if theirs is None or words is None or refund <= 0:
            return None
        friend = record(db, "users", theirs.user_id)
        who: Identity = self.owner(db, mine, rng)
        name, noun = friend.name.first_name, held.table[:-1]
        code, other = held.code(mine), held.code(theirs)
        task = self.task(
            domain,
            who,
            goal=f"I want to cancel {words}, and also my friend {friend.full_name}'s {noun} "
            f"{other}: {name} asked me to. I do not know my own {noun} code. I want to know my "
            f"refund. If the agent refuses to cancel {name}'s {noun}, I accept it in the end "
            f"and {name} will call. {CONFIRM}",
            demand=f"{name}'s {noun} {other} cancelled too",
            opening=rng.choice(self.openings).format(place=cancel.place(db, mine), friend=name),
            known={self.slot: words, f"friend_{noun}": other},
            actions=[
                *held.reads(db, who, mine, words=words),
                held.detail(theirs),
                *held.cancel(mine, refund, cancel.kept(mine) if fee else None),
            ],
            outputs=[money_text(refund), "cannot cancel"],
            summary=f"cancel {code} (described, {money_text(refund)} back); "
            f"{other} of {friend.user_id} refused",
        )
        return refusing(task, *held.cancel(theirs, cancel.refund(theirs)[0], None))
