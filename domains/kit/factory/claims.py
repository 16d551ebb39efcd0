"""The disproven-claim challenge: the user claims what the records disprove; the agent refuses.

``DisprovenClaim`` is an intent whose request rests on a claim the records contradict (a
forbidden request: nothing is written), over ``refusals.Refuses``. ``LateCancellation`` is
the claim shared by the worlds whose cancellations cost a fee close to the start: "it is days
away, so it is free", about a record found by search on the domain's ``search.Shelf``.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.factory.refusals import Placement, Refuses
from tau_sim.domains.kit.factory.search import Shelf
from tau_sim.domains.kit.payments import money, money_text
from tau_sim.domains.kit.tasks import KEEP_UNLESS_FULL, CustomerIntent, Owned, replaced
from tau_sim.simulator.world import Action, Challenge, Database, Domain, Task

R = TypeVar("R", bound=Owned)


class DisprovenClaim(Refuses):
    """A hard, forbidden intent: the records disprove the claim its user's request rests on.

    Its mistake is the claimed write made (``gave_in``); a claim sets ``own_mistakes`` to list
    the domain's own beside it.
    """

    forbidden = True
    tier = "hard"
    own_mistakes: ClassVar[Placement] = "none"


@dataclass(frozen=True)
class Terms:
    """What cancelling a record now costs: ``paid`` back in full, ``fee`` kept when late.

    ``start`` is the day the record starts (ISO), ``window`` the fee window it falls in, as
    the summary says it ("within 48 hours").
    """

    start: str
    paid: float
    fee: float
    window: str

    @property
    def refund(self) -> float:
        """What a cancellation now refunds: the paid amount less the fee."""
        return money(self.paid - self.fee)


@dataclass(frozen=True)
class Words:
    """How the user names a record: ``known`` (the slot) and ``said`` (in the goal).

    ``place`` holds the words an opening is formatted with.
    """

    known: str
    said: str
    place: Mapping[str, str]


class LateCancellation(DisprovenClaim, CustomerIntent, Generic[R]):
    """A full refund asked for a record whose start is "days away": it is inside the fee window.

    Nothing is cancelled: the user keeps the record rather than pay the fee. A domain gives
    its records (``records``, whose ``cancel`` is the write refused), the ``openings``, how
    many days after the real start the user thinks it is (``said_days``, both included), the
    nouns of its world (``start_noun`` "check-in", ``kept_noun`` "stay", the slot
    ``known_key``; the record's noun is its table's) and four hooks: which records are
    ``late``, which ``twin`` another (the user's words would not tell them apart), a record's
    ``terms`` and the user's ``words`` for it (None when it cannot be worded).
    """

    name = "late_cancellation_claim"
    challenges: ClassVar[frozenset[Challenge]] = frozenset({"search", "disproven", "conditional"})
    records: Shelf[Any, R]
    openings: ClassVar[tuple[str, ...]]
    said_days: ClassVar[tuple[int, int]]
    start_noun: ClassVar[str]
    kept_noun: ClassVar[str]
    known_key: ClassVar[str]

    def late(self, r: R) -> bool:
        """Whether cancelling ``r`` now costs the fee."""
        raise NotImplementedError

    def twin(self, r: R, other: R) -> bool:
        """Whether ``other`` (another of the customer's records) fits the words of ``r``."""
        raise NotImplementedError

    def terms(self, r: R) -> Terms:
        """What cancelling ``r`` now costs."""
        raise NotImplementedError

    def words(self, db: Database, r: R, rng: random.Random) -> Words | None:
        """How the user names ``r``; None when ``r`` cannot be worded."""
        raise NotImplementedError

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = self.records.pick(db, rng, self.late)
        if found is None:
            return None
        owner, r = found
        if any(self.twin(r, o) for o in self.records.of(db, owner.user_id) if o is not r):
            return None
        words, terms = self.words(db, r, rng), self.terms(r)
        if words is None or terms.refund <= 0:
            return None
        day = iso_day(terms.start) + dt.timedelta(days=rng.randint(*self.said_days))
        paid, refund = money_text(terms.paid), money_text(terms.refund)
        who, noun = self.owner(db, r, rng), self.records.table[:-1]
        return self.task(
            domain,
            who,
            goal=f"I want to cancel {words.said} with a full refund of {paid}: I think the "
            f"{self.start_noun} is only on {day.strftime('%A')}, days from now. I do not know "
            f"the {noun} code. If I cannot get the full {paid} back, I keep the {noun} as it is.",
            demand=f"the {self.kept_noun} cancelled with the full {paid} refunded",
            opening=rng.choice(self.openings).format(**words.place) + KEEP_UNLESS_FULL,
            known={self.known_key: words.known},
            actions=[
                *self.records.reads(db, who, r, words=words.known),
                Action("calculate", {"expression": f"{terms.paid:.2f} - {terms.fee:.2f}"}),
            ],
            outputs=[terms.start, refund],
            summary=f"full refund of {self.records.code(r)} asked ({self.start_noun} "
            f"{terms.start}, {terms.window}): {refund} only, {self.kept_noun} kept",
        )

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The late cancellation refunded in full."""
        r = self.records.meant(domain, task)
        return self.records.cancel(r, self.terms(r).paid, None)

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The full refund given, and the record cancelled with the fee (the condition lost)."""
        full = self.violations(domain, task)
        refund = self.terms(self.records.meant(domain, task)).refund
        return [[*task.actions, *full], [*task.actions, replaced(full[0], refund_amount=refund)]]
