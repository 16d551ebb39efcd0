"""A toy gym built on the domain kit: email authentication, a gift card, three intents."""

from __future__ import annotations

import random

import msgspec

from domains.kit.identity import EMAIL, find_user_id_by_email, identity_indexes
from domains.kit.lookup import load, record
from domains.kit.payments import PaymentMethod, money_text, with_balance
from domains.kit.people import Address, Customer, Name
from domains.kit.tasks import HINTS, CustomerIntent
from domains.kit.tools import transfer_to_human_agents as transfer
from simulator.database import Base, Database
from simulator.domain import Action, Domain, Generation, Task
from simulator.slots import SlotHint
from simulator.tools import ToolError, ToolKind, Toolkit, tool


class Booking(msgspec.Struct, frozen=True):
    booking_id: str
    user_id: str
    status: str
    price: float
    payment_method_id: str


ANA = Customer(
    "ana_1",
    Name("Ana", "Lima"),
    Address("1 Main St", "", "Austin", "TX", "USA", "78701"),
    "ana@example.com",
    (PaymentMethod("gift_card_1", "gift_card", balance=10.0),),
)


@tool(ToolKind.READ)
def get_user_details(db: Database, user_id: str) -> Customer:
    """Get a customer's profile.

    Args:
        user_id: The user id, e.g. "ana_1".
    """
    user: Customer = load(db, "users", user_id, "user")
    return user


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
    factors = ((EMAIL, 1.0),)
    unknown_info = ("payment method ids",)


class CancelBooking(GymIntent):
    name = "cancel_booking"
    description = "The customer cancels a confirmed booking and learns the refund."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        b: Booking = record(db, "bookings", "B1")
        who = self.identity(db, b.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"Cancel booking {b.booking_id} because I moved away.",
            opening="Hi, I want to cancel my gym booking.",
            known={"booking_id": b.booking_id, "reason": "I moved away"},
            actions=[
                *who.actions,
                Action("get_booking", {"booking_id": b.booking_id}),
                Action("cancel_booking", {"booking_id": b.booking_id, "reason": "I moved away"}),
            ],
            outputs=[money_text(b.price)],
            summary=f"cancel {b.booking_id}",
        )


class BookingStatus(GymIntent):
    name = "booking_status"
    description = "The customer asks for a booking's status."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        b: Booking = record(db, "bookings", "B2")
        who = self.identity(db, b.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"Learn the status of booking {b.booking_id}.",
            opening=f"Hello, what is the status of my booking {b.booking_id}?",
            known={"booking_id": b.booking_id},
            actions=[*who.actions, Action("get_booking", {"booking_id": b.booking_id})],
            outputs=[b.status],
            summary=f"status of {b.booking_id}",
        )


class OldRefundTransfer(GymIntent):
    name = "out_of_policy_transfer"
    description = "A refund for a class of last year: outside the policy, so a transfer."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        who = self.identity(db, ANA.user_id, rng)
        return self.task(
            domain,
            who,
            goal="Get a refund for a class that was cancelled last year.",
            opening="I want my money back for a class you cancelled last year.",
            known={},
            actions=[
                *who.actions,
                Action("transfer_to_human_agents", {"summary": "refund for an old class"}),
            ],
            summary="old refund: transfer",
        )


def gym() -> Domain:
    """The toy gym: one customer, two bookings, tasks generated from its three intents."""
    bookings = {
        "B1": Booking("B1", ANA.user_id, "confirmed", 40.0, "gift_card_1"),
        "B2": Booking("B2", ANA.user_id, "confirmed", 25.0, "gift_card_1"),
    }
    tables = {"users": {ANA.user_id: ANA}, "bookings": bookings}
    domain = Domain(
        name="gym",
        title="Toy gym bookings",
        policy="Be kind. Confirm before cancelling.\n",
        toolkit=Toolkit(
            [find_user_id_by_email, get_user_details, get_booking, cancel_booking, transfer]
        ),
        build_base=lambda: Base(tables, identity_indexes([EMAIL])),
        intents=[CancelBooking(), BookingStatus(), OldRefundTransfer()],
        generation=Generation(count=3, seed=0),
        slot_hints={
            **HINTS,
            "booking_id": SlotHint(("booking id", "booking number"), "your booking ID", True),
            "reason": SlotHint(("reason", "why"), "the reason for cancelling"),
        },
    )
    return msgspec.structs.replace(domain, task_source=domain.generate_tasks())


TASKS = gym().tasks
