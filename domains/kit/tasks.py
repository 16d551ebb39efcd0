"""The task assembler of customer-service intents, their common mistakes, the standard slot hints.

``CustomerIntent`` draws the identity (of a customer or of the ``owner`` of a record) and
assembles the task; its ``stray_write`` and ``last_write_left_out`` are the mistakes most worlds
share (an unrequested write on the user's profile, the request half done), ``last_write_changed``
the gold path with its last write's arguments changed (another record, another amount);
``replaced``, ``swapped`` and ``swap_last`` build any other wrong write into the gold path,
``replay_actions`` runs gold writes to read the figures a task requires.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

import msgspec

from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP, Factor, Identity
from tau_sim.domains.kit.lookup import record
from tau_sim.simulator.world import Action, Database, Domain, Intent, SlotHint, Task, UserScenario

HINTS: dict[str, SlotHint] = {
    "email": SlotHint(("email", "e-mail"), "your email address"),
    "first_name": SlotHint(("first name", "full name", "your name"), "your first name"),
    "last_name": SlotHint(("last name", "full name", "surname", "your name"), "your last name"),
    "zip": SlotHint(("zip", "postal code", "postcode"), "your zip code"),
    "account_number": SlotHint(("account number", "account #"), "your account number"),
    "pin": SlotHint(("pin",), "your PIN"),
    "payment_method": SlotHint(
        ("payment method", "which card", "what card", "pay with", "refund to go"),
        "the payment method",
        True,
    ),
}
"""Hints of the slots the kit's identities and payment methods produce."""

RESERVATION_WORDS = (
    "reservation id",
    "reservation number",
    "reservation code",
    "confirmation code",
    "confirmation number",
    "booking reference",
    "booking code",
    "which reservation",
)
"""How agents ask for a reservation's code (the keywords of a world's reservation slot)."""


def address_hint(kind: str, prompt: str, *more: str) -> SlotHint:
    """The hint of a ``new_address`` slot: a ``kind`` ("shipping") address, asked as ``prompt``.

    Its keywords avoid a bare "address", which would match "email address"; ``more`` are a
    world's further keywords.
    """
    keywords = ("new address", f"{kind} address", "which address", "what address")
    return SlotHint(
        (*keywords, "full address", "the address you", "address would you", *more), prompt
    )


CONFIRM = "When the agent lists the details and asks for confirmation, say yes."
"""What a user who is asked to confirm a write says (every world's instructions end with it)."""

KEEP_UNLESS_FULL = " If I can't get all my money back, I'd rather keep it."
"""What a user who claims a free cancellation adds to the opening: the branch depends on it (no
full refund, nothing cancelled), so it is said, never read from the answer key."""
ELSEWHERE: dict[str, str] = {
    "address1": "9 Elsewhere Lane",
    "address2": "",
    "city": "Reno",
    "state": "NV",
    "country": "USA",
    "zip": "89501",
}
"""An address no generated customer has: the target of an unrequested address change."""


class Owned(Protocol):
    """A record that belongs to one customer (an order, a reservation, a policy...)."""

    @property
    def user_id(self) -> str:
        """The customer's id."""
        ...


