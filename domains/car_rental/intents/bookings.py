"""Car-rental intents that book a car or upgrade its class, and the age refusals."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

import msgspec

from tau_sim.domains.car_rental.data import (
    LAST_DAY,
    LOCATIONS,
    RESERVED,
    TODAY,
    Booking,
    Driver,
    Location,
    User,
    rental_days,
)
from tau_sim.domains.car_rental.intents.common import (
    LIST_LOCATIONS,
    BookingRef,
    RentalIntent,
    booking_id_of,
    branch_words,
    cost_expression,
    free_every_day,
    location_text,
    pick_booking,
)
from tau_sim.domains.car_rental.rules import (
    ADD_ONS,
    CLASSES,
    MIN_AGE,
    PREMIUM_CLASSES,
    PREMIUM_MIN_AGE,
    YOUNG_DRIVER_AGE,
    daily_cost,
    one_way_fee,
)
from tau_sim.domains.car_rental.scenario import (
    CONFIRM,
    add_ons_text,
    day_text,
    driver_text,
    rental_text,
)
from tau_sim.domains.kit.calc import age_on, iso_day
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import card_for, method_text, money, money_text
from tau_sim.domains.kit.tasks import replaced, swapped
from tau_sim.domains.kit.vocab import FIRST_NAMES
from tau_sim.simulator.world import Action, Database, Domain, Task


def driver_age(booking: Booking) -> int:
    """The driver's age on the pick-up date."""
    return age_on(booking.driver.birth_date, iso_day(booking.pickup_date))


def code_of(text: str) -> str:
    """The branch code a ``location_text`` starts with."""
    return text.split()[0]


_BOOK = (
    "Hi, I'd like to rent a car in {city}.",
    "Hello, I need a car in {city} for a few days.",
    "Hey, do you have cars available in {city}? I want to book one.",
    "Hi there, I'm travelling to {city} and need a rental.",
    "Good morning, I want to reserve a car, picking it up in {city}.",
)

_UNDER_21 = (
    "Hi, I'd like to book a car for my {relation}.",
    "Hello, my {relation} needs a rental car; can I book it for them?",
    "Hey, I want to reserve a car that my {relation} will drive.",
    "Hi, booking a car for my {relation}, who is going on a trip.",
)

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


