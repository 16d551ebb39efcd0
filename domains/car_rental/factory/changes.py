"""Car-rental intents that change a booking: extend it (with cover) or cancel it."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

from tau_sim.domains.car_rental.data import (
    LAST_DAY,
    RESERVED,
    TODAY,
    Booking,
    User,
    net_paid,
    rental_days,
)
from tau_sim.domains.car_rental.factory.common import (
    BookingRef,
    RentalIntent,
    booking_id_of,
    cancellation_refund,
    changeable_now,
    cost_expression,
    free_every_day,
    hours_to_pickup,
    pick_booking,
)
from tau_sim.domains.car_rental.rules import (
    ADD_ONS,
    FREE_CANCELLATION_HOURS,
    daily_cost,
)
from tau_sim.domains.car_rental.scenario import day_text, rental_text
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.factory.chains import Chain
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import PaymentMethod, card_for, method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swapped
from tau_sim.domains.kit.vocab import counted
from tau_sim.simulator.world import Action, Database, Domain, Task

_EXTEND = (
    "Hi, I need to keep {ref} longer.",
    "Hello, can I extend {ref}? A few more days.",
    "Hey, my trip got longer; I want to hold on to {ref}.",
    "Good morning, I'd like more days on {ref}, please.",
)

_EXTEND_COVER = (
    "Hello, I want to extend {ref} and add damage cover.",
    "Hi, two things on {ref}: more days and insurance.",
    "Hey, can I keep {ref} longer and get it insured?",
    "Hi there, I need extra days on {ref}, plus the damage waiver.",
)

_CANCEL = (
    "Hi, I need to cancel {ref}.",
    "Hello, please cancel {ref}; plans changed.",
    "Hey, I won't need {ref} any more. How much do I get back?",
    "Hi, I'd like to call off {ref}.",
)


class _Extension:
    """A checked extension of a booking: the new return date, its days and cost."""

    def __init__(self, booking: Booking, extra: int) -> None:
        self.booking = booking
        self.old_end = iso_day(booking.return_date)
        self.end = self.old_end + dt.timedelta(days=extra)
        self.days = rental_days(self.old_end, self.end)
        per_day = daily_cost(booking.daily_rate, booking.add_ons, booking.young_driver_surcharge)
        self.cost = money(per_day * extra)
        self.expression = cost_expression(
            booking.daily_rate, booking.add_ons, booking.young_driver_surcharge, extra
        )

    def fits(self, db: Database) -> bool:
        """Whether the class is free every extra day and the rental stays bookable."""
        start = iso_day(self.booking.pickup_date)
        return (
            self.end <= LAST_DAY
            and (self.end - start).days <= 30
            and free_every_day(
                db, self.booking.pickup_location, self.booking.vehicle_class, self.days
            )
        )

    def actions(self, method: PaymentMethod) -> list[Action]:
        """The availability search, the price calculation and the extension."""
        b = self.booking
        return [
            Action(
                "search_availability",
                {
                    "location": b.pickup_location,
                    "pickup_date": b.return_date,
                    "return_date": self.end.isoformat(),
                },
            ),
            Action("calculate", {"expression": self.expression}),
            Action(
                "extend_booking",
                {
                    "booking_id": b.booking_id,
                    "new_return_date": self.end.isoformat(),
                    "payment_method_id": method.id,
                },
            ),
        ]


def _sample_extension(
    db: Database, rng: random.Random, accept: Callable[[Booking], bool]
) -> tuple[_Extension, PaymentMethod] | None:
    booking = pick_booking(db, rng, lambda b: changeable_now(b) and accept(b))
    if booking is None:
        return None
    extension = _Extension(booking, rng.randint(1, 3))
    if not extension.fits(db):
        return None
    user: User = record(db, "users", booking.user_id)
    method = card_for(user, extension.cost + 19.0 * 40, rng)
    if method is None:
        return None
    return extension, method


def _other_date_mistake(
    domain: Domain, task: Task, extend: Action | None = None
) -> list[Action] | None:
    """The extension ``extend`` (the last action) made to another return date (one day off)."""
    extend = task.actions[-1] if extend is None else extend
    db = domain.new_database()
    booking: Booking = record(db, "bookings", extend.arguments["booking_id"])
    end = iso_day(extend.arguments["new_return_date"])
    for shift in (-1, 1):
        other = end + dt.timedelta(days=shift)
        check = _Extension(booking, (other - iso_day(booking.return_date)).days)
        if check.days and check.fits(db):
            return swapped(task, extend, replaced(extend, new_return_date=other.isoformat()))
    return None


class ExtendRental(Chain, RentalIntent):
    """Keep the car one to three days longer (availability checked, extra days paid)."""

    name = "extend_rental"
    slips = (_other_date_mistake,)  # the return date one day off

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        drawn = _sample_extension(db, rng, lambda b: True)
        if drawn is None:
            return None
        ext, method = drawn
        b = ext.booking
        who = self.owner(db, b, rng)
        ref = BookingRef(db, b, who, rng)
        end = ext.end.isoformat()
        return self.task(
            domain,
            who,
            goal=f"I want to keep {rental_text(b)}{ref.text} until "
            f"{day_text(end)}, paid with {method_text(method)}. I want to know what the extra "
            f"days cost. {CONFIRM}",
            opening=ref.opening(rng, _EXTEND),
            known={
                **ref.known,
                "new_return_date": end,
                "payment_method": method_text(method),
            },
            actions=[*ref.reads, *ext.actions(method)],
            outputs=[money_text(ext.cost)],
            summary=f"extend {b.booking_id} to {end} ({counted(len(ext.days), 'day')}): "
            f"{money_text(ext.cost)}",
        )


class ExtendAndAddInsurance(RentalIntent):
    """Two writes: extend the rental, then add the collision damage waiver for every day."""

    name = "extend_and_add_insurance"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        drawn = _sample_extension(db, rng, lambda b: "collision_damage_waiver" not in b.add_ons)
        if drawn is None:
            return None
        ext, method = drawn
        b = ext.booking
        days = (ext.end - iso_day(b.pickup_date)).days
        cover = money(ADD_ONS["collision_damage_waiver"] * days)
        who = self.owner(db, b, rng)
        ref = BookingRef(db, b, who, rng)
        end = ext.end.isoformat()
        both = "liability_protection" not in b.add_ons and rng.random() < 0.65
        liability = money(ADD_ONS["liability_protection"] * days)
        extra = [
            Action("calculate", {"expression": f"{ADD_ONS['liability_protection']:.2f} * {days}"}),
            Action(
                "add_insurance",
                {
                    "booking_id": b.booking_id,
                    "coverage": "liability_protection",
                    "payment_method_id": method.id,
                },
            ),
        ]
        wanted = "the collision damage waiver" + (" and liability protection" if both else "")
        return self.task(
            domain,
            who,
            goal=f"For {rental_text(b)}{ref.text}: first keep the car until {day_text(end)}, "
            f"then add {wanted} for the whole rental. Everything is paid with "
            f"{method_text(method)}. I want to know what the extension and the cover each "
            f"cost. {CONFIRM}",
            opening=ref.opening(rng, _EXTEND_COVER),
            known={
                **ref.known,
                "new_return_date": end,
                "coverage": wanted,
                "payment_method": method_text(method),
            },
            actions=[
                *ref.reads,
                *ext.actions(method),
                Action(
                    "calculate",
                    {"expression": f"{ADD_ONS['collision_damage_waiver']:.2f} * {days}"},
                ),
                Action(
                    "add_insurance",
                    {
                        "booking_id": b.booking_id,
                        "coverage": "collision_damage_waiver",
                        "payment_method_id": method.id,
                    },
                ),
                *(extra if both else []),
            ],
            outputs=[
                money_text(ext.cost),
                money_text(cover),
                *([money_text(liability)] if both else []),
            ],
            summary=f"extend {b.booking_id} to {end} ({money_text(ext.cost)}) and add the "
            f"waiver for {days} days ({money_text(cover)})"
            + (f" and liability ({money_text(liability)})" if both else ""),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The cover forgotten, liability protection instead, the extension one day off."""
        covers = [a for a in task.actions if a.name == "add_insurance"]
        cover = covers[0]
        paths = super().mistakes(domain, task)
        b: Booking = record(domain.new_database(), "bookings", booking_id_of(task))
        if "liability_protection" not in b.add_ons and len(covers) == 1:
            paths.append(swapped(task, cover, replaced(cover, coverage="liability_protection")))
        extend = next(a for a in task.actions if a.name == "extend_booking")
        other = _other_date_mistake(domain, task, extend)
        if other:
            paths.append(other)
        return paths


