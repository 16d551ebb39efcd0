"""A tiny domain for end-to-end tests of the scripted agents and user: bookings of a gym."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from simulator.database import Database
from simulator.domain import Action, Domain, InfoSlot, Task, UserScenario
from simulator.tools import ToolError, ToolKind, Toolkit, tool


class Booking(msgspec.Struct, frozen=True):
    booking_id: str
    email: str
    status: str
    price: float


@tool(ToolKind.READ)
def find_customer(db: Database, email: str) -> str:
    """Find a customer's id by email.

    Args:
        email: The customer's email address.
    """
    customer = db.get("customers", email)
    if customer is None:
        raise ToolError("customer not found")
    return str(customer)


@tool(ToolKind.READ)
def get_booking(db: Database, booking_id: str) -> Booking:
    """Get a booking's details.

    Args:
        booking_id: The booking id, e.g. "B1".
    """
    booking = db.get("bookings", booking_id)
    if booking is None:
        raise ToolError("booking not found")
    return booking  # type: ignore[no-any-return]


@tool(ToolKind.WRITE)
def cancel_booking(db: Database, booking_id: str, reason: str) -> str:
    """Cancel a booking and refund it.

    Args:
        booking_id: The booking id.
        reason: Why the customer cancels.
    """
    booking = get_booking.fn(db, booking_id)
    if booking.status != "confirmed":
        raise ToolError("only confirmed bookings can be cancelled")
    db.put("bookings", booking_id, msgspec.structs.replace(booking, status="cancelled"))
    return f"cancelled; refund of ${booking.price:.2f}"


@tool(ToolKind.READ)
def transfer_to_human_agents(db: Database, summary: str) -> str:
    """Transfer the customer to a human agent.

    Args:
        summary: The issue in a sentence.
    """
    return "Transfer successful"


def _slots(booking: str) -> list[InfoSlot]:
    return [
        InfoSlot("email", "ana@example.com", ["email", "e-mail"], "your email address"),
        InfoSlot("booking_id", booking, ["booking id", "booking number"], "your booking ID", True),
        InfoSlot("reason", "I moved away", ["reason", "why"], "the reason for cancelling"),
    ]


def _task(
    number: int,
    intent: str,
    goal: str,
    opening: str,
    booking: str,
    actions: list[Action],
    *,
    unknown_info: tuple[str, ...] = (),
    required_outputs: tuple[str, ...] = (),
) -> Task:
    """A task of the customer ana@example.com, who authenticates by email."""
    return Task(
        id=f"toy-{number:03d}",
        domain="toy",
        intent=intent,
        scenario=UserScenario(goal, opening, _slots(booking), list(unknown_info)),
        auth_slots=["email"],
        actions=[Action("find_customer", {"email": "ana@example.com"}), *actions],
        required_outputs=list(required_outputs),
    )


TASKS = [
    _task(
        0,
        "cancel_booking",
        "Cancel booking B1 because I moved away.",
        "Hi, I want to cancel my gym booking.",
        "B1",
        [
            Action("get_booking", {"booking_id": "B1"}),
            Action("cancel_booking", {"booking_id": "B1", "reason": "I moved away"}),
        ],
        unknown_info=("payment method ids",),
        required_outputs=("$40.00",),
    ),
    _task(
        1,
        "booking_status",
        "Learn the status of booking B2.",
        "Hello, what is the status of my booking B2?",
        "B2",
        [Action("get_booking", {"booking_id": "B2"})],
        required_outputs=("confirmed",),
    ),
    _task(
        2,
        "transfer",
        "Get a refund for a class that was cancelled last year.",
        "I want my money back for a class you cancelled last year.",
        "B3",
        [Action("transfer_to_human_agents", {"summary": "refund for an old class"})],
    ),
]


class ToyDomain(Domain):
    """Two tables, four tools, three tasks; ``folder`` is a temporary dir with ``policy.md``."""

    name = "toy"
    title = "Toy gym bookings"
    toolkit = Toolkit([find_customer, get_booking, cancel_booking, transfer_to_human_agents])

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or Path(tempfile.mkdtemp(prefix="toy-domain-"))  # type: ignore[misc]
        (self.folder / "policy.md").write_text("Be kind. Confirm before cancelling.\n")

    def build_base(self) -> tuple[Mapping[str, Mapping[str, Any]], Mapping[str, Mapping[str, Any]]]:
        bookings = {
            "B1": Booking("B1", "ana@example.com", "confirmed", 40.0),
            "B2": Booking("B2", "ana@example.com", "confirmed", 25.0),
        }
        return {"customers": {"ana@example.com": "ana_1"}, "bookings": bookings}, {}

    @property
    def tasks(self) -> list[Task]:
        return TASKS