class CustomerIntent(Intent):
    """An intent of an authenticated customer: draws the identity, assembles the task.

    A domain sets ``factors`` (authentication factors with their probabilities), the table and
    profile tool of its customers, and ``unknown_info`` (what no user of the domain knows).
    """

    factors: ClassVar[Sequence[tuple[Factor, float]]] = ((EMAIL, 0.6), (NAME_ZIP, 0.4))
    customers: ClassVar[str] = "users"
    details_tool: ClassVar[str] = "get_user_details"
    unknown_info: ClassVar[Sequence[str]] = ()

    def identity(self, db: Database, user_id: str, rng: random.Random) -> Identity:
        """The identity of customer ``user_id``, its factor drawn from ``factors``."""
        return Identity.draw(
            record(db, self.customers, user_id), rng, self.factors, self.details_tool
        )

    def owner(self, db: Database, owned: Owned, rng: random.Random) -> Identity:
        """The identity of the customer ``owned`` belongs to (see ``identity``)."""
        return self.identity(db, owned.user_id, rng)

    def task(
        self,
        domain: Domain,
        who: Identity,
        *,
        goal: str,
        opening: str,
        known: Mapping[str, str],
        actions: list[Action],
        outputs: list[str] | None = None,
        summary: str,
        demand: str = "",
        later: str = "",
        later_at: int | None = None,
    ) -> Task:
        """Assemble a task (identity slots first, then ``known``); the caller assigns the id.

        ``demand`` is what the user insists on before it accepts a refusal (what it wants, as
        in "I still want {demand}"): a ``forbidden`` intent must give one (``ValueError``
        otherwise), since the right answer to its request is a refusal or a transfer.
        ``later`` is a need the user raises after the agent's third message, in its words
        ("Oh, and could you also ..."), and ``later_at`` the index in ``actions`` of the
        first gold action serving it: both or neither (``ValueError`` otherwise).
        """
        if self.forbidden and not demand.strip():
            raise ValueError(f"intent {self.name!r} is forbidden: give the user's demand")
        if bool(later.strip()) != (later_at is not None):
            raise ValueError(f"intent {self.name!r}: give both later and later_at, or neither")
        if later_at is not None and not 0 < later_at < len(actions):
            raise ValueError(f"intent {self.name!r}: later_at {later_at} is not a gold action")
        scenario = UserScenario(
            goal=f"I am {who.full_name}. {goal} {who.note}",
            opening=opening,
            known_info={**who.known, **known},
            unknown_info=[*who.unknown, *self.unknown_info],
            demand=demand.strip(),
            later=later.strip(),
        )
        return Task(
            id="",
            domain=domain.name,
            intent=self.name,
            scenario=scenario,
            auth_slots=who.auth_slots,
            actions=actions,
            required_outputs=outputs or [],
            summary=summary,
            later_at=later_at,
        )

    @staticmethod
    def profile_user(task: Task) -> str:
        """The user id of the task's profile read (the second gold action, after the lookup)."""
        user_id: str = task.actions[1].arguments["user_id"]
        return user_id

    def stray_write(self, task: Task, tool: str, **arguments: object) -> list[Action]:
        """The gold path and then an unrequested write ``tool`` on the user's profile."""
        return [*task.actions, Action(tool, {"user_id": self.profile_user(task), **arguments})]

    @staticmethod
    def last_write_left_out(domain: Domain, task: Task) -> list[list[Action]]:
        """The gold path without its last write (the agent's or the user's); none without writes."""
        writes = domain.write_actions(task)
        if not writes:
            return []
        last = writes[-1]
        return [[a for a in task.actions if a is not last]]

    @staticmethod
    def last_write_changed(domain: Domain, task: Task, **changes: object) -> list[Action]:
        """The gold path with some arguments of its last write changed."""
        last = domain.write_actions(task)[-1]
        wrong = Action(last.name, {**last.arguments, **changes})
        return [wrong if a is last else a for a in task.actions]


def replaced(action: Action, **arguments: object) -> Action:
    """``action`` with some arguments replaced (a mistake's wrong write)."""
    return Action(action.name, {**action.arguments, **arguments})


def swapped(task: Task, old: Action, new: Action) -> list[Action]:
    """The task's gold actions with ``old`` (that very action) replaced by ``new``."""
    return [new if a is old else a for a in task.actions]


def swap_last(task: Task, write: Action) -> list[Action]:
    """The task's gold actions with the last one replaced by ``write``."""
    return [*task.actions[:-1], write]


def replay_actions(domain: Domain, db: Database, actions: Sequence[Action]) -> list[Any] | None:
    """Run ``actions`` on ``db``; their results decoded from JSON, or None when one is refused.

    Intents replay the gold writes to read the figures a task requires (a total, a balance).
    """
    results = []
    for action in actions:
        outcome = domain.call(db, action)
        if outcome.error:
            return None
        results.append(msgspec.json.decode(outcome.content))
    return results


def sum_action(amounts: list[float]) -> list[Action]:
    """A ``calculate`` call adding ``amounts`` when there are several."""
    if len(amounts) < 2:
        return []
    return [Action("calculate", {"expression": " + ".join(f"{a:.2f}" for a in amounts)})]
