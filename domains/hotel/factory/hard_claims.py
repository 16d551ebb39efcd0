"""Hard hotel intents whose guests claim what the records disprove.

A room "never cleaned" whose housekeeping log shows it cleaned every night, a check-in "days
away" that is within the free-cancellation window, a "silver" guest whose profile says blue:
the agent reads the record, states the fact and refuses what the claim was meant to win.
"""

from __future__ import annotations

import datetime as dt
import random

from tau_sim.domains.hotel.catalog import PROPERTIES, Property
from tau_sim.domains.hotel.data import (
    CHECKED_OUT,
    TODAY,
    Guest,
    Night,
    Reservation,
    net_paid,
    night_key,
    stay_dates,
)
from tau_sim.domains.hotel.factory.common import (
    HARD,
    STAYS,
    HotelIntent,
    cancellation_refund,
    flexible_ahead,
    search,
)
from tau_sim.domains.hotel.rules import (
    FLEXIBLE,
    MEMBER,
    ROOM_TYPES,
    goodwill_points,
    plan_price,
)
from tau_sim.domains.hotel.scenario import HOTEL_NAMES, ROOM_TEXT, dates_text
from tau_sim.domains.kit.factory import claims
from tau_sim.domains.kit.factory.chains import Chain, changed
from tau_sim.domains.kit.factory.refusals import Refuses, refusing
from tau_sim.domains.kit.factory.search import card
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, sum_action
from tau_sim.domains.kit.vocab import counted
from tau_sim.simulator.world import Action, Database, Domain, Task

_CLEANED_OPENINGS = (
    "Hi, my room was never cleaned during my last stay with you!",
    "Hello, I want compensation: nobody cleaned my room at {hotel}.",
    "Hey, housekeeping skipped my room the whole stay. What will you do about it?",
    "I'm disappointed: my room at {hotel} was not cleaned once.",
)