class BookCar(RentalIntent):
    """Book a vehicle class at a branch for some days, with add-ons, maybe one-way."""

    name = "book_car"
    description = "The user books a car: branch, dates, class, driver, add-ons, payment."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        user: User | None = pick(db, rng, "users", lambda u: True)
        if user is None:
            return None
        start = TODAY + dt.timedelta(days=rng.randint(2, 28))
        end = start + dt.timedelta(days=rng.randint(2, 7))
        if end > LAST_DAY:
            return None
        age = age_on(user.birth_date, start)
        young = age < YOUNG_DRIVER_AGE
        classes = [c for c in CLASSES if not (young and c in PREMIUM_CLASSES)]
        vehicle_class = rng.choice(classes)
        code, _, city, _ = rng.choice(LOCATIONS)
        pickup: Location = record(db, "locations", code)
        days = rental_days(start, end)
        if not free_every_day(db, code, vehicle_class, days):
            return None
        back = pickup
        if rng.random() < 0.35:
            back = record(db, "locations", rng.choice([c for c, *_ in LOCATIONS if c != code]))
        fee = one_way_fee(city, code, back.city, back.code)
        add_ons = sorted(
            rng.sample(list(ADD_ONS), rng.choice((0, 1, 1, 2))), key=list(ADD_ONS).index
        )
        rate = pickup.rate(vehicle_class)
        assert rate is not None
        total = money(daily_cost(rate, add_ons, young) * len(days) + fee)
        method = card_for(user, total, rng)
        if method is None or method.source == "gift_card":
            return None
        driver = Driver(
            user.name.first_name, user.name.last_name, user.birth_date, user.license_number
        )
        who = self.identity(db, user.user_id, rng)
        expression = cost_expression(rate, add_ons, young, len(days))
        if fee:
            expression += f" + {fee:.2f}"
        book = Action(
            "create_booking",
            {
                "user_id": user.user_id,
                "driver": msgspec.to_builtins(driver),
                "pickup_location": code,
                "return_location": back.code,
                "pickup_date": start.isoformat(),
                "return_date": end.isoformat(),
                "vehicle_class": vehicle_class,
                "add_ons": add_ons,
                "young_driver_surcharge": young,
                "payment_method_id": method.id,
            },
        )
        reads = [
            Action(
                "search_availability",
                {
                    "location": code,
                    "pickup_date": start.isoformat(),
                    "return_date": end.isoformat(),
                },
            )
        ]
        if back.code != code:
            reads.append(
                Action("get_one_way_fee", {"pickup_location": code, "return_location": back.code})
            )
        by_name = rng.random() < 0.5
        if by_name:
            reads.insert(0, LIST_LOCATIONS)
        here, there = branch_words(pickup, by_name), branch_words(back, by_name)
        where = f"return it at {there}" if back.code != code else "return it there"
        return self.task(
            domain,
            who,
            goal=f"I want to rent a {vehicle_class} car, picked up at {here} on "
            f"{day_text(start.isoformat())} and returned on {day_text(end.isoformat())}; I "
            f"{where}. I am the driver (born {user.birth_date}, license "
            f"{user.license_number}). I want {add_ons_text(add_ons)}, paid with "
            f"{method_text(method)}. I want to know the total price. {CONFIRM}",
            opening=rng.choice(_BOOK).format(city=city),
            known={
                "pickup_location": here,
                "return_location": there,
                "rental_dates": f"from {start.isoformat()} to {end.isoformat()}",
                "vehicle_class": vehicle_class,
                "driver": driver_text(driver),
                "add_ons": add_ons_text(add_ons),
                "payment_method": method_text(method),
            },
            actions=[
                *who.actions,
                *reads,
                Action("calculate", {"expression": expression}),
                book,
            ],
            outputs=[money_text(total)],
            summary=f"book {vehicle_class} {code}->{back.code} {start}..{end} "
            f"(driver {age}{', young-driver surcharge' if young else ''}): {money_text(total)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The surcharge the wrong way round, and collision damage cover not asked for."""
        book = task.actions[-1]
        args = book.arguments
        paths = [
            swapped(
                task,
                book,
                replaced(book, young_driver_surcharge=not args["young_driver_surcharge"]),
            )
        ]
        if "collision_damage_waiver" not in args["add_ons"]:
            add_ons = [a for a in ADD_ONS if a in args["add_ons"] or a == "collision_damage_waiver"]
            paths.append(swapped(task, book, replaced(book, add_ons=add_ons)))
        return [*super().mistakes(domain, task), *paths]


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
    description = "The user upgrades a reserved booking to a bigger vehicle class."

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
        user: User = record(db, "users", b.user_id)
        method = card_for(user, difference, rng)
        if method is None:
            return None
        who = self.owner(db, b, rng)
        ref = BookingRef(db, b, who, rng)
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


class PremiumUnder25Refused(RentalIntent):
    """A driver under 25 asks for a premium or luxury car: refuse, change nothing."""

    name = "premium_under_25_refused"
    description = "The user wants a premium class for a driver under 25: refuse."
    forbidden = True
    rules = ("premium-min-age-25",)

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
        user: User = record(db, "users", b.user_id)
        method = card_for(user, 150.0 * b.days, rng)
        if method is None:
            return None
        who = self.owner(db, b, rng)
        ref = BookingRef(db, b, who, rng)
        age = driver_age(b)
        return self.task(
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

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The premium class booked for a driver under 25."""
        known = task.scenario.known_info
        b: Booking = record(domain.new_database(), "bookings", booking_id_of(task))
        user: User = record(domain.new_database(), "users", b.user_id)
        method = next(m for m in user.payment_methods if method_text(m) == known["payment_method"])
        write = Action(
            "change_vehicle_class",
            {
                "booking_id": b.booking_id,
                "vehicle_class": known["new_class"],
                "payment_method_id": method.id,
            },
        )
        return [write]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The premium class booked anyway."""
        return [[*task.actions, *self.violations(domain, task)]]


class Under21Refused(RentalIntent):
    """A booking for a driver under 21: refuse, book nothing."""

    name = "under_21_refused"
    description = "The user wants to book a car for a driver under 21: refuse."
    forbidden = True
    rules = ("min-driver-age-21",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        user: User | None = pick(db, rng, "users", lambda u: age_on(u.birth_date, TODAY) >= 40)
        if user is None:
            return None
        start = TODAY + dt.timedelta(days=rng.randint(2, 25))
        end = start + dt.timedelta(days=rng.randint(2, 6))
        code, *_ = rng.choice(LOCATIONS)
        vehicle_class = rng.choice(list(CLASSES)[:4])
        if not free_every_day(db, code, vehicle_class, rental_days(start, end)):
            return None
        age = rng.choice((18, 19, 20))
        born = start.replace(year=start.year - age) - dt.timedelta(days=rng.randint(30, 300))
        driver = Driver(
            rng.choice(FIRST_NAMES),
            user.name.last_name,
            born.isoformat(),
            f"{rng.choice('ABCDEFGH')}{rng.choice('KLMNPRST')}{rng.randint(1000000, 9999999)}",
        )
        method = card_for(user, 1000.0, rng)
        if method is None or method.source == "gift_card":
            return None
        pickup: Location = record(db, "locations", code)
        relation = rng.choice(("son", "daughter", "nephew", "niece"))
        who = self.identity(db, user.user_id, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to rent a {vehicle_class} car for my {relation} "
            f"{driver.first_name}, who will drive it (born {driver.birth_date}, license "
            f"{driver.license_number}), picked up at {location_text(pickup)} on {start} and "
            f"returned there on {end}, paid with {method_text(method)}. If the agent explains "
            "the age rule, I accept it in the end and book nothing.",
            demand=f"a {vehicle_class} car booked for my {relation} {driver.first_name}",
            opening=rng.choice(_UNDER_21).format(relation=relation),
            known={
                "pickup_location": location_text(pickup),
                "rental_dates": f"from {start.isoformat()} to {end.isoformat()}",
                "vehicle_class": vehicle_class,
                "driver": driver_text(driver),
                "payment_method": method_text(method),
            },
            actions=list(who.actions),
            outputs=[f"at least {MIN_AGE}"],
            summary=f"book for a driver of {age_on(driver.birth_date, start)}: refuse",
        )

    def violations(self, domain: Domain, task: Task) -> list[Action]:
        """The booking made for a driver under 21, with the young-driver surcharge."""
        known = task.scenario.known_info
        user_id = task.actions[-1].arguments["user_id"]
        user: User = record(domain.new_database(), "users", user_id)
        method = next(m for m in user.payment_methods if method_text(m) == known["payment_method"])
        name, born, lic = known["driver"].split(", ")
        first, last = name.split(" ", 1)
        _, start, _, end = known["rental_dates"].split()
        code = code_of(known["pickup_location"])
        write = Action(
            "create_booking",
            {
                "user_id": user_id,
                "driver": {
                    "first_name": first,
                    "last_name": last,
                    "birth_date": born.removeprefix("born "),
                    "license_number": lic.removeprefix("license "),
                },
                "pickup_location": code,
                "return_location": code,
                "pickup_date": start,
                "return_date": end,
                "vehicle_class": known["vehicle_class"],
                "add_ons": [],
                "young_driver_surcharge": True,
                "payment_method_id": method.id,
            },
        )
        return [write]

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The booking made anyway, with the young-driver surcharge."""
        return [[*task.actions, *self.violations(domain, task)]]
