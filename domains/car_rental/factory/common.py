"""The car-rental intents' base class and the booking helpers they share."""

from __future__ import annotations

import datetime as dt
import random

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
    Location,
    User,
    availability_key,
    net_paid,
)
from tau_sim.domains.car_rental.rules import (
    ADD_ONS,
    FREE_CANCELLATION_HOURS,
    LATE_FEE_PER_HOUR,
    MAX_RENTAL_DAYS,
    PICKUP_TIME,
    YOUNG_DRIVER_SURCHARGE,
    one_way_fee,
)
from tau_sim.domains.car_rental.scenario import UNKNOWN_IDS, rental_text
from tau_sim.domains.kit.calc import age_on, iso_day
from tau_sim.domains.kit.factory.search import Shelf
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.lookup import picker, record
from tau_sim.domains.kit.payments import PaymentMethod, card_for, money
from tau_sim.domains.kit.tasks import CustomerIntent
from tau_sim.simulator.world import Action, Database, Domain, Task, Tier


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


def branch_words(location: Location, by_name: bool) -> str:
    """A branch as a user names it: code and name, or (``by_name``) its name only."""
    return f"the {location.name} branch" if by_name else location_text(location)


LIST_LOCATIONS = Action("list_locations", {})
"""The read that finds a branch's code when the user names the branch only."""


pick_booking = picker("bookings", Booking)


def booking_id_of(task: Task) -> str:
    """The booking a task is about (the first booking its gold path reads)."""
    return next(
        str(a.arguments["booking_id"]) for a in task.actions if a.name == "get_booking_details"
    )


class BookingRef:
    """How a base task's user names its booking: by its code, or by class, branch and dates.

    Without the code the agent lists the user's bookings and picks the one described.
    """

    def __init__(self, db: Database, b: Booking, who: Identity, rng: random.Random) -> None:
        self.knows = rng.random() < 0.6
        self.text = f" (booking {b.booking_id})" if self.knows else ""
        self.words = f"my rental {b.booking_id}" if self.knows else "my rental"
        self.known = {"booking_id": b.booking_id} if self.knows else {"rental": rental_text(b)}
        read = Action("get_booking_details", {"booking_id": b.booking_id})
        self.reads = [*who.actions, read] if self.knows else RENTALS.search(who, b)

    def opening(self, rng: random.Random, templates: tuple[str, ...], **words: str) -> str:
        """One of ``templates`` with ``{ref}`` the booking as the user names it."""
        return rng.choice(templates).format(ref=self.words, **words)


def hours_to_pickup(pickup_date: str) -> float:
    """Hours from the world's ``NOW`` to the pick-up time."""
    pickup = dt.datetime.combine(iso_day(pickup_date), PICKUP_TIME)
    return (pickup - NOW).total_seconds() / 3600


def cancellation_refund(booking: Booking) -> tuple[float, bool]:
    """(refund due, whether the late-cancellation fee applies) of cancelling ``booking`` now."""
    paid = net_paid(booking)
    if hours_to_pickup(booking.pickup_date) >= FREE_CANCELLATION_HOURS:
        return paid, False
    return money(paid - booking.daily_rate), True


def driver_age(booking: Booking) -> int:
    """The driver's age on the pick-up date."""
    return age_on(booking.driver.birth_date, iso_day(booking.pickup_date))


class RentalIntent(CustomerIntent):
    """A car-rental customer: email (60%) or name + zip; never knows payment method ids."""

    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The last write left out (the request half done)."""
        return self.last_write_left_out(domain, task)

    def paid_ref(
        self, db: Database, b: Booking, amount: float, rng: random.Random
    ) -> tuple[PaymentMethod, Identity, BookingRef] | None:
        """A method of ``b``'s owner for ``amount`` (``card_for``), the owner, how they name ``b``.

        None when the owner has no method that can pay ``amount``.
        """
        user: User = record(db, "users", b.user_id)
        method = card_for(user, amount, rng)
        if method is None:
            return None
        who = self.owner(db, b, rng)
        return method, who, BookingRef(db, b, who, rng)


def cost_expression(
    rate: float, add_ons: list[str] | tuple[str, ...], young: bool, days: int
) -> str:
    """The ``calculate`` expression of a rental's cost: rate, add-ons and surcharge times days."""
    parts = [f"{rate:.2f}", *(f"{ADD_ONS[a]:.2f}" for a in add_ons)]
    if young:
        parts.append(f"{YOUNG_DRIVER_SURCHARGE:.2f}")
    inner = " + ".join(parts)
    return f"({inner}) * {days}" if len(parts) > 1 else f"{inner} * {days}"


# ---- the hard tier: users who describe their bookings instead of naming them ------------------

HARD: Tier = "hard"
"""The tier of the intents whose users describe records, mix requests or claim what is not so."""


def a_or_an(word: str) -> str:
    """``word`` with its indefinite article: "an economy", "a compact"."""
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def city_of(db: Database, code: str) -> str:
    """The city of the branch ``code``."""
    location: Location = record(db, "locations", code)
    return location.city


