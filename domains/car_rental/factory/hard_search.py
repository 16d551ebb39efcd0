"""Hard car-rental intents whose users describe their bookings: extend, overhaul, several trips.

The user never gives a booking code: it describes the rental ("the SUV for my Denver trip"),
the agent lists the user's bookings and picks the one meant. The goals are conditional (a
price limit decides the path), raise a new need later in the conversation, or make three or
four changes on one or two bookings.
"""

from __future__ import annotations

import datetime as dt
import random

from tau_sim.domains.car_rental.data import (
    RESERVED,
    TODAY,
    Booking,
    Location,
    net_paid,
)
from tau_sim.domains.car_rental.factory.common import (
    COVER_TEXT,
    HARD,
    LIST_LOCATIONS,
    RENTALS,
    RentalIntent,
    branch_words,
    cancellation_refund,
    changeable_now,
    extend_actions,
    extension_fits,
    fee_actions,
    free_every_day,
    missing_cover,
    one_way_change,
)
from tau_sim.domains.car_rental.rules import (
    ADD_ONS,
    CLASSES,
    PREMIUM_CLASSES,
    PREMIUM_MIN_AGE,
    daily_cost,
)
from tau_sim.domains.car_rental.scenario import day_text
from tau_sim.domains.kit.calc import age_on, iso_day
from tau_sim.domains.kit.factory.search import card
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import PaymentMethod, method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swapped
from tau_sim.domains.kit.vocab import counted
from tau_sim.simulator.world import Action, Database, Domain, Task

_OTHER_COVER = {
    "collision_damage_waiver": "liability_protection",
    "liability_protection": "collision_damage_waiver",
}
"""The cover a user did not choose, of the two a condition picks between."""


def _insured(b: Booking, coverage: str, days: int, method: PaymentMethod) -> list[Action]:
    """The cost of ``coverage`` for ``days`` worked out, then the cover added to ``b``."""
    args = {"booking_id": b.booking_id, "coverage": coverage, "payment_method_id": method.id}
    cost = Action("calculate", {"expression": f"{ADD_ONS[coverage]:.2f} * {days}"})
    return [cost, Action("add_insurance", args)]


_EXTEND_OPENINGS = (
    "Hi, I'd like to keep my {city} rental car a bit longer.",
    "Hello! Our {city} trip is running over, can I have the car for a few more days?",
    "Hey, I need the car I rented in {city} for longer than planned.",
    "Good morning, is it possible to extend a rental? It's the one in {city}.",
)


