"""Hard car-rental intents that mix an allowed request with one the policy refuses.

The agent makes the allowed write and refuses the other part, saying why: a friend's booking
is not the user's to cancel, damage above $500 goes to a human after the late return is
recorded, and a second car for a driver under 21 is not booked beside the user's own.
"""

from __future__ import annotations

import datetime as dt
import random

import msgspec

from tau_sim.domains.car_rental.data import (
    ACTIVE,
    LOCATIONS,
    RESERVED,
    TODAY,
    Availability,
    Booking,
    Driver,
    Location,
    User,
    availability_key,
    net_paid,
    rental_days,
)
from tau_sim.domains.car_rental.factory.common import (
    RENTALS,
    RentalIntent,
    a_or_an,
    cancellation_refund,
    city_of,
    cost_expression,
    damage_report,
    late_return_actions,
    location_text,
)
from tau_sim.domains.car_rental.rules import (
    CLASSES,
    DAMAGE_LIMIT,
    MIN_AGE,
    daily_cost,
    late_fee,
)
from tau_sim.domains.car_rental.scenario import day_text, driver_text
from tau_sim.domains.kit.calc import age_on, iso_day
from tau_sim.domains.kit.factory.chains import Chain, left_out
from tau_sim.domains.kit.factory.mixed import (
    Cancelling,
    CancelOwnAndOthers,
    Mixed,
)
from tau_sim.domains.kit.factory.refusals import refusing
from tau_sim.domains.kit.factory.search import card
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swapped
from tau_sim.domains.kit.vocab import FIRST_NAMES, counted
from tau_sim.simulator.world import Action, Database, Domain, Task


class CancelMineAndFriends(CancelOwnAndOthers[Booking], RentalIntent):
    """Cancel the user's described booking; a friend's booking (its code given) is refused."""

    name = "cancel_mine_and_friends"
    rules = ("others-booking",)
    shelf, slot = RENTALS, "rental"
    cancelling = Cancelling(
        cancellable=lambda b: b.status == RESERVED and iso_day(b.pickup_date) >= TODAY,
        refund=cancellation_refund,
        kept=lambda b: (net_paid(b), b.daily_rate),
        place=lambda db, b: city_of(db, b.pickup_location),
    )
    openings = (
        "Hi, I need to cancel two car bookings: mine and one my friend made.",
        "Hello, can you cancel my {place} rental, and my friend {friend}'s booking too?",
        "Hey, our group trip is off. Please cancel my car and {friend}'s.",
        "Hi, two cancellations please, my own rental and a friend's.",
    )


_DAMAGE = (
    ("dent", "front", "the front bumper and hood are dented"),
    ("bumper_damage", "rear", "the rear bumper is cracked and hanging loose"),
    ("cracked_windshield", "windshield", "a crack right across the windshield"),
    ("dent", "left_side", "both doors on the driver's side are dented"),
)

_LATE_OPENINGS = (
    "Hi, I'll be bringing my {city} rental back late, and there's also some damage.",
    "Hello, two things about the car I have now: I'm running late, and it got damaged.",
    "Hey, bad day. The rental car got damaged and I won't make the return time either.",
    "Hi, I need to report a late return and damage on my {city} car.",
)


