"""Car-rental intents about the return: another return branch, a return hours late."""

from __future__ import annotations

import random

from tau_sim.domains.car_rental.data import (
    ACTIVE,
    LOCATIONS,
    TODAY,
    Booking,
    Location,
)
from tau_sim.domains.car_rental.factory.common import (
    LIST_LOCATIONS,
    RentalIntent,
    booking_id_of,
    branch_words,
    changeable_now,
    late_return_actions,
    pick_booking,
)
from tau_sim.domains.car_rental.rules import (
    late_fee,
    one_way_fee,
)
from tau_sim.domains.car_rental.scenario import rental_text
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swapped
from tau_sim.domains.kit.vocab import counted
from tau_sim.simulator.world import Action, Database, Domain, Task

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


class ChangeReturnLocation(RentalIntent):
    """Return the car at another branch: the one-way fee changes."""

    name = "change_return_location"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        b = pick_booking(db, rng, changeable_now)
        if b is None:
            return None
        pickup: Location = record(db, "locations", b.pickup_location)
        options = [c for c, *_ in LOCATIONS if c != b.return_location]
        new: Location = record(db, "locations", rng.choice(options))
        fee = one_way_fee(pickup.city, pickup.code, new.city, new.code)
        difference = money(fee - b.one_way_fee)
        if difference == 0:
            return None
        paid = self.paid_ref(db, b, abs(difference), rng)
        if paid is None:
            return None
        method, who, ref = paid
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
        paid = self.paid_ref(db, b, due, rng)
        if paid is None:
            return None
        method, who, ref = paid
        return self.task(
            domain,
            who,
            goal=f"I cannot bring back {rental_text(b)}{ref.text} at 10:00 today: "
            f"I will be {counted(hours, 'hour')}"
            f" late. I do not want to extend by a day. The late fee "
            f"goes on {method_text(method)} and I want to know how much it is. {CONFIRM}",
            opening=ref.opening(rng, _LATE),
            known={
                **ref.known,
                "hours_late": f"{counted(hours, 'hour')} late",
                "payment_method": method_text(method),
            },
            actions=[
                *ref.reads,
                *late_return_actions(b, hours, due, method),
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
