"""Car-rental task intents: templates that sample the base database and produce grounded tasks."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

import msgspec

from tau_sim.domains.car_rental.data import (
    ACTIVE,
    LAST_DAY,
    LOCATIONS,
    NOW,
    RESERVED,
    RETURNED,
    TODAY,
    Availability,
    Booking,
    DamageReport,
    Driver,
    Location,
    User,
    availability_key,
    net_paid,
    rental_days,
)
from tau_sim.domains.car_rental.rules import (
    ADD_ONS,
    CLASSES,
    DAMAGE_LIMIT,
    FREE_CANCELLATION_HOURS,
    LATE_FEE_PER_HOUR,
    MIN_AGE,
    PICKUP_TIME,
    PREMIUM_CLASSES,
    PREMIUM_MIN_AGE,
    YOUNG_DRIVER_AGE,
    YOUNG_DRIVER_SURCHARGE,
    daily_cost,
    late_fee,
    one_way_fee,
)
from tau_sim.domains.car_rental.scenario import (
    CONFIRM,
    UNKNOWN_IDS,
    add_ons_text,
    day_text,
    driver_text,
    gold_reads,
    rental_text,
)
from tau_sim.domains.kit.calc import age_on, iso_day
from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import pick, picker, record
from tau_sim.domains.kit.payments import (
    PaymentMethod,
    card_for,
    method_text,
    money,
    money_text,
)
from tau_sim.domains.kit.tasks import CustomerIntent, replaced, swapped
from tau_sim.domains.kit.vocab import FIRST_NAMES
from tau_sim.simulator.world import Action, Database, Domain, Intent, Task


def driver_age(booking: Booking) -> int:
    """The driver's age on the pick-up date."""
    return age_on(booking.driver.birth_date, iso_day(booking.pickup_date))


def hours_to_pickup(pickup_date: str) -> float:
    """Hours from the world's ``NOW`` to the pick-up time."""
    pickup = dt.datetime.combine(iso_day(pickup_date), PICKUP_TIME)
    return (pickup - NOW).total_seconds() / 3600


def free_every_day(db: Database, location: str, vehicle_class: str, days: list[str]) -> bool:
    """Whether a vehicle of the class is free at the branch on every one of ``days``."""
    for day in days:
        free: Availability | None = db.get(
            "availability", availability_key(location, vehicle_class, day)
        )
        if free is None or free.available < 1:
            return False
    return True


def location_text(location: Location) -> str:
    """A branch as a user names it: its code and name."""
    return f"{location.code} ({location.name})"


def code_of(text: str) -> str:
    """The branch code a ``location_text`` starts with."""
    return text.split()[0]


pick_booking = picker("bookings", Booking)


def changeable(booking: Booking) -> bool:
    """Whether a booking is reserved (pick-up today or later) or on the road."""
    return booking.status == ACTIVE or (
        booking.status == RESERVED and iso_day(booking.pickup_date) >= TODAY
    )


def booking_id_of(task: Task) -> str:
    """The booking a task is about (its known ``booking_id``)."""
    return task.scenario.known_info["booking_id"]


