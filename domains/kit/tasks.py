"""The task assembler of customer-service intents and the hints of the kit's standard slots."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import ClassVar

from domains.kit.identity import EMAIL, NAME_ZIP, Factor, Identity
from domains.kit.lookup import record
from simulator.database import Database
from simulator.domain import Action, Domain, Intent, Task, UserScenario
from simulator.slots import SlotHint

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
    ) -> Task:
        """Assemble a task (identity slots first, then ``known``); the caller assigns the id."""
        scenario = UserScenario(
            goal=f"I am {who.full_name}. {goal} {who.note}",
            opening=opening,
            known_info={**who.known, **known},
            unknown_info=[*who.unknown, *self.unknown_info],
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
        )


def sum_action(amounts: list[float]) -> list[Action]:
    """A ``calculate`` call adding ``amounts`` when there are several."""
    if len(amounts) < 2:
        return []
    return [Action("calculate", {"expression": " + ".join(f"{a:.2f}" for a in amounts)})]
