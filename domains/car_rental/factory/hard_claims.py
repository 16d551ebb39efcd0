"""Hard car-rental intents whose users claim what the records disprove.

The user describes a booking among several and claims a fact about it that its record
contradicts: a driver "already 25", a collision damage waiver that is not on the booking, a
pick-up "days away" that is tomorrow. The agent reads the record, states the fact and refuses
what the claim was meant to win; one of them makes three allowed changes beside the refusal.
"""

from __future__ import annotations

import datetime as dt
import random

from tau_sim.domains.car_rental.data import (
    RESERVED,
    RETURNED,
    TODAY,
    Booking,
    DamageReport,
    User,
    net_paid,
)
from tau_sim.domains.car_rental.factory.common import (
    COVER_TEXT,
    HARD,
    LIST_LOCATIONS,
    RENTALS,
    RentalIntent,
    a_or_an,
    branch_words,
    driver_age,
    extend_actions,
    extension_fits,
    fee_actions,
    free_every_day,
    hours_to_pickup,
    missing_cover,
    one_way_change,
)
from tau_sim.domains.car_rental.rules import (
    ADD_ONS,
    FREE_CANCELLATION_HOURS,
    PREMIUM_CLASSES,
    PREMIUM_MIN_AGE,
    daily_cost,
)
from tau_sim.domains.car_rental.scenario import day_text
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.factory import claims
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.factory.search import card
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.domains.kit.vocab import counted
from tau_sim.simulator.world import Action, Database, Domain, Task

_YOUNG_OPENINGS = (
    "Hi, I have a few things to change on my {city} rental, including a nicer car.",
    "Hello, for my trip to {city} I want more days, insurance and a premium car.",
    "Hey, can you update my car booking for {city}? Several changes.",
    "Hi there, my {city} rental needs a longer return date and an upgrade.",
)