class RentalIntent(CustomerIntent):
    """A car-rental customer: email (60%) or name + zip; never knows payment method ids."""

    factors = ((EMAIL, 0.6), (NAME_ZIP, 0.4))
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The last write left out (the request half done)."""
        return self.last_write_left_out(domain, task)


def _expression(rate: float, add_ons: list[str] | tuple[str, ...], young: bool, days: int) -> str:
    parts = [f"{rate:.2f}", *(f"{ADD_ONS[a]:.2f}" for a in add_ons)]
    if young:
        parts.append(f"{YOUNG_DRIVER_SURCHARGE:.2f}")
    inner = " + ".join(parts)
    return f"({inner}) * {days}" if len(parts) > 1 else f"{inner} * {days}"


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
        expression = _expression(rate, add_ons, young, len(days))
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
        where = f"return it at {location_text(back)}" if back.code != code else "return it there"
        return self.task(
            domain,
            who,
            goal=f"I want to rent a {vehicle_class} car, picked up at {location_text(pickup)} on "
            f"{day_text(start.isoformat())} and returned on {day_text(end.isoformat())}; I "
            f"{where}. I am the driver (born {user.birth_date}, license "
            f"{user.license_number}). I want {add_ons_text(add_ons)}, paid with "
            f"{method_text(method)}. I want to know the total price. {CONFIRM}",
            opening=f"Hi, I'd like to rent a car in {city}.",
            known={
                "pickup_location": location_text(pickup),
                "return_location": location_text(back),
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


class _Extension:
    """A checked extension of a booking: the new return date, its days and cost."""

    def __init__(self, booking: Booking, extra: int) -> None:
        self.booking = booking
        self.old_end = iso_day(booking.return_date)
        self.end = self.old_end + dt.timedelta(days=extra)
        self.days = rental_days(self.old_end, self.end)
        per_day = daily_cost(booking.daily_rate, booking.add_ons, booking.young_driver_surcharge)
        self.cost = money(per_day * extra)
        self.expression = _expression(
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


def cancellation_refund(booking: Booking) -> tuple[float, bool]:
    """(refund due, whether the late-cancellation fee applies) of cancelling ``booking`` now."""
    paid = net_paid(booking)
    if hours_to_pickup(booking.pickup_date) >= FREE_CANCELLATION_HOURS:
        return paid, False
    return money(paid - booking.daily_rate), True


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


_DAMAGES: tuple[tuple[str, str, str], ...] = (
    ("scratch", "rear", "a long scratch on the rear bumper"),
    ("scratch", "left_side", "a scratch along the driver's door"),
    ("dent", "right_side", "a small dent in the passenger door"),
    ("dent", "front", "a dent in the hood"),
    ("chipped_windshield", "windshield", "a chip in the windshield"),
    ("broken_mirror", "left_side", "the left side mirror is cracked"),
    ("interior_stain", "interior", "a coffee stain on the back seat"),
    ("flat_tire", "front", "a flat front tire"),
)
_CAUSES: tuple[str, ...] = (
    "a concrete pillar in a parking garage",
    "gravel thrown up on the highway",
    "someone opened a door into it in a parking lot",
    "I found it after parking on the street overnight",
    "a pothole on a country road",
    "a shopping cart rolled into it",
)


def _words(name: str) -> str:
    return name.replace("_", " ")


class _Damage:
    """Damage a user reports: type, area, description, cause, photos, estimate."""

    def __init__(self, rng: random.Random, low: int, high: int) -> None:
        self.damage_type, self.area, self.text = rng.choice(_DAMAGES)
        self.cause = rng.choice(_CAUSES)
        self.photos = [f"IMG_{rng.randint(1000, 9999)}.jpg" for _ in range(rng.randint(1, 3))]
        self.estimate = money(rng.randrange(low, high, 10))

    def known(self) -> dict[str, str]:
        """The user's known facts about it."""
        return {
            "damage": f"{self.text} ({_words(self.damage_type)}, {_words(self.area)})",
            "cause": self.cause,
            "photos": " and ".join(self.photos),
            "estimate": money_text(self.estimate),
        }

    def report(self, booking: Booking, charge: float) -> Action:
        """The damage report write."""
        return Action(
            "file_damage_report",
            {
                "booking_id": booking.booking_id,
                "damage_type": self.damage_type,
                "area": self.area,
                "photos": self.photos,
                "notes": self.cause,
                "estimated_cost": self.estimate,
                "customer_charge": charge,
            },
        )


def _reportable(b: Booking) -> bool:
    recent = TODAY - dt.timedelta(days=3)
    return b.status == ACTIVE or (b.status == RETURNED and iso_day(b.return_date) >= recent)


def covered(booking: Booking) -> bool:
    """Whether the booking carries the collision damage waiver."""
    return "collision_damage_waiver" in booking.add_ons


