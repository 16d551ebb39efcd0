"""A toy gym built on the domain kit: email authentication, a gift card, three intents."""

from __future__ import annotations

import random
from typing import ClassVar

import msgspec

from tau_sim.domains.kit import identity
from tau_sim.domains.kit.identity import EMAIL, get_user_details, identity_indexes
from tau_sim.domains.kit.lookup import load
from tau_sim.domains.kit.payments import PaymentMethod, money_text, with_balance
from tau_sim.domains.kit.people import Address, Customer, Name
from tau_sim.domains.kit.tasks import HINTS, CustomerIntent
from tau_sim.domains.kit.tools import transfer_to_human_agents
from tau_sim.simulator.world.database import Base, Database
from tau_sim.simulator.world.domain import Action, Domain, Generation, Task
from tau_sim.simulator.world.slots import SlotHint
from tau_sim.simulator.world.tools import ToolError, ToolKind, Toolkit, tool


class Booking(msgspec.Struct, frozen=True):
    booking_id: str
    user_id: str
    status: str
    price: float
    payment_method_id: str


GIFT_CARD = PaymentMethod("gift_card_1", "gift_card", balance=10.0)
HOME = Address("1 Main St", "", "Austin", "TX", "USA", "78701")
ANA = Customer("ana_1", Name("Ana", "Lima"), HOME, "ana@example.com", (GIFT_CARD,))


@tool(ToolKind.READ)
def get_booking(db: Database, booking_id: str) -> Booking:
    """Get a booking's details.

    Args:
        booking_id: The booking id, e.g. "B1".
    """
    booking: Booking = load(db, "bookings", booking_id, "booking")
    return booking


@tool(ToolKind.WRITE)
def cancel_booking(db: Database, booking_id: str, reason: str) -> str:
    """Cancel a booking; the price goes back on the gift card it was paid with.

    Args:
        booking_id: The booking id.
        reason: Why the customer cancels.
    """
    booking = get_booking.fn(db, booking_id)
    if booking.status != "confirmed":
        raise ToolError("only confirmed bookings can be cancelled")
    user = get_user_details.fn(db, booking.user_id)
    db.put("users", user.user_id, with_balance(user, booking.payment_method_id, booking.price))
    db.put("bookings", booking_id, msgspec.structs.replace(booking, status="cancelled"))
    return f"cancelled; refund of ${booking.price:.2f}"


class GymIntent(CustomerIntent):
    """Ana (by email) asks about one booking; subclasses give the texts and the gold path."""

    factors = ((EMAIL, 1.0),)
    unknown_info = ("payment method ids",)
    booking_id = goal = opening = ""
    extra: ClassVar[dict[str, str]] = {}

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        b = db.get("bookings", self.booking_id)
        who = self.identity(db, ANA.user_id, rng)
        known = {"booking_id": b.booking_id} if b else {}
        return self.task(
            domain,
            who,
            goal=self.goal.format(b=b),
            opening=self.opening.format(b=b),
            known={**known, **self.extra},
            actions=[*who.actions, *self.gold(b)],
            outputs=self.outputs(b),
            summary=self.description,
        )

    def gold(self, b: Booking) -> list[Action]:
        return [Action("get_booking", {"booking_id": b.booking_id})]

    def outputs(self, b: Booking | None) -> list[str]:
        return [b.status] if b else []


class CancelBooking(GymIntent):
    name, booking_id, description = "cancel_booking", "B1", "Cancel a booking, learn the refund."
    goal = "Cancel booking {b.booking_id} because I moved away."
    opening = "Hi, I want to cancel my gym booking."
    # the booking id and the reason only the user holds (no tool lists a customer's bookings);
    # the gift card is on the profile the tools read, for the over-asker to ask for anyway
    extra: ClassVar[dict[str, str]] = {"reason": "I moved away", "payment_method": "my gift card"}

    def gold(self, b: Booking) -> list[Action]:
        cancel = {"booking_id": b.booking_id, "reason": "I moved away"}
        return [*super().gold(b), Action("cancel_booking", cancel)]

    def outputs(self, b: Booking | None) -> list[str]:
        return [money_text(b.price)] if b else []


class BookingStatus(GymIntent):
    name, booking_id, description = "booking_status", "B2", "Ask for a booking's status."
    goal = "Learn the status of booking {b.booking_id}."
    opening = "Hello, what is the status of my booking {b.booking_id}?"


class OldRefundTransfer(GymIntent):
    name, description = "out_of_policy_transfer", "A refund out of the policy: a transfer."
    goal = "Get a refund for a class that was cancelled last year."
    opening = "I want my money back for a class you cancelled last year."

    def gold(self, b: Booking) -> list[Action]:
        return [Action("transfer_to_human_agents", {"summary": "refund for an old class"})]


def gym() -> Domain:
    """The toy gym: one customer, two bookings, tasks generated from its three intents."""
    bookings = {
        "B1": Booking("B1", ANA.user_id, "confirmed", 40.0, "gift_card_1"),
        "B2": Booking("B2", ANA.user_id, "confirmed", 25.0, "gift_card_1"),
    }
    tables = {"users": {ANA.user_id: ANA}, "bookings": bookings}
    tools = [identity.find_user_id_by_email, get_user_details, get_booking, cancel_booking]
    domain = Domain(
        name="gym",
        title="Toy gym bookings",
        policy="Be kind. Confirm before cancelling.\n",
        toolkit=Toolkit([*tools, transfer_to_human_agents]),
        build_base=lambda: Base(tables, identity_indexes([EMAIL])),
        intent_source=[CancelBooking(), BookingStatus(), OldRefundTransfer()],
        generation=Generation(count=3, seed=0),
        slot_hints={
            **HINTS,
            "booking_id": SlotHint(("booking id", "booking number"), "your booking ID"),
            "reason": SlotHint(("reason", "why"), "the reason for cancelling"),
        },
    )
    return msgspec.structs.replace(domain, task_source=domain.generate_tasks())


TASKS = gym().tasks
