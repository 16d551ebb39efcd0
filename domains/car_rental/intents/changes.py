"""Car-rental intents that change a booking: extend, cancel, move the return, return late."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

from tau_sim.domains.car_rental.data import (
    ACTIVE,
    LAST_DAY,
    LOCATIONS,
    RESERVED,
    TODAY,
    Booking,
    Location,
    User,
    net_paid,
    rental_days,
)
from tau_sim.domains.car_rental.intents.common import (
    LIST_LOCATIONS,
    BookingRef,
    RentalIntent,
    booking_id_of,
    branch_words,
    cancellation_refund,
    cost_expression,
    free_every_day,
    hours_to_pickup,
    pick_booking,
)
from tau_sim.domains.car_rental.rules import (
    ADD_ONS,
    FREE_CANCELLATION_HOURS,
    LATE_FEE_PER_HOUR,
    daily_cost,
    late_fee,
    one_way_fee,
)
from tau_sim.domains.car_rental.scenario import CONFIRM, day_text, rental_text
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import PaymentMethod, card_for, method_text, money, money_text
from tau_sim.domains.kit.tasks import replaced, swapped
from tau_sim.simulator.world import Action, Database, Domain, Task


def changeable(booking: Booking) -> bool:
    """Whether a booking is reserved (pick-up today or later) or on the road."""
    return booking.status == ACTIVE or (
        booking.status == RESERVED and iso_day(booking.pickup_date) >= TODAY
    )


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

_RETURN = (
    "Hi, can I drop {ref} off somewhere else?",
    "Hello, I'd like to return {ref} at a different branch.",
    "Hey, is it possible to change where I hand back {ref}?",
    "Hi, I need a different drop-off branch for {ref}.",
)

_LATE = (
    "Hi, I'm going to be late returning {ref} today.",
    "Hello, I'm stuck in traffic and {ref} will come back late.",
    "Hey, I can't make the 10:00 return for {ref}.",
    "Hi, heads up: {ref} will be a few hours late today.",
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
    booking = pick_booking(db, rng, lambda b: changeable(b) and accept(b))
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


def _other_date_mistake(domain: Domain, task: Task, extend: Action) -> list[Action] | None:
    """The extension made to another return date (one day off) that the tools allow."""
    db = domain.new_database()
    booking: Booking = record(db, "bookings", extend.arguments["booking_id"])
    end = iso_day(extend.arguments["new_return_date"])
    for shift in (-1, 1):
        other = end + dt.timedelta(days=shift)
        check = _Extension(booking, (other - iso_day(booking.return_date)).days)
        if check.days and check.fits(db):
            return swapped(task, extend, replaced(extend, new_return_date=other.isoformat()))
    return None


class ExtendRental(RentalIntent):
    """Keep the car one to three days longer (availability checked, extra days paid)."""

    name = "extend_rental"
    description = "The user extends a rental by a few days and wants the price."

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
            summary=f"extend {b.booking_id} to {end} ({len(ext.days)} day(s)): "
            f"{money_text(ext.cost)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones and the extension to a date one day off."""
        other = _other_date_mistake(domain, task, task.actions[-1])
        return [*super().mistakes(domain, task), *([other] if other else [])]


class ExtendAndAddInsurance(RentalIntent):
    """Two writes: extend the rental, then add the collision damage waiver for every day."""

    name = "extend_and_add_insurance"
    description = "The user extends a rental and adds the collision damage waiver."

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
        both = "liability_protection" not in b.add_ons and rng.random() < 0.5
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
    description = "The user cancels a booking; the refund follows the 48-hour window."

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


