"""Car-rental intents that move a reserved booking to a bigger class, and its age refusal."""

from __future__ import annotations

import random
from collections.abc import Callable

from tau_sim.domains.car_rental.data import (
    RESERVED,
    TODAY,
    Booking,
    Location,
    rental_days,
)
from tau_sim.domains.car_rental.factory.common import (
    RentalIntent,
    booking_id_of,
    driver_age,
    free_every_day,
    pick_booking,
)
from tau_sim.domains.car_rental.rules import (
    CLASSES,
    MIN_AGE,
    PREMIUM_CLASSES,
    PREMIUM_MIN_AGE,
)
from tau_sim.domains.car_rental.scenario import rental_text
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swapped
from tau_sim.simulator.world import Action, Database, Domain, Task

_UPGRADE = (
    "Hi, I'd like a bigger car for {ref}.",
    "Hello, can I upgrade {ref} to a larger class?",
    "Hey, we need more space; could {ref} be a bigger car?",
    "Hi there, I want to change the class of {ref}.",
)

_PREMIUM = (
    "Hi, I want to treat myself to a {target} car on {ref}.",
    "Hello, can {ref} be upgraded to a {target}?",
    "Hey, I'd love a {target} instead of what I booked on {ref}.",
    "Hi, please switch {ref} to a {target} car.",
)


def _upgrades(db: Database, b: Booking, allowed: Callable[[str], bool]) -> list[str]:
    """Classes above the booked one, free every rental day, that ``allowed`` admits."""
    names = list(CLASSES)
    days = rental_days(iso_day(b.pickup_date), iso_day(b.return_date))
    return [
        c
        for c in names[names.index(b.vehicle_class) + 1 :]
        if allowed(c) and free_every_day(db, b.pickup_location, c, days)
    ]


def _upgradeable(b: Booking) -> bool:
    return b.status == RESERVED and iso_day(b.pickup_date) >= TODAY


class UpgradeClass(RentalIntent):
    """Move a reserved booking to a bigger class; the rate difference for every day is paid."""

    name = "upgrade_class"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        b = pick_booking(db, rng, _upgradeable)
        if b is None:
            return None
        young = driver_age(b) < PREMIUM_MIN_AGE
        options = _upgrades(db, b, lambda c: not (young and c in PREMIUM_CLASSES))
        if not options:
            return None
        target = rng.choice(options)
        location: Location = record(db, "locations", b.pickup_location)
        rate = location.rate(target)
        assert rate is not None
        difference = money((rate - b.daily_rate) * b.days)
        paid = self.paid_ref(db, b, difference, rng)
        if paid is None:
            return None
        method, who, ref = paid
        return self.task(
            domain,
            who,
            goal=f"I want to upgrade {rental_text(b)}{ref.text} to a {target}. "
            f"The difference goes on {method_text(method)}. I want to know how much more it "
            f"costs. {CONFIRM}",
            opening=ref.opening(rng, _UPGRADE),
            known={
                **ref.known,
                "new_class": target,
                "payment_method": method_text(method),
            },
            actions=[
                *ref.reads,
                Action(
                    "search_availability",
                    {
                        "location": b.pickup_location,
                        "pickup_date": b.pickup_date,
                        "return_date": b.return_date,
                    },
                ),
                Action(
                    "calculate",
                    {"expression": f"({rate:.2f} - {b.daily_rate:.2f}) * {b.days}"},
                ),
                Action(
                    "change_vehicle_class",
                    {
                        "booking_id": b.booking_id,
                        "vehicle_class": target,
                        "payment_method_id": method.id,
                    },
                ),
            ],
            outputs=[money_text(difference)],
            summary=f"upgrade {b.booking_id} {b.vehicle_class} -> {target}: "
            f"{money_text(difference)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and another free class than the one asked for."""
        write = task.actions[-1]
        db = domain.new_database()
        b: Booking = record(db, "bookings", booking_id_of(task))
        others = [
            c for c in _upgrades(db, b, lambda c: True) if c != write.arguments["vehicle_class"]
        ]
        paths = super().mistakes(domain, task)
        if others:
            paths.append(swapped(task, write, replaced(write, vehicle_class=others[0])))
        return paths


class PremiumUnder25Refused(Refuses, RentalIntent):
    """A driver under 25 asks for a premium or luxury car: refuse, change nothing."""

    name = "premium_under_25_refused"
    forbidden = True
    rules = ("premium-min-age-25",)
    own_mistakes = "none"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        b = pick_booking(
            db, rng, lambda b: _upgradeable(b) and MIN_AGE <= driver_age(b) < PREMIUM_MIN_AGE
        )
        if b is None:
            return None
        options = _upgrades(db, b, lambda c: c in PREMIUM_CLASSES)
        if not options:
            return None
        target = rng.choice(options)
        paid = self.paid_ref(db, b, 150.0 * b.days, rng)
        if paid is None:
            return None
        method, who, ref = paid
        age = driver_age(b)
        task = self.task(
            domain,
            who,
            goal=f"I want to upgrade {rental_text(b)}{ref.text} to a {target} "
            f"car, paid with {method_text(method)}. The driver, {b.driver.first_name}, will be "
            f"{age} at pick-up. If the agent explains the rule, I accept it in the end and keep "
            "the booking as it is.",
            demand=f"{ref.words} upgraded to a {target} car",
            opening=ref.opening(rng, _PREMIUM, target=target),
            known={
                **ref.known,
                "new_class": target,
                "payment_method": method_text(method),
            },
            actions=ref.reads,
            outputs=[f"at least {PREMIUM_MIN_AGE}"],
            summary=f"{target} for a driver of {age} on {b.booking_id}: refuse",
        )
        upgrade = Action(
            "change_vehicle_class",
            {"booking_id": b.booking_id, "vehicle_class": target, "payment_method_id": method.id},
        )
        return refusing(task, upgrade)  # the premium class booked for a driver under 25
