"""The "search among described records" challenge: a user names a record by what it is, not its id.

A ``Shelf`` says where a domain's customers keep the records they describe (reservations,
bookings) and which tools the agent finds them with. ``pick`` draws a customer with several
records and one of them that fits the goal, ``pair_owner`` and ``pair`` two of them for a goal
on both; ``reads`` is the gold search (the customer found, their records listed, the places
listed when the words name a city, the records meant opened, the profile last). ``card`` is the
method such a customer pays several changes with, ``cancel_steps`` the refund check and the
cancellation of a described record.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import PaymentMethod
from tau_sim.domains.kit.people import Customer
from tau_sim.simulator.world import Action, Database

C = TypeVar("C", bound=Customer)
R = TypeVar("R")


def meant_only(mine: Sequence[R], meant: Sequence[R]) -> list[R]:
    """The agent opens only the records meant (the list told them from the others)."""
    return list(meant)


def meant_last(mine: Sequence[R], meant: Sequence[R]) -> list[R]:
    """The agent opens every record: the others in profile order, then the ones meant."""
    return [*(r for r in mine if r not in meant), *meant]


def until_found(mine: Sequence[R], meant: Sequence[R]) -> list[R]:
    """The agent opens the records in profile order until it has opened every one meant."""
    return list(mine[: max(mine.index(m) for m in meant) + 1])


@dataclass(frozen=True)
class Shelf(Generic[C, R]):
    """Where a domain's customers (``C``) keep the records (``R``) they describe, and its tools.

    ``table`` names the records' table and the customer's field listing their ids in profile
    order ("reservations"); the agent opens one with ``get_reservation_details`` by
    ``reservation_id``. ``listed``: the agent lists them first (``list_user_reservations``),
    else it reads the profile first and opens records from its ids; ``opens`` picks the records
    it opens (``meant_only``, ``meant_last``, ``until_found`` or the domain's own); ``places``
    lists the places, read when a description leaves out the ``place`` of a record.
    """

    table: str
    listed: bool = False
    opens: Callable[[Sequence[R], Sequence[R]], list[R]] = meant_only
    place: Callable[[R], str] = lambda _: ""
    places: Action | None = None

    @property
    def key(self) -> str:
        """The id field of a record, and the argument that names it."""
        return f"{self.table[:-1]}_id"

    def held(self, customer: C) -> list[str]:
        """The ids of ``customer``'s records, in profile order."""
        return list(getattr(customer, self.table))

    def of(self, db: Database, user_id: str) -> list[R]:
        """The customer's records in the order of their profile."""
        return [record(db, self.table, k) for k in self.held(record(db, "users", user_id))]

    def owner(
        self,
        db: Database,
        rng: random.Random,
        accept: Callable[[list[R]], bool],
        least: int = 2,
        admit: Callable[[C], bool] = lambda _: True,
    ) -> C | None:
        """A customer ``admit`` takes with ``least`` to five records that ``accept`` takes."""
        chosen: C | None = pick(
            db,
            rng,
            "users",
            lambda u: (
                least <= len(self.held(u)) <= 5 and admit(u) and accept(self.of(db, u.user_id))
            ),
        )
        return chosen

    def pick(
        self,
        db: Database,
        rng: random.Random,
        fits: Callable[[R], bool],
        admit: Callable[[C], bool] = lambda _: True,
    ) -> tuple[C, R] | None:
        """A customer (see ``owner``) with a record that ``fits``, and one such record drawn."""
        owner = self.owner(db, rng, lambda rs: any(fits(r) for r in rs), admit=admit)
        if owner is None:
            return None
        mine = self.of(db, owner.user_id)
        return owner, rng.choice([r for r in mine if fits(r)])

    def pair_owner(
        self,
        db: Database,
        rng: random.Random,
        first: Callable[[R], bool],
        second: Callable[[R], bool],
    ) -> C | None:
        """A customer with three to five records: one that is ``first``, another ``second``."""

        def accept(rs: list[R]) -> bool:
            return any(first(x) and any(second(y) and y is not x for y in rs) for x in rs)

        return self.owner(db, rng, accept, least=3)

    def pair(
        self,
        db: Database,
        rng: random.Random,
        owner: C,
        first: Callable[[R], bool],
        second: Callable[[R], bool],
        draw_same: bool = False,
    ) -> tuple[R, R] | None:
        """A record of ``owner`` that is ``first`` and another that is ``second``, drawn.

        ``draw_same``: the draw is among every pair, a record with itself included, and
        drawing one of those gives None (a domain that samples so keeps its tasks).
        """
        mine = self.of(db, owner.user_id)
        x, y = rng.choice(
            [
                (x, y)
                for x in mine
                for y in mine
                if first(x) and second(y) and (draw_same or x is not y)
            ]
        )
        return None if x is y else (x, y)

    def by_city(self, words: str, *records: R) -> bool:
        """Whether a description leaves out the place of one of ``records`` (names its city)."""
        return self.places is not None and any(self.place(r) not in words for r in records)

    def reads(self, db: Database, who: Identity, *meant: R, words: str = "") -> list[Action]:
        """The search: the customer found, their records listed and opened, the profile.

        Listed, the profile is read last, so each id the gold path uses comes from
        the list, where the description tells it from the customer's others; the places are
        listed too when ``words`` name a city, not the place. Without one the profile comes
        first and the agent opens what ``opens`` picks.
        """
        lookup, *profile = who.actions
        user_id = who.customer.user_id
        details = f"get_{self.table[:-1]}_details"
        opened = [
            Action(details, {self.key: getattr(r, self.key)})
            for r in self.opens(self.of(db, user_id), meant)
        ]
        if not self.listed:
            return [lookup, *profile, *opened]
        located = [self.places] if self.places and self.by_city(words, *meant) else []
        listing = Action(f"list_user_{self.table}", {"user_id": user_id})
        return [lookup, listing, *located, *opened, *profile]


def card(customer: Customer, rng: random.Random) -> PaymentMethod | None:
    """A card or PayPal of ``customer`` (no gift card) to pay several changes with."""
    methods = [m for m in customer.payment_methods if m.source != "gift_card"]
    return rng.choice(methods) if methods else None


def cancel_steps(
    tool: str, key: str, record_id: str, refund: float, fee: tuple[float, float] | None
) -> list[Action]:
    """The cancellation of a described record: the refund checked when a fee is kept, the write.

    ``fee``: what was paid and what the fee keeps (a night, a day), when one is kept.
    """
    check = [Action("calculate", {"expression": f"{fee[0]:.2f} - {fee[1]:.2f}"})] if fee else []
    return [*check, Action(tool, {key: record_id, "refund_amount": refund})]