class ReportMinorDamage(RentalIntent):
    """Report damage up to $500: filed with the photos; $0 with the waiver, else the estimate."""

    name = "report_minor_damage"
    description = "The user reports minor damage with photos; the charge depends on the waiver."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        b = pick_booking(db, rng, _reportable)
        if b is None:
            return None
        damage = _Damage(rng, 80, int(DAMAGE_LIMIT) + 1)
        charge = 0.0 if covered(b) else damage.estimate
        who = self.owner(db, b, rng)
        return self.task(
            domain,
            who,
            goal=f"I need to report damage on {rental_text(b)} (booking {b.booking_id}): "
            f"{damage.text}, from {damage.cause}. I have photos ({', '.join(damage.photos)}) and "
            f"the branch estimated the repair at {money_text(damage.estimate)}. I want to know "
            f"how much I will be charged. {CONFIRM}",
            opening=f"Hi, I need to report some damage on my rental {b.booking_id}.",
            known={"booking_id": b.booking_id, **damage.known()},
            actions=[*gold_reads(who, b.booking_id), damage.report(b, charge)],
            outputs=[money_text(charge)],
            summary=f"damage on {b.booking_id}, {money_text(damage.estimate)}, "
            f"{'waiver: $0' if covered(b) else 'no waiver: charged'}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The charge the wrong way round: billed despite the waiver, or waived without it."""
        write = task.actions[-1]
        estimate = write.arguments["estimated_cost"]
        wrong = 0.0 if write.arguments["customer_charge"] else estimate
        return [
            *super().mistakes(domain, task),
            swapped(task, write, replaced(write, customer_charge=wrong)),
        ]


class LargeDamageTransfer(RentalIntent):
    """Damage estimated above $500: the agent files nothing and transfers to a human."""

    name = "large_damage_transfer"
    description = "The user reports damage estimated above $500: transfer to a human."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        b = pick_booking(db, rng, _reportable)
        if b is None:
            return None
        damage = _Damage(rng, int(DAMAGE_LIMIT) + 60, 3200)
        who = self.owner(db, b, rng)
        summary = (
            f"User {b.user_id} reports damage on booking {b.booking_id}: {damage.text}, "
            f"estimated at {money_text(damage.estimate)} (above the $500 limit)."
        )
        return self.task(
            domain,
            who,
            goal=f"I need to report damage on {rental_text(b)} (booking {b.booking_id}): "
            f"{damage.text}, from {damage.cause}. I have photos ({', '.join(damage.photos)}) and "
            f"the branch estimated the repair at {money_text(damage.estimate)}. I want it "
            "handled today; if the agent says a specialist must take it, I accept the transfer.",
            opening=f"Hello, there is damage on my rental car {b.booking_id} and I need to "
            "report it.",
            known={"booking_id": b.booking_id, **damage.known()},
            actions=[
                *gold_reads(who, b.booking_id),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"damage on {b.booking_id} estimated {money_text(damage.estimate)}: transfer",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The report filed anyway, charged by the waiver rule."""
        *reads, _transfer = task.actions
        known = task.scenario.known_info
        b: Booking = record(domain.new_database(), "bookings", booking_id_of(task))
        estimate = float(known["estimate"].lstrip("$").replace(",", ""))
        damage_type, area = known["damage"].rsplit("(", 1)[1].rstrip(")").split(", ")
        write = Action(
            "file_damage_report",
            {
                "booking_id": b.booking_id,
                "damage_type": damage_type.replace(" ", "_"),
                "area": area.replace(" ", "_"),
                "photos": known["photos"].split(" and "),
                "notes": known["cause"],
                "estimated_cost": estimate,
                "customer_charge": 0.0 if covered(b) else estimate,
            },
        )
        return [[*reads, write]]


class DamageDisputeTransfer(RentalIntent):
    """The user disputes a damage charge on a returned rental: transfer, waive nothing."""

    name = "damage_dispute_transfer"
    description = "The user disputes a recorded damage charge: transfer to a human."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def charged(b: Booking) -> bool:
            return any(
                record(db, "damage_reports", r).customer_charge > 0 for r in b.damage_reports
            )

        b = pick_booking(db, rng, charged)
        if b is None:
            return None
        report: DamageReport = next(
            r
            for rid in b.damage_reports
            if (r := record(db, "damage_reports", rid)).customer_charge > 0
        )
        who = self.owner(db, b, rng)
        what = report.damage_type.replace("_", " ")
        summary = (
            f"User {b.user_id} disputes damage report {report.report_id} on booking "
            f"{b.booking_id}: {what}, charged {money_text(report.customer_charge)}."
        )
        return self.task(
            domain,
            who,
            goal=f"After I returned {rental_text(b)} (booking {b.booking_id}) I was charged "
            f"{money_text(report.customer_charge)} for a {what} (damage report "
            f"{report.report_id}). The damage was already there when I picked the car up; I "
            "want the charge removed. If the agent says a specialist handles disputes, I "
            "accept the transfer.",
            opening=f"I was charged for damage I did not cause on rental {b.booking_id}!",
            known={"booking_id": b.booking_id, "disputed_report": report.report_id},
            actions=[
                *gold_reads(who, b.booking_id),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"dispute of {report.report_id} ({money_text(report.customer_charge)}): "
            "transfer",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The charge waived by the agent."""
        *reads, _transfer = task.actions
        known = task.scenario.known_info
        waive = Action(
            "waive_damage_charge",
            {"booking_id": known["booking_id"], "report_id": known["disputed_report"]},
        )
        return [[*reads, waive]]


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
        return self.task(
            domain,
            who,
            goal=f"I want to upgrade booking {b.booking_id} ({rental_text(b)}) to a {target}. "
            f"The difference goes on {method_text(method)}. I want to know how much more it "
            f"costs. {CONFIRM}",
            opening=f"Hi, I'd like a bigger car for my booking {b.booking_id}.",
            known={
                "booking_id": b.booking_id,
                "new_class": target,
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, b.booking_id),
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
        age = driver_age(b)
        return self.task(
            domain,
            who,
            goal=f"I want to upgrade booking {b.booking_id} ({rental_text(b)}) to a {target} "
            f"car, paid with {method_text(method)}. The driver, {b.driver.first_name}, will be "
            f"{age} at pick-up. If the agent explains the rule, I accept it and keep the "
            "booking as it is.",
            opening=f"Hi, I want to treat myself to a {target} car on booking {b.booking_id}.",
            known={
                "booking_id": b.booking_id,
                "new_class": target,
                "payment_method": method_text(method),
            },
            actions=gold_reads(who, b.booking_id),
            outputs=[f"at least {PREMIUM_MIN_AGE}"],
            summary=f"{target} for a driver of {age} on {b.booking_id}: refuse",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The premium class booked anyway."""
        known = task.scenario.known_info
        b: Booking = record(domain.new_database(), "bookings", known["booking_id"])
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
        return [[*task.actions, write]]


class Under21Refused(RentalIntent):
    """A booking for a driver under 21: refuse, book nothing."""

    name = "under_21_refused"
    description = "The user wants to book a car for a driver under 21: refuse."
    forbidden = True

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
            "the age rule, I accept it and book nothing.",
            opening=f"Hi, I'd like to book a car for my {relation}.",
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

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The booking made anyway, with the young-driver surcharge."""
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
        return [[*task.actions, write]]


INTENTS: list[Intent] = [
    BookCar(),
    ExtendRental(),
    ExtendAndAddInsurance(),
    CancelBooking(),
    ChangeReturnLocation(),
    LateReturn(),
    ReportMinorDamage(),
    UpgradeClass(),
    PremiumUnder25Refused(),
    Under21Refused(),
    LargeDamageTransfer(),
    DamageDisputeTransfer(),
]
