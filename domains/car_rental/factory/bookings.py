"""Car-rental intents that book a car, and the refusal of a driver under 21."""

from __future__ import annotations

import datetime as dt
import random

import msgspec

from tau_sim.domains.car_rental.data import (
    LAST_DAY,
    LOCATIONS,
    TODAY,
    Driver,
    Location,
    User,
    rental_days,
)
from tau_sim.domains.car_rental.factory.common import (
    LIST_LOCATIONS,
    RentalIntent,
    branch_words,
    cost_expression,
    free_every_day,
    location_text,
)
from tau_sim.domains.car_rental.rules import (
    ADD_ONS,
    CLASSES,
    MIN_AGE,
    PREMIUM_CLASSES,
    YOUNG_DRIVER_AGE,
    daily_cost,
    one_way_fee,
)
from tau_sim.domains.car_rental.scenario import add_ons_text, day_text, driver_text
from tau_sim.domains.kit.calc import age_on
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import card_for, method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swapped
from tau_sim.domains.kit.vocab import FIRST_NAMES
from tau_sim.simulator.world import Action, Database, Domain, Task

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


class BookCar(RentalIntent):
    """Book a vehicle class at a branch for some days, with add-ons, maybe one-way."""

    name = "book_car"

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


class Under21Refused(Refuses, RentalIntent):
    """A booking for a driver under 21: refuse, book nothing."""

    name = "under_21_refused"
    forbidden = True
    rules = ("min-driver-age-21",)
    own_mistakes = "none"

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
        task = self.task(
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
        booked = Action(
            "create_booking",
            {
                "user_id": user.user_id,
                "driver": {
                    "first_name": driver.first_name,
                    "last_name": driver.last_name,
                    "birth_date": driver.birth_date,
                    "license_number": driver.license_number,
                },
                "pickup_location": code,
                "return_location": code,
                "pickup_date": start.isoformat(),
                "return_date": end.isoformat(),
                "vehicle_class": vehicle_class,
                "add_ons": [],
                "young_driver_surcharge": True,
                "payment_method_id": method.id,
            },
        )
        return refusing(task, booked)  # booked for the driver under 21, with the surcharge