class NeverCleanedClaim(claims.DisprovenClaim, HotelIntent):
    """A "never cleaned" complaint on a stay whose housekeeping log shows every night cleaned."""

    name = "never_cleaned_claim"
    challenges = frozenset({"search", "disproven"})
    rules = ("goodwill-needs-incident",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(r: Reservation) -> bool:
            return (
                r.status == CHECKED_OUT
                and not r.incident
                and not r.goodwill_points
                and len(r.housekeeping) == len(r.nights)
            )

        found = STAYS.described(db, rng, fits)
        if found is None:
            return None
        r, words = found
        who = self.owner(db, r, rng)
        _, due = goodwill_points(len(r.nights))
        task = self.task(
            domain,
            who,
            goal=f"About {words}: the room was never cleaned, not once. I want the goodwill "
            "points the hotel gives for a bad stay. I do not know the reservation code. If the "
            "agent shows the hotel's record says the room was cleaned, I accept it in the end.",
            demand="goodwill points for the room that was never cleaned",
            opening=rng.choice(_CLEANED_OPENINGS).format(hotel=HOTEL_NAMES[r.property_id]),
            known={"stay": words, "complaint": "the room was never cleaned"},
            actions=STAYS.reads(db, who, r, words=words),
            outputs=["cleaned every night"],
            summary=f"'never cleaned' on {r.reservation_id}: housekeeping log has all "
            f"{counted(len(r.nights), 'night')}; no goodwill ({due:,} refused)",
        )
        # goodwill points credited for the incident the record disproves
        args = {"reservation_id": r.reservation_id, "points": due}
        return refusing(task, Action("credit_goodwill_points", args))


_LATE_OPENINGS = (
    "Hi, I'd like to cancel my stay at {hotel}; it's still days away, so it's free, right?",
    "Hello, please cancel my {city} reservation with a full refund.",
    "Hey, I can't make my trip to {city}. Cancel it, I'm within the free window.",
    "Hi, cancel my hotel in {city} please. The check-in isn't for a while.",
)


class LateCancellationClaim(claims.LateCancellation[Reservation], HotelIntent):
    """A full refund asked for a check-in "days away" that is inside the window: nothing cancelled.

    The guest keeps the stay rather than lose the first night's price.
    """

    rules = ("late-cancellation-first-night",)
    records = STAYS
    openings = _LATE_OPENINGS
    said_days = (3, 6)
    start_noun, kept_noun, known_key = "check-in", "stay", "stay"

    def late(self, r: Reservation) -> bool:
        """A flexible stay of two nights or more whose cancellation now costs the first night."""
        return flexible_ahead(r) and len(r.nights) >= 2 and cancellation_refund(r)[1]

    def twin(self, r: Reservation, other: Reservation) -> bool:
        """Another stay at the same hotel."""
        return other.property_id == r.property_id

    def terms(self, r: Reservation) -> claims.Terms:
        """The stay's check-in, what was paid, the first night's price kept."""
        window = f"inside the {r.rate_plan} window"
        return claims.Terms(r.check_in, net_paid(r), r.nights[0].price, window)

    def words(self, db: Database, r: Reservation, rng: random.Random) -> claims.Words:
        """The stay by its hotel's name or its city."""
        prop: Property = record(db, "properties", r.property_id)
        words = f"my stay at {prop.name}" if rng.random() < 0.5 else f"my stay in {prop.city}"
        return claims.Words(words, words, {"hotel": prop.name, "city": prop.city.split(",")[0]})


_TIER_OPENINGS = (
    "Hi, I'm a silver member and I'd like to book {hotel} at the member rate.",
    "Hello, I want a room in {city} with my member discount.",
    "Hey, book me a stay at {hotel} please, member rate since I'm silver.",
    "Good afternoon, I need a room at {hotel}; I get the member price, I'm silver.",
)


class BlueMemberRateClaim(Chain, Refuses, HotelIntent):
    """A blue guest who says they are silver asks for the member rate: the flexible rate instead."""

    name = "blue_member_rate_claim"
    tier = HARD
    challenges = frozenset({"mixed", "disproven", "conditional"})
    rules = ("member-rate-tiers",)
    own_mistakes = "none"
    slips = (changed("book_reservation", lambda a: replaced(a, rate_plan=MEMBER), nth=-1),)
    """After the member rate booked as well: the member rate booked instead."""

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        guest: Guest | None = pick(db, rng, "users", lambda u: u.tier == "blue")
        method = card(guest, rng) if guest is not None else None
        if guest is None or method is None:
            return None
        prop = rng.choice(PROPERTIES)
        room = rng.choice(ROOM_TYPES[:2])
        check_in = TODAY + dt.timedelta(days=rng.randint(3, 25))
        check_out = check_in + dt.timedelta(days=rng.choice((1, 1, 2, 3, 4)))
        dates = stay_dates(check_in.isoformat(), check_out.isoformat())
        nights: list[Night] = []
        for d in dates:
            night: Night | None = db.get("nights", night_key(prop.property_id, room, d))
            if night is None or night.rooms_left < 2:
                return None
            nights.append(night)
        prices = [plan_price(n.rate, FLEXIBLE) for n in nights]
        total = money(sum(prices))
        guests = rng.randint(1, 2)
        who = self.identity(db, guest.user_id, rng)
        span = {"check_in": check_in.isoformat(), "check_out": check_out.isoformat()}
        book = Action(
            "book_reservation",
            {
                "user_id": guest.user_id,
                "property_id": prop.property_id,
                "room_type": room,
                **span,
                "rate_plan": FLEXIBLE,
                "guests": guests,
                "payment_method_id": method.id,
                "special_requests": [],
            },
        )
        stay = dates_text(check_in.isoformat(), check_out.isoformat())
        asks_time = rng.random() < 0.5
        details = [Action("get_property_details", {"property_id": prop.property_id})]
        task = self.task(
            domain,
            who,
            goal=f"I want a {ROOM_TEXT[room]} at {prop.name} in {prop.city} for "
            f"{counted(guests, 'guest')}"
            f", {stay}, paid with {method_text(method)}, on the member rate: I am a "
            "silver member. If the agent says I cannot have the member rate, book it on the "
            f"flexible rate instead. I want to know the total"
            f"{' and from what time I can check in' if asks_time else ''}. {CONFIRM}",
            demand="the member rate",
            opening=rng.choice(_TIER_OPENINGS).format(
                hotel=prop.name, city=prop.city.split(",")[0]
            ),
            known={
                "hotel": f"{prop.name} in {prop.city}",
                "stay_dates": stay,
                "room_type": ROOM_TEXT[room],
                "rate_plan": "the member rate, or the flexible rate if I cannot have it",
                "guests": f"{counted(guests, 'guest')}",
                "claimed_tier": "silver",
                "payment_method": method_text(method),
            },
            actions=[
                *who.actions,
                Action("list_properties", {}),
                *(details if asks_time else []),
                search(prop.property_id, room, **span),
                *sum_action(prices),
                book,
            ],
            outputs=[
                money_text(total),
                "not eligible",
                *([prop.check_in_time] if asks_time else []),
            ],
            summary=f"{guest.user_id} (blue, says silver): member rate refused, {room} at "
            f"{prop.property_id} {check_in}..{check_out} flexible {money_text(total)}",
        )
        return refusing(task, replaced(book, rate_plan=MEMBER))  # the member rate booked too