class YoungDriverPremiumClaim(Refuses, RentalIntent):
    """Extend, insure and move the return of a booking; no premium upgrade for a young driver.

    The user claims the driver is 25 already; the birth date on the booking says not.
    """

    name = "young_driver_premium_claim"
    tier = HARD
    own_mistakes = "before"
    challenges = frozenset({"search", "mixed", "disproven", "long"})
    rules = ("premium-min-age-25",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(b: Booking) -> bool:
            return (
                b.status == RESERVED
                and iso_day(b.pickup_date) >= TODAY
                and 21 <= driver_age(b) < PREMIUM_MIN_AGE
                and missing_cover(b) is not None
            )

        found = RENTALS.described(db, rng, fits)
        if found is None:
            return None
        b, words = found
        user: User = record(db, "users", b.user_id)
        method, change = card(user, rng), one_way_change(db, b, rng)
        if method is None or change is None:
            return None
        branch, difference = change
        extra = rng.randint(1, 3)
        end = (iso_day(b.return_date) + dt.timedelta(days=extra)).isoformat()
        days = [
            (iso_day(b.pickup_date) + dt.timedelta(days=n)).isoformat()
            for n in range(b.days + extra)
        ]
        premium = [c for c in PREMIUM_CLASSES if free_every_day(db, b.pickup_location, c, days)]
        if not premium or not extension_fits(db, b, b.vehicle_class, b.return_date, end):
            return None
        target = rng.choice(premium)
        by_name = rng.random() < 0.5
        there = branch_words(branch, by_name)
        named = [LIST_LOCATIONS] if by_name and not RENTALS.by_city(words, b) else []
        coverage = missing_cover(b)
        assert coverage is not None
        who = self.owner(db, b, rng)
        total = b.days + extra
        ext_cost = money(daily_cost(b.daily_rate, b.add_ons, b.young_driver_surcharge) * extra)
        cover_cost = money(ADD_ONS[coverage] * total)
        self_driving = b.driver.first_name == user.name.first_name
        claim = "I am 25 already" if self_driving else f"{b.driver.first_name} is 25 already"
        city = record(db, "locations", b.pickup_location).city
        task = self.task(
            domain,
            who,
            goal=f"For {words} I want four things: keep it {counted(extra, 'more day')}, until "
            f"{day_text(end)}; add {COVER_TEXT[coverage]} for the whole rental; return it at "
            f"{there}; and upgrade it to a {target}. The driver is "
            f"{'me' if self_driving else b.driver.first_name}; {claim}, so the premium class "
            f"is fine. Everything goes on {method_text(method)}. I do not know the booking "
            f"code. If the agent shows the driver is under 25, I accept it in the end and keep "
            f"the other changes. {CONFIRM}",
            demand=f"the booking upgraded to a {target} car",
            opening=rng.choice(_YOUNG_OPENINGS).format(city=city),
            known={
                "rental": words,
                "new_return_date": end,
                "coverage": COVER_TEXT[coverage],
                "new_return_location": there,
                "new_class": target,
                "payment_method": method_text(method),
            },
            actions=[
                *RENTALS.reads(db, who, b, words=words),
                *extend_actions(b, end, method, b.daily_rate),
                Action("calculate", {"expression": f"{ADD_ONS[coverage]:.2f} * {total}"}),
                Action(
                    "add_insurance",
                    {
                        "booking_id": b.booking_id,
                        "coverage": coverage,
                        "payment_method_id": method.id,
                    },
                ),
                *named,
                *fee_actions(b, branch, method),
            ],
            outputs=[
                "not eligible",
                f"at least {PREMIUM_MIN_AGE}",
                b.driver.birth_date,
                money_text(ext_cost),
                money_text(cover_cost),
                money_text(abs(difference)),
            ],
            summary=f"{b.booking_id} (described, driver {driver_age(b)}): +{counted(extra, 'day')}"
            f", "
            f"{coverage}, return at {branch.code}; {target} refused",
        )
        upgrade = Action(
            "change_vehicle_class",
            {"booking_id": b.booking_id, "vehicle_class": target, "payment_method_id": method.id},
        )
        return refusing(task, upgrade)  # the premium class given to the driver under 25


_WAIVER_OPENINGS = (
    "Hi, I was billed for damage on a car I rented from you and I had full cover!",
    "Hello, there's a damage charge from my {city} rental that shouldn't be there.",
    "I want a damage charge taken off. I paid for the waiver on that rental.",
    "Hi, why was I charged for {what}? I had the damage waiver.",
)


class WaiverClaimDisproven(claims.DisprovenClaim, RentalIntent):
    """A damage charge disputed for a waiver the booking does not carry: the charge stands.

    Nothing is waived and nobody is transferred: the booking's add-ons disprove the claim.
    """

    name = "waiver_claim_disproven"
    challenges = frozenset({"search", "disproven"})
    rules = ("waiver-claim-checked",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def charged(b: Booking) -> bool:
            return (
                b.status == RETURNED
                and "collision_damage_waiver" not in b.add_ons
                and any(
                    record(db, "damage_reports", r).customer_charge > 0 for r in b.damage_reports
                )
            )

        found = RENTALS.described(db, rng, charged)
        if found is None:
            return None
        b, words = found
        report: DamageReport = next(
            r
            for rid in b.damage_reports
            if (r := record(db, "damage_reports", rid)).customer_charge > 0
        )
        what = a_or_an(report.damage_type.replace("_", " "))
        who = self.owner(db, b, rng)
        city = record(db, "locations", b.pickup_location).city
        charge = money_text(report.customer_charge)
        task = self.task(
            domain,
            who,
            goal=f"After I returned {words} I was charged {charge} for {what}. I had the "
            "collision damage waiver on that rental, so the charge must be removed. I do not "
            "know the booking code or the report number. If the agent shows the booking has no "
            "waiver, I accept it in the end.",
            demand=f"the {charge} damage charge removed",
            opening=rng.choice(_WAIVER_OPENINGS).format(city=city, what=what),
            known={"rental": words, "damage_charge": f"{charge} for {what}"},
            actions=RENTALS.reads(db, who, b, words=words),
            outputs=["no collision damage waiver", charge],
            summary=f"waiver claimed on {b.booking_id} (none on file): {charge} for "
            f"{report.report_id} stands",
        )
        # the charge waived on the user's word
        waive = {"booking_id": b.booking_id, "report_id": report.report_id}
        return refusing(task, Action("waive_damage_charge", waive))


_LATE_OPENINGS = (
    "Hi, I need to cancel a car booking. It's still days away, so I get everything back, right?",
    "Hello, please cancel my {city} rental; the pick-up isn't for a while yet.",
    "Hey, I'd like to cancel one of my reservations, the one in {city}, with a full refund.",
    "Hi, can I cancel my upcoming rental in {city} for free? It's a few days out.",
)


class LateCancellationClaim(claims.LateCancellation[Booking], RentalIntent):
    """A full refund asked for a pick-up "days away" that is within 48 hours: nothing cancelled.

    The user keeps the booking rather than lose a day's rate.
    """

    rules = ("late-cancellation-fee",)
    records = RENTALS
    openings = _LATE_OPENINGS
    said_days = (3, 5)
    start_noun, kept_noun, known_key = "pick-up", "booking", "rental"

    def late(self, b: Booking) -> bool:
        """A reserved booking whose pick-up is less than 48 hours away."""
        return (
            b.status == RESERVED
            and iso_day(b.pickup_date) >= TODAY
            and hours_to_pickup(b.pickup_date) < FREE_CANCELLATION_HOURS
        )

    def twin(self, b: Booking, other: Booking) -> bool:
        """Another booking of the same class at the same branch."""
        return (other.vehicle_class, other.pickup_location) == (b.vehicle_class, b.pickup_location)

    def terms(self, b: Booking) -> claims.Terms:
        """The pick-up day, what was paid, a day's rate kept."""
        return claims.Terms(b.pickup_date, net_paid(b), b.daily_rate, "within 48 hours")

    def words(self, db: Database, b: Booking, rng: random.Random) -> claims.Words:
        """The booking by its class and city (and, for the slot, its branch)."""
        city = record(db, "locations", b.pickup_location).city
        said = f"my {b.vehicle_class} rental in {city}"
        return claims.Words(
            f"my {b.vehicle_class} rental at {b.pickup_location} in {city}", said, {"city": city}
        )