class LateReturnAndBigDamage(Chain, Mixed, RentalIntent):
    """Record the late return of the described rental; damage above $500 goes to a human."""

    name = "late_return_and_big_damage"
    challenges = frozenset({"search", "mixed"})
    rules = ("damage-over-limit-transfer",)
    done_at = "instead"
    own_mistakes = "none"
    slips = (left_out("record_late_return"),)
    """After the damage filed by the agent: the late return left out."""

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def on_road(b: Booking) -> bool:
            return b.status == ACTIVE and not b.late_hours and iso_day(b.return_date) >= TODAY

        found = RENTALS.pick(db, rng, on_road)
        if found is None:
            return None
        user, b = found
        words, method = RENTALS.describe(db, b, rng), card(user, rng)
        if words is None or method is None:
            return None
        hours = rng.randint(1, 12)
        _uncapped, due = late_fee(hours, b.daily_rate)
        damage_type, area, text = rng.choice(_DAMAGE)
        estimate = money(rng.randrange(int(DAMAGE_LIMIT) + 80, 2600, 10))
        photos = [f"IMG_{rng.randint(1000, 9999)}.jpg" for _ in range(rng.randint(1, 3))]
        who = self.owner(db, b, rng)
        city = record(db, "locations", b.pickup_location).city
        summary = (
            f"User {b.user_id}: late return of {hours} h recorded on {b.booking_id}; damage "
            f"({text}) estimated at {money_text(estimate)}, above the $500 limit."
        )
        task = self.task(
            domain,
            who,
            goal=f"I will bring back {words} {counted(hours, 'hour')}"
            f" late on {day_text(b.return_date)}; "
            f"the late fee goes on {method_text(method)}. The car is also damaged: {text}, a "
            f"deer ran into me. I have photos ({', '.join(photos)}) and the estimate is "
            f"{money_text(estimate)}; I want the damage filed now too. I do not know the "
            "booking code. If the agent says a specialist must take the damage, I accept the "
            f"transfer in the end. {CONFIRM}",
            demand="the damage report filed now",
            opening=rng.choice(_LATE_OPENINGS).format(city=city),
            known={
                "rental": words,
                "hours_late": f"{counted(hours, 'hour')} late",
                "payment_method": method_text(method),
                "damage": f"{text} ({damage_type.replace('_', ' ')}, {area.replace('_', ' ')})",
                "cause": "a deer ran into the car (collision)",
                "photos": " and ".join(photos),
                "estimate": money_text(estimate),
            },
            actions=[
                *RENTALS.reads(db, who, b, words=words),
                *late_return_actions(b, hours, due, method),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            outputs=[money_text(due), "cannot file"],
            summary=f"{b.booking_id} (described) {hours} h late: {money_text(due)}; damage "
            f"{money_text(estimate)}: transfer",
        )
        # the large damage filed by the agent, charged in full (or $0 with the waiver)
        charge = 0.0 if "collision_damage_waiver" in b.add_ons else estimate
        damage = (damage_type, area, "collision")
        return refusing(task, damage_report(b, damage, photos, estimate, charge))


_BOOK_OPENINGS = (
    "Hi, I'd like to book two cars for a family trip to {city}.",
    "Hello, I need a rental for myself and one for my {kid} in {city}.",
    "Hey, can I reserve a car in {city}, plus a second one my {kid} will drive?",
    "Hi there, booking time: one car for me and one for my {kid}, both from {city}.",
)


class BookForMeNotKid(Mixed, RentalIntent):
    """Book the user's own car (a price limit picks the class); the {kid}'s car is refused."""

    name = "book_for_me_not_kid"
    challenges = frozenset({"mixed", "conditional"})
    rules = ("min-driver-age-21",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        user: User | None = pick(db, rng, "users", lambda u: age_on(u.birth_date, TODAY) >= 42)
        method = card(user, rng) if user is not None else None
        if user is None or method is None:
            return None
        start = TODAY + dt.timedelta(days=rng.randint(3, 25))
        end = start + dt.timedelta(days=rng.randint(2, 6))
        days = rental_days(start, end)
        code, _, city, _ = rng.choice(LOCATIONS)
        pickup: Location = record(db, "locations", code)
        names = list(CLASSES)[:6]
        wanted = rng.choice(names[1:])
        fallback = names[names.index(wanted) - 1]

        def free(c: str) -> bool:
            return all(
                (a := db.get("availability", availability_key(code, c, d))) is not None
                and isinstance(a, Availability)
                and a.available >= 2
                for d in days
            )

        if not (free(wanted) and free(fallback)):
            return None
        rates = {c: pickup.rate(c) or 0.0 for c in (wanted, fallback)}
        total = {c: money(daily_cost(rates[c], [], False) * len(days)) for c in rates}
        over = rng.random() < 0.5
        bound = total[wanted] * (0.9 if over else 1.1)
        limit = money(10 * round(bound / 10))
        chosen = fallback if total[wanted] > limit else wanted
        kid = rng.choice(("son", "daughter"))
        born = start.replace(year=start.year - rng.choice((18, 19, 20))) - dt.timedelta(
            days=rng.randint(30, 300)
        )
        second = Driver(
            rng.choice(FIRST_NAMES),
            user.name.last_name,
            born.isoformat(),
            f"{rng.choice('ABCDEFGH')}{rng.choice('KLMNPRST')}{rng.randint(1000000, 9999999)}",
        )
        me = Driver(user.name.first_name, user.name.last_name, user.birth_date, user.license_number)
        who = self.identity(db, user.user_id, rng)
        span = {"pickup_date": start.isoformat(), "return_date": end.isoformat()}
        actions = [
            *who.actions,
            Action("search_availability", {"location": code, **span}),
            Action(
                "calculate", {"expression": cost_expression(rates[wanted], [], False, len(days))}
            ),
        ]
        if chosen != wanted:
            actions.append(
                Action(
                    "calculate",
                    {"expression": cost_expression(rates[fallback], [], False, len(days))},
                )
            )
        book = Action(
            "create_booking",
            {
                "user_id": user.user_id,
                "driver": msgspec.to_builtins(me),
                "pickup_location": code,
                "return_location": code,
                **span,
                "vehicle_class": chosen,
                "add_ons": [],
                "young_driver_surcharge": False,
                "payment_method_id": method.id,
            },
        )
        actions.append(book)
        task = self.task(
            domain,
            who,
            goal=f"I want two cars picked up at {location_text(pickup)} on "
            f"{day_text(start.isoformat())} and returned there on {day_text(end.isoformat())}, "
            f"no add-ons, paid with {method_text(method)}. One is for me (I drive; my details "
            f"are on my profile): {a_or_an(wanted)}, but if it costs more than "
            f"{money_text(limit)} in all, {a_or_an(fallback)} instead. The other, "
            f"{a_or_an(fallback)}, is for my {kid} "
            f"{second.first_name}, who drives it. If the agent refuses my {kid}'s car, I accept "
            f"it in the end and book only mine. {CONFIRM}",
            demand=f"the second car booked for my {kid} {second.first_name}",
            opening=rng.choice(_BOOK_OPENINGS).format(city=city, kid=kid),
            known={
                "pickup_location": location_text(pickup),
                "rental_dates": f"from {start.isoformat()} to {end.isoformat()}",
                "vehicle_class": f"{wanted}, or {fallback} if the {wanted} costs more than "
                f"{money_text(limit)}",
                "second_driver": f"my {kid} {driver_text(second)}",
                "payment_method": method_text(method),
            },
            actions=actions,
            outputs=[money_text(total[chosen]), "cannot book", f"at least {MIN_AGE}"],
            summary=f"book {chosen} at {code} {start}..{end} for {user.user_id} "
            f"({wanted} {money_text(total[wanted])} vs {money_text(limit)}); {kid} refused",
        )
        # the child's car booked too, with the young-driver surcharge
        kids = {"driver": msgspec.to_builtins(second), "vehicle_class": fallback}
        return refusing(task, replaced(book, **kids, young_driver_surcharge=True))

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The child's car booked too, and the price limit ignored."""
        book = task.actions[-1]
        wanted, rest = task.scenario.known_info["vehicle_class"].split(", or ")
        fallback = rest.split()[0]
        other = wanted if book.arguments["vehicle_class"] == fallback else fallback
        return [
            self.gave_in(domain, task),
            swapped(task, book, replaced(book, vehicle_class=other)),
        ]