_DESCRIPTIONS = (
    "the {cls} for my {city} trip, picked up on {start}",
    "my {city} rental, the {cls} from {start} to {end}",
    "the {cls} I {get} at {code} on {start}",
    "the car from {code} for the trip starting {start} ({a_cls})",
)


def describe(db: Database, booking: Booking, rng: random.Random) -> str | None:
    """How the user names ``booking`` without its code, or None when it is not unique.

    The words hold its pick-up date (no other booking of the user starts that day in that
    city), its class and its city or branch, so the booking is told from the user's others.
    """
    city = city_of(db, booking.pickup_location)
    for other in RENTALS.of(db, booking.user_id):
        if other.booking_id == booking.booking_id:
            continue
        if other.pickup_date == booking.pickup_date:
            return None
    past = booking.status in (ACTIVE, RETURNED)
    return rng.choice(_DESCRIPTIONS).format(
        cls=booking.vehicle_class,
        a_cls=a_or_an(booking.vehicle_class),
        city=city,
        start=booking.pickup_date,
        end=booking.return_date,
        code=booking.pickup_location,
        get="picked up" if past else "pick up",
    )


RENTALS: Shelf[User, Booking] = Shelf(
    "bookings",
    True,
    place=lambda b: b.pickup_location,
    places=LIST_LOCATIONS,
    describe=describe,
)
"""A user's bookings, described by class, city (or branch code) and dates."""


def changeable_now(b: Booking) -> bool:
    """Whether ``b`` is on the road or reserved from today on."""
    return b.status == ACTIVE or (b.status == RESERVED and iso_day(b.pickup_date) >= TODAY)


def extension_fits(db: Database, b: Booking, vehicle_class: str, start: str, end: str) -> bool:
    """Whether ``vehicle_class`` is free from ``start`` to ``end`` and ``b`` stays bookable."""
    days = [
        (iso_day(start) + dt.timedelta(days=n)).isoformat()
        for n in range((iso_day(end) - iso_day(start)).days)
    ]
    total = (iso_day(end) - iso_day(b.pickup_date)).days
    return (
        total <= MAX_RENTAL_DAYS
        and iso_day(end) <= LAST_DAY
        and free_every_day(db, b.pickup_location, vehicle_class, days)
    )


def extend_actions(b: Booking, end: str, method: PaymentMethod, rate: float) -> list[Action]:
    """The availability search, the price and the extension of ``b`` to ``end`` at ``rate``."""
    extra = (iso_day(end) - iso_day(b.return_date)).days
    return [
        Action(
            "search_availability",
            {"location": b.pickup_location, "pickup_date": b.return_date, "return_date": end},
        ),
        Action(
            "calculate",
            {"expression": cost_expression(rate, b.add_ons, b.young_driver_surcharge, extra)},
        ),
        Action(
            "extend_booking",
            {"booking_id": b.booking_id, "new_return_date": end, "payment_method_id": method.id},
        ),
    ]


def one_way_change(db: Database, b: Booking, rng: random.Random) -> tuple[Location, float] | None:
    """Another return branch for ``b`` whose one-way fee differs, and the difference."""
    pickup: Location = record(db, "locations", b.pickup_location)
    codes = [c for c, *_ in LOCATIONS if c != b.return_location]
    new: Location = record(db, "locations", rng.choice(codes))
    difference = money(one_way_fee(pickup.city, pickup.code, new.city, new.code) - b.one_way_fee)
    return (new, difference) if difference else None


def fee_actions(b: Booking, new: Location, method: PaymentMethod) -> list[Action]:
    """The one-way fee read and the change of ``b``'s return branch to ``new``."""
    return [
        Action(
            "get_one_way_fee", {"pickup_location": b.pickup_location, "return_location": new.code}
        ),
        Action(
            "change_return_location",
            {
                "booking_id": b.booking_id,
                "return_location": new.code,
                "payment_method_id": method.id,
            },
        ),
    ]


def missing_cover(b: Booking) -> str | None:
    """The first insurance ``b`` does not carry yet, if any."""
    return next(
        (c for c in ("collision_damage_waiver", "liability_protection") if c not in b.add_ons), None
    )


COVER_TEXT = {
    "collision_damage_waiver": "the collision damage waiver",
    "liability_protection": "liability protection",
}


def late_return_actions(b: Booking, hours: int, due: float, method: PaymentMethod) -> list[Action]:
    """The late fee's ``calculate`` (hourly rate times ``hours``) and the late return recorded."""
    return [
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
    ]


def damage_report(
    b: Booking,
    damage: tuple[str, str, str],
    photos: list[str],
    estimate: float,
    charge: float,
) -> Action:
    """The damage report write on ``b``: ``damage`` is its type, area and cause."""
    damage_type, area, cause = damage
    return Action(
        "file_damage_report",
        {
            "booking_id": b.booking_id,
            "damage_type": damage_type,
            "area": area,
            "photos": photos,
            "cause": cause,
            "estimated_cost": estimate,
            "customer_charge": charge,
        },
    )