class ExtendDescribedRental(RentalIntent):
    """Extend the rental the user describes; a price limit decides between all days and one."""

    name = "extend_described_rental"
    tier = HARD
    challenges = frozenset({"search", "conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = RENTALS.pick(db, rng, changeable_now)
        if found is None:
            return None
        user, b = found
        words = RENTALS.describe(db, b, rng)
        method = card(user, rng)
        extra = rng.randint(2, 4)
        full = (iso_day(b.return_date) + dt.timedelta(days=extra)).isoformat()
        one = (iso_day(b.return_date) + dt.timedelta(days=1)).isoformat()
        if words is None or method is None:
            return None
        if not extension_fits(db, b, b.vehicle_class, b.return_date, full):
            return None
        per_day = daily_cost(b.daily_rate, b.add_ons, b.young_driver_surcharge)
        over = rng.random() < 0.5
        limit = money(round(per_day * (extra - 0.5 if over else extra + 0.5) / 10) * 10)
        cost_full = money(per_day * extra)
        over = cost_full > limit
        end = one if over else full
        who = self.owner(db, b, rng)
        actions = RENTALS.reads(db, who, b, words=words)
        ext = extend_actions(b, full, method, b.daily_rate)
        actions += ext[:2]
        if over:
            actions += extend_actions(b, one, method, b.daily_rate)[1:]
        else:
            actions.append(ext[2])
        city = record(db, "locations", b.pickup_location).city
        cost = money(per_day * (1 if over else extra))
        return self.task(
            domain,
            who,
            goal=f"I want to keep {words} {extra} more days, until {day_text(full)}. If the "
            f"extra days cost more than {money_text(limit)} in all, I keep it only one more "
            f"day, until {day_text(one)}. It is paid with {method_text(method)}. I do not know "
            f"the booking code. {CONFIRM}",
            opening=rng.choice(_EXTEND_OPENINGS).format(city=city),
            known={
                "rental": words,
                "new_return_date": f"{full}, or only {one} if {extra} days cost more than "
                f"{money_text(limit)}",
                "payment_method": method_text(method),
            },
            actions=actions,
            outputs=[money_text(cost)],
            summary=f"extend {b.booking_id} (described) to {end}: {money_text(cost)}"
            f" ({extra} days {money_text(cost_full)} vs limit {money_text(limit)})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The limit ignored (the other end date), and another of the user's bookings extended."""
        write = task.actions[-1]
        known = task.scenario.known_info["new_return_date"]
        full, one = known.split(", or only ")[0], known.split(", or only ")[1].split()[0]
        other = one if write.arguments["new_return_date"] == full else full
        paths = [*super().mistakes(domain, task)]
        paths.append(swapped(task, write, replaced(write, new_return_date=other)))
        db = domain.new_database()
        for o in RENTALS.elsewhere(db, write):
            end = (iso_day(o.return_date) + dt.timedelta(days=1)).isoformat()
            if changeable_now(o) and extension_fits(db, o, o.vehicle_class, o.return_date, end):
                wrong = replaced(write, booking_id=o.booking_id, new_return_date=end)
                paths.append(swapped(task, write, wrong))
                break
        return paths


_OVERHAUL_OPENINGS = (
    "Hi, I want to make a few changes to my upcoming rental in {city}.",
    "Hello, my plans for the {city} trip changed and the car needs some changes.",
    "Hey there, can you help me rework a car booking? It's for {city}.",
    "Hi! I booked a car for {city} but I'd like a bigger one and some extras.",
)


class TripOverhaul(RentalIntent):
    """Three or four changes on a described booking: upgrade, extend, insure, later the branch."""

    name = "trip_overhaul"
    tier = HARD
    challenges = frozenset({"search", "long", "later"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(b: Booking) -> bool:
            return (
                b.status == RESERVED and iso_day(b.pickup_date) >= TODAY and bool(missing_cover(b))
            )

        found = RENTALS.pick(db, rng, fits)
        if found is None:
            return None
        user, b = found
        words, method = RENTALS.describe(db, b, rng), card(user, rng)
        change = one_way_change(db, b, rng)
        if words is None or method is None or change is None:
            return None
        new_branch, fee_difference = change
        young = age_on(b.driver.birth_date, iso_day(b.pickup_date)) < PREMIUM_MIN_AGE
        names = list(CLASSES)
        location: Location = record(db, "locations", b.pickup_location)
        days = [(iso_day(b.pickup_date) + dt.timedelta(days=n)).isoformat() for n in range(b.days)]
        bigger = [
            c
            for c in names[names.index(b.vehicle_class) + 1 :]
            if not (young and c in PREMIUM_CLASSES)
            and free_every_day(db, b.pickup_location, c, days)
        ]
        if not bigger:
            return None
        target = rng.choice(bigger)
        rate = location.rate(target)
        assert rate is not None
        coverage = missing_cover(b)
        assert coverage is not None
        extra = rng.choice((0, 0, 1, 2))
        end = (iso_day(b.return_date) + dt.timedelta(days=extra)).isoformat()
        if extra and not extension_fits(db, b, target, b.return_date, end):
            extra, end = 0, b.return_date
        who = self.owner(db, b, rng)
        upgrade = money((rate - b.daily_rate) * b.days)
        actions = [
            *RENTALS.reads(db, who, b, words=words),
            Action(
                "search_availability",
                {
                    "location": b.pickup_location,
                    "pickup_date": b.pickup_date,
                    "return_date": b.return_date,
                },
            ),
            Action("calculate", {"expression": f"({rate:.2f} - {b.daily_rate:.2f}) * {b.days}"}),
            Action(
                "change_vehicle_class",
                {
                    "booking_id": b.booking_id,
                    "vehicle_class": target,
                    "payment_method_id": method.id,
                },
            ),
        ]
        outputs = [money_text(upgrade)]
        if extra:
            actions += extend_actions(b, end, method, rate)
            outputs.append(
                money_text(daily_cost(rate, b.add_ons, b.young_driver_surcharge) * extra)
            )
        total_days = b.days + extra
        actions += _insured(b, coverage, total_days, method)
        outputs.append(money_text(ADD_ONS[coverage] * total_days))
        later_at = len(actions)
        by_name = rng.random() < 0.5
        there = branch_words(new_branch, by_name)
        if by_name and not RENTALS.by_city(words, b):
            actions.append(LIST_LOCATIONS)
        actions += fee_actions(b, new_branch, method)
        outputs.append(money_text(abs(fee_difference)))
        city = location.city
        longer = f", keep it {counted(extra, 'more day')} until {day_text(end)}" if extra else ""
        known = {
            "rental": words,
            "new_class": target,
            "coverage": COVER_TEXT[coverage],
            "new_return_location": there,
            "payment_method": method_text(method),
        }
        if extra:
            known["new_return_date"] = end
        return self.task(
            domain,
            who,
            goal=f"I want to change {words}: upgrade it to a {target}{longer}, and add "
            f"{COVER_TEXT[coverage]} for the whole rental. Everything goes on "
            f"{method_text(method)}. I do not know the booking code. I want to know what each "
            f"change costs. {CONFIRM}",
            opening=rng.choice(_OVERHAUL_OPENINGS).format(city=city),
            known=known,
            actions=actions,
            outputs=outputs,
            summary=f"{b.booking_id} (described): {b.vehicle_class} -> {target}"
            f"{', +' + counted(extra, 'day') if extra else ''}, {coverage}; later return at "
            f"{new_branch.code} ({'+' if fee_difference > 0 else ''}{fee_difference:.2f})",
            later=f"Oh, and while I have you: could I also return the car at {there} instead? "
            "Same payment method for any difference.",
            later_at=later_at,
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The later need left out, the other coverage, and a smaller upgrade."""
        paths = [*super().mistakes(domain, task)]
        cover = next(a for a in task.actions if a.name == "add_insurance")
        other = _OTHER_COVER[cover.arguments["coverage"]]
        b: Booking = record(domain.new_database(), "bookings", cover.arguments["booking_id"])
        if other not in b.add_ons:
            paths.append(swapped(task, cover, replaced(cover, coverage=other)))
        return paths


_MULTI_OPENINGS = (
    "Hi, I have a couple of rentals with you and my plans changed for two of them.",
    "Hello, I need to sort out two of my car bookings, one in {a} and one in {b}.",
    "Hi there, I'm juggling a few trips; one car has to go and another needs more days.",
    "Good morning. Two of my rentals need changes: {a} and {b}.",
)


class TwoTripsReworked(RentalIntent):
    """Cancel one described booking, extend and insure another; a price decides the cover."""

    name = "two_trips_reworked"
    tier = HARD
    challenges = frozenset({"search", "long", "conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def cancellable(b: Booking) -> bool:
            return b.status == RESERVED and iso_day(b.pickup_date) >= TODAY

        def extendable(b: Booking) -> bool:
            return changeable_now(b) and not set(COVER_TEXT) & set(b.add_ons)

        user = RENTALS.pair_owner(db, rng, cancellable, extendable)
        pair = RENTALS.pair(db, rng, user, cancellable, extendable) if user is not None else None
        if user is None or pair is None:
            return None
        x, y = pair
        words_x, words_y, method = (
            RENTALS.describe(db, x, rng),
            RENTALS.describe(db, y, rng),
            card(user, rng),
        )
        if words_x is None or words_y is None or method is None:
            return None
        refund, fee = cancellation_refund(x)
        extra = rng.randint(1, 3)
        end = (iso_day(y.return_date) + dt.timedelta(days=extra)).isoformat()
        if refund <= 0 or not extension_fits(db, y, y.vehicle_class, y.return_date, end):
            return None
        days = y.days + extra
        cdw = money(ADD_ONS["collision_damage_waiver"] * days)
        limit = money(5 * round(cdw * rng.choice((0.7, 0.85, 1.15, 1.3)) / 5))
        coverage = "collision_damage_waiver" if cdw <= limit else "liability_protection"
        who = self.owner(db, x, rng)
        cancel = RENTALS.cancel(x, refund, (net_paid(x), x.daily_rate) if fee else None)
        waiver = _insured(y, "collision_damage_waiver", days, method)[0]
        cover = [*([waiver] if cdw > limit else []), *_insured(y, coverage, days, method)]
        ext_cost = money(daily_cost(y.daily_rate, y.add_ons, y.young_driver_surcharge) * extra)
        both = f"cancel {words_x}; extend {words_y}"
        city_x = record(db, "locations", x.pickup_location).city
        city_y = record(db, "locations", y.pickup_location).city
        return self.task(
            domain,
            who,
            goal=f"I want to cancel {words_x}, and keep {words_y} {counted(extra, 'more day')}"
            f", until "
            f"{day_text(end)}, with the collision damage waiver for the whole rental. If the "
            f"waiver costs more than {money_text(limit)} in all, I take liability protection "
            f"instead. Charges go on {method_text(method)}. I do not know the booking codes. I "
            f"want to know the refund and each cost. {CONFIRM}",
            opening=rng.choice(_MULTI_OPENINGS).format(a=city_x, b=city_y),
            known={
                "rentals": both,
                "new_return_date": end,
                "coverage": f"the collision damage waiver, or liability protection if the "
                f"waiver costs more than {money_text(limit)}",
                "payment_method": method_text(method),
            },
            actions=[
                *RENTALS.reads(db, who, x, y, words=both),
                *cancel,
                *extend_actions(y, end, method, y.daily_rate),
                *cover,
            ],
            outputs=[
                money_text(refund),
                money_text(ext_cost),
                money_text(ADD_ONS[coverage] * days),
            ],
            summary=f"cancel {x.booking_id} ({money_text(refund)} back), extend {y.booking_id} "
            f"to {end}, {coverage} (waiver {money_text(cdw)} vs limit {money_text(limit)})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The condition ignored (the other cover), and the refund of the other window side."""
        paths = [*super().mistakes(domain, task)]
        cover = task.actions[-1]
        other = _OTHER_COVER[cover.arguments["coverage"]]
        paths.append(swapped(task, cover, replaced(cover, coverage=other)))
        cancel = next(a for a in task.actions if a.name == "cancel_booking")
        x: Booking = record(domain.new_database(), "bookings", cancel.arguments["booking_id"])
        refund, fee = cancellation_refund(x)
        wrong = net_paid(x) if fee else money(refund - x.daily_rate)
        if wrong > 0:
            paths.append(swapped(task, cancel, replaced(cancel, refund_amount=wrong)))
        return paths
