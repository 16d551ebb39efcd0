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
    RentalIntent,
    booking_id_of,
    cancellation_refund,
    cost_expression,
    free_every_day,
    hours_to_pickup,
    location_text,
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
from tau_sim.domains.car_rental.scenario import CONFIRM, day_text, gold_reads, rental_text
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
        end = ext.end.isoformat()
        return self.task(
            domain,
            who,
            goal=f"I want to keep {rental_text(b)} (booking {b.booking_id}) until "
            f"{day_text(end)}, paid with {method_text(method)}. I want to know what the extra "
            f"days cost. {CONFIRM}",
            opening=f"Hi, I need to keep my rental car longer, booking {b.booking_id}.",
            known={
                "booking_id": b.booking_id,
                "new_return_date": end,
                "payment_method": method_text(method),
            },
            actions=[*gold_reads(who, b.booking_id), *ext.actions(method)],
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
        end = ext.end.isoformat()
        return self.task(
            domain,
            who,
            goal=f"Two things for booking {b.booking_id} ({rental_text(b)}): first keep the car "
            f"until {day_text(end)}, then add the collision damage waiver for the whole "
            f"rental. Everything is paid with {method_text(method)}. I want to know what the "
            f"extension and the waiver each cost. {CONFIRM}",
            opening=f"Hello, I want to extend rental {b.booking_id} and add damage cover.",
            known={
                "booking_id": b.booking_id,
                "new_return_date": end,
                "coverage": "the collision damage waiver",
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, b.booking_id),
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
            ],
            outputs=[money_text(ext.cost), money_text(cover)],
            summary=f"extend {b.booking_id} to {end} ({money_text(ext.cost)}) and add the "
            f"waiver for {days} days ({money_text(cover)})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The waiver forgotten, liability protection added instead, the extension one day off."""
        cover = task.actions[-1]
        paths = super().mistakes(domain, task)
        b: Booking = record(domain.new_database(), "bookings", booking_id_of(task))
        if "liability_protection" not in b.add_ons:
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
        return self.task(
            domain,
            who,
            goal=f"I want to cancel booking {b.booking_id} ({rental_text(b)}) and I want to "
            f"know how much I get back. {CONFIRM}",
            opening=f"Hi, I need to cancel my car rental {b.booking_id}.",
            known={"booking_id": b.booking_id},
            actions=[
                *gold_reads(who, b.booking_id),
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
        paying = difference > 0
        return self.task(
            domain,
            who,
            goal=f"For booking {b.booking_id} ({rental_text(b)}) I want to return the car at "
            f"{location_text(new)} instead of {b.return_location}. Any difference goes to "
            f"{method_text(method)}. I want to know how much I "
            f"{'pay' if paying else 'get back'}. {CONFIRM}",
            opening=f"Hi, can I drop my rental car {b.booking_id} off somewhere else?",
            known={
                "booking_id": b.booking_id,
                "new_return_location": location_text(new),
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, b.booking_id),
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
        return self.task(
            domain,
            who,
            goal=f"I cannot bring back {rental_text(b)} (booking {b.booking_id}) at 10:00 today: "
            f"I will be {hours} hour(s) late. I do not want to extend by a day. The late fee "
            f"goes on {method_text(method)} and I want to know how much it is. {CONFIRM}",
            opening=f"Hi, I'm going to be late returning my rental car {b.booking_id} today.",
            known={
                "booking_id": b.booking_id,
                "hours_late": f"{hours} hour(s) late",
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, b.booking_id),
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
