"""The "search among described records" challenge: a user names a record by what it is, not its id.

A ``Shelf`` is where a domain's customers keep the records they describe (reservations,
bookings, orders, accounts) and how the agent finds them: ``pick`` and ``pair`` draw a customer
with several records and the one or two a goal is about, ``described`` one with its words,
``reads`` is the gold search (``search`` that of a record a base task names, ``detail`` the
read of one), ``meant`` the record a task is about, ``elsewhere`` the customer's other records
(a wrong pick), ``cancel`` the cancellation of a described record. ``card`` is the method such
a customer pays several changes with.
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
from tau_sim.domains.kit.tasks import Owned
from tau_sim.simulator.world import Action, Database, Domain, Task

C = TypeVar("C", bound=Customer)
R = TypeVar("R", bound=Owned)
Opens = Callable[[Sequence[R], Sequence[R]], list[R]]
"""Which of a customer's records (profile order) the agent opens to find the ones meant."""


def meant_only(mine: Sequence[R], meant: Sequence[R]) -> list[R]:
    """Only the records meant (the customer's list told them from the others)."""
    return list(meant)


def meant_last(mine: Sequence[R], meant: Sequence[R]) -> list[R]:
    """Every record: the others in profile order, then the ones meant."""
    return [*(r for r in mine if r not in meant), *meant]


def until_found(mine: Sequence[R], meant: Sequence[R]) -> list[R]:
    """The records in profile order until every one meant is open."""
    return list(mine[: max(mine.index(m) for m in meant) + 1])


def alike(feature: Callable[[R], object]) -> Opens[R]:
    """The records in profile order that share ``feature`` (a restaurant) with one meant."""
    return lambda mine, meant: [r for r in mine if feature(r) in {feature(m) for m in meant}]


@dataclass(frozen=True)
class Shelf(Generic[C, R]):
    """Where customers (``C``) keep the records (``R``) they describe, and how the agent finds them.

    ``table`` names the records' table and the customer's field of their ids ("reservations":
    opened by ``get_reservation_details`` with ``reservation_id``). ``listed``: the agent lists
    them first (``list_user_reservations``) and reads the profile last; else it reads the
    profile first. ``opens`` picks the records it opens; ``places`` lists the places, read when
    a description leaves out the ``place`` of a record (names its city). ``describe`` words a
    record as its customer names it without the id (None where the words would not tell it
    from the customer's others).
    """

    table: str
    listed: bool = False
    opens: Opens[R] = meant_only
    place: Callable[[R], str] = lambda _: ""
    places: Action | None = None
    describe: Callable[[Database, R, random.Random], str | None] = lambda *_: None

    @property
    def key(self) -> str:
        """The id field of a record, and the tools' argument that names one."""
        return f"{self.table[:-1]}_id"

    def code(self, r: R) -> str:
        """The id of record ``r``."""
        return str(getattr(r, self.key))

    def of(self, db: Database, user_id: str) -> list[R]:
        """The customer's records in the order of their profile."""
        held: Sequence[str] = getattr(record(db, "users", user_id), self.table)
        return [record(db, self.table, k) for k in held]

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
                least <= len(getattr(u, self.table)) <= 5
                and admit(u)
                and accept(self.of(db, u.user_id))
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
        return owner, rng.choice([r for r in self.of(db, owner.user_id) if fits(r)])

    def described(
        self, db: Database, rng: random.Random, fits: Callable[[R], bool]
    ) -> tuple[R, str] | None:
        """A record that ``fits`` (see ``pick``) and the words its customer names it with."""
        found = self.pick(db, rng, fits)
        words = None if found is None else self.describe(db, found[1], rng)
        return None if found is None or words is None else (found[1], words)

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

        ``draw_same``: drawn among every pair, a record with itself included (None then).
        """
        mine = self.of(db, owner.user_id)
        pairs = [(x, y) for x in mine for y in mine if first(x) and second(y)]
        x, y = rng.choice([(x, y) for x, y in pairs if draw_same or x is not y])
        return None if x is y else (x, y)

    def by_city(self, words: str, *records: R) -> bool:
        """Whether a description leaves out the place of one of ``records`` (names its city)."""
        return self.places is not None and any(self.place(r) not in words for r in records)

    def reads(self, db: Database, who: Identity, *meant: R, words: str = "") -> list[Action]:
        """The gold search for the records ``meant`` that the customer names with ``words``.

        It opens the records ``opens`` picks among the customer's; when the words name a
        city, not the place, the places are listed too (see ``search``).
        """
        opened = self.opens(self.of(db, who.customer.user_id), meant)
        return self.search(who, *opened, locate=self.by_city(words, *meant))

    def search(self, who: Identity, *opened: R, locate: bool = False) -> list[Action]:
        """The search: the customer found, their records (listed and) ``opened``, the profile.

        A listed search reads the profile last, so each id the gold path uses comes from the
        list, where the description tells the record from the others; ``locate`` lists the
        places too.
        """
        lookup, *profile = who.actions
        reads = [self.detail(r) for r in opened]
        if not self.listed:
            return [lookup, *profile, *reads]
        located = [self.places] if self.places and locate else []
        listing = Action(f"list_user_{self.table}", {"user_id": who.customer.user_id})
        return [lookup, listing, *located, *reads, *profile]

    def detail(self, r: R) -> Action:
        """The read that opens record ``r``."""
        return Action(f"get_{self.table[:-1]}_details", {self.key: self.code(r)})

    def meant(self, domain: Domain, task: Task) -> R:
        """The record a task is about (the first of the kind its gold path names)."""
        rid = next(a.arguments[self.key] for a in task.actions if self.key in a.arguments)
        found: R = record(domain.new_database(), self.table, rid)
        return found

    def elsewhere(self, db: Database, write: Action) -> list[R]:
        """The other records of the customer whose record ``write`` names (a wrong pick)."""
        meant: R = record(db, self.table, write.arguments[self.key])
        return [r for r in self.of(db, meant.user_id) if r != meant]

    def cancel(self, r: R, refund: float, kept: tuple[float, float] | None) -> list[Action]:
        """``r`` cancelled with ``refund``; first, when a fee is ``kept`` (paid, fee), the check."""
        rid = getattr(r, self.key)
        write = Action(f"cancel_{self.table[:-1]}", {self.key: rid, "refund_amount": refund})
        if kept is None:
            return [write]
        return [Action("calculate", {"expression": f"{kept[0]:.2f} - {kept[1]:.2f}"}), write]


def card(customer: Customer, rng: random.Random) -> PaymentMethod | None:
    """A card or PayPal of ``customer`` (no gift card) to pay several changes with."""
    methods = [m for m in customer.payment_methods if m.source != "gift_card"]
    return rng.choice(methods) if methods else None