class ChangeReturnLocation(RentalIntent):
    """Return the car at another branch: the one-way fee changes."""

    name = "change_return_location"
    description = "The user returns the car at another branch and pays the one-way fee difference."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        b = pick_booking(db, rng, changeable)
        if b is None:
            return None
        pickup: Location = record(db, "locations", b.pickup_location)
        options = [c for c, *_ in LOCATIONS if c != b.return_location]
        new: Location = record(db, "locations", rng.choice(options))
        fee = one_way_fee(pickup.city, pickup.code, new.city, new.code)
        difference = money(fee - b.one_way_fee)
        if difference == 0:
            return None
        user: User = record(db, "users", b.user_id)
        method = card_for(user, abs(difference), rng)
        if method is None:
            return None
        who = self.owner(db, b, rng)
        ref = BookingRef(db, b, who, rng)
        paying = difference > 0
        by_name = rng.random() < 0.5
        there = branch_words(new, by_name)
        return self.task(
            domain,
            who,
            goal=f"For {rental_text(b)}{ref.text} I want to return the car at "
            f"{there} instead of {b.return_location}. Any difference goes to "
            f"{method_text(method)}. I want to know how much I "
            f"{'pay' if paying else 'get back'}. {CONFIRM}",
            opening=ref.opening(rng, _RETURN),
            known={
                **ref.known,
                "new_return_location": there,
                "payment_method": method_text(method),
            },
            actions=[
                *ref.reads,
                *([LIST_LOCATIONS] if by_name else []),
                Action(
                    "get_one_way_fee",
                    {"pickup_location": b.pickup_location, "return_location": new.code},
                ),
                Action(
                    "change_return_location",
                    {
                        "booking_id": b.booking_id,
                        "return_location": new.code,
                        "payment_method_id": method.id,
                    },
                ),
            ],
            outputs=[money_text(abs(difference))],
            summary=f"return {b.booking_id} at {new.code} instead of {b.return_location}: "
            f"{'pay' if paying else 'refund'} {money_text(abs(difference))}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the car sent to the other branch of the wanted city."""
        change = task.actions[-1]
        wanted = change.arguments["return_location"]
        b: Booking = record(domain.new_database(), "bookings", booking_id_of(task))
        city = next(c for code, _, c, _ in LOCATIONS if code == wanted)
        other = next(code for code, _, c, _ in LOCATIONS if c == city and code != wanted)
        paths = super().mistakes(domain, task)
        if other != b.return_location:
            paths.append(swapped(task, change, replaced(change, return_location=other)))
        return paths


class LateReturn(RentalIntent):
    """The car comes back a few hours late today: $15 an hour, capped at one day's rate."""

    name = "late_return"
    description = "The user will return the car hours late; the agent records the capped fee."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        b = pick_booking(
            db,
            rng,
            lambda b: (
                b.status == ACTIVE and b.return_date == TODAY.isoformat() and not b.late_hours
            ),
        )
        if b is None:
            return None
        hours = rng.randint(1, 9)
        uncapped, due = late_fee(hours, b.daily_rate)
        user: User = record(db, "users", b.user_id)
        method = card_for(user, due, rng)
        if method is None:
            return None
        who = self.owner(db, b, rng)
        ref = BookingRef(db, b, who, rng)
        return self.task(
            domain,
            who,
            goal=f"I cannot bring back {rental_text(b)}{ref.text} at 10:00 today: "
            f"I will be {hours} hour(s) late. I do not want to extend by a day. The late fee "
            f"goes on {method_text(method)} and I want to know how much it is. {CONFIRM}",
            opening=ref.opening(rng, _LATE),
            known={
                **ref.known,
                "hours_late": f"{hours} hour(s) late",
                "payment_method": method_text(method),
            },
            actions=[
                *ref.reads,
                Action("calculate", {"expression": f"{LATE_FEE_PER_HOUR:.2f} * {hours}"}),
                Action(
                    "record_late_return",
                    {
                        "booking_id": b.booking_id,
                        "hours_late": hours,
                        "late_fee": due,
                        "payment_method_id": method.id,
                    },
                ),
            ],
            outputs=[money_text(due)],
            summary=f"{b.booking_id} {hours} h late: {money_text(due)}"
            + (f" (capped from {money_text(uncapped)})" if uncapped > due else ""),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The uncapped fee when the cap applies, else an hour more than the user said."""
        write = task.actions[-1]
        hours = write.arguments["hours_late"]
        b: Booking = record(domain.new_database(), "bookings", booking_id_of(task))
        uncapped, due = late_fee(hours, b.daily_rate)
        if uncapped > due:
            wrong = replaced(write, late_fee=uncapped)
        else:
            wrong = replaced(
                write, hours_late=hours + 1, late_fee=late_fee(hours + 1, b.daily_rate)[1]
            )
        return [*super().mistakes(domain, task), swapped(task, write, wrong)]