class CancelBooking(RentalIntent):
    """Cancel a booking not yet picked up: full refund 48 hours ahead, else one day's rate kept."""

    name = "cancel_booking"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        late = rng.random() < 0.5

        def accept(b: Booking) -> bool:
            if b.status != RESERVED or iso_day(b.pickup_date) < TODAY:
                return False
            return (hours_to_pickup(b.pickup_date) < FREE_CANCELLATION_HOURS) == late

        b = pick_booking(db, rng, accept)
        if b is None:
            return None
        refund, fee = cancellation_refund(b)
        if refund <= 0:
            return None
        who = self.owner(db, b, rng)
        ref = BookingRef(db, b, who, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to cancel {rental_text(b)}{ref.text} and I want to "
            f"know how much I get back. {CONFIRM}",
            opening=ref.opening(rng, _CANCEL),
            known=ref.known,
            actions=[
                *ref.reads,
                *(
                    [Action("calculate", {"expression": f"{net_paid(b):.2f} - {b.daily_rate:.2f}"})]
                    if fee
                    else []
                ),
                Action("cancel_booking", {"booking_id": b.booking_id, "refund_amount": refund}),
            ],
            outputs=[money_text(refund)],
            summary=f"cancel {b.booking_id} (pick-up {b.pickup_date}"
            f"{', within 48 hours: one day kept' if fee else ''}): refund {money_text(refund)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The other side of the window: a full refund when a day is kept, or the reverse."""
        cancel = task.actions[-1]
        b: Booking = record(domain.new_database(), "bookings", booking_id_of(task))
        refund, fee = cancellation_refund(b)
        wrong = net_paid(b) if fee else money(refund - b.daily_rate)
        return [
            *super().mistakes(domain, task),
            swapped(task, cancel, replaced(cancel, refund_amount=wrong)),
        ]
