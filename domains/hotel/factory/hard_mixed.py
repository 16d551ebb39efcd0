"""Hard hotel intents that mix allowed requests with one the policy refuses.

The agent makes the allowed writes and refuses the other part, saying why: a non-refundable
stay is upgraded and given requests but keeps its dates, points pay a night of a flexible stay
but not of a non-refundable one, and a friend's reservation is not the guest's to cancel.
"""

from __future__ import annotations

import datetime as dt
import random

import msgspec

from tau_sim.domains.hotel.data import Reservation, net_paid
from tau_sim.domains.hotel.factory.bookings import request_writes
from tau_sim.domains.hotel.factory.common import (
    STAYS,
    HotelIntent,
    RoomUpgrade,
    cancellation_refund,
    movable,
    new_dates,
    open_nights,
    refund_on_cancel,
    upcoming,
)
from tau_sim.domains.hotel.rules import (
    NON_REFUNDABLE,
    POINTS_PER_NIGHT,
    ROOM_TYPES,
    SPECIAL_REQUESTS,
)
from tau_sim.domains.hotel.scenario import (
    HOTEL_NAMES,
    REQUEST_TEXT,
    ROOM_TEXT,
    dates_text,
    points_text,
)
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.factory.mixed import (
    Cancelling,
    CancelOwnAndOthers,
    Mixed,
)
from tau_sim.domains.kit.factory.refusals import refusing
from tau_sim.domains.kit.factory.search import card
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM
from tau_sim.simulator.world import Action, Database, Domain, Task


def _non_refundable(r: Reservation) -> bool:
    return upcoming(r) and r.rate_plan == NON_REFUNDABLE


_KEEP_OPENINGS = (
    "Hi, I want to change a few things on my stay at {hotel}, the dates too.",
    "Hello, for my {city} trip I need a bigger room, some requests and new dates.",
    "Hey, can you rework my hotel booking in {city}? Several changes.",
    "Good afternoon, my reservation at {hotel} needs new dates and a better room.",
)


class NonRefundableKeepsDates(Mixed, HotelIntent):
    """Upgrade a described non-refundable stay and add two requests; its dates cannot move."""

    name = "non_refundable_keeps_dates"
    challenges = frozenset({"search", "mixed", "long"})
    rules = ("non-refundable-no-date-change",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(r: Reservation) -> bool:
            return _non_refundable(r) and r.room_type != "suite" and not r.complimentary_upgrade

        found = STAYS.pick(db, rng, fits)
        if found is None:
            return None
        guest, r = found
        words, method = STAYS.describe(db, r, rng), card(guest, rng)
        target = ROOM_TYPES[ROOM_TYPES.index(r.room_type) + 1]
        nights = open_nights(db, r.property_id, target, [n.date for n in r.nights])
        shift = dt.timedelta(days=rng.choice((1, 2, -1)))
        start, end = iso_day(r.check_in) + shift, iso_day(r.check_out) + shift
        if words is None or method is None or nights is None:
            return None
        wanted = [q for q in SPECIAL_REQUESTS if q not in r.special_requests]
        first, second = rng.sample(wanted, 2)
        upgrade = RoomUpgrade.of(guest, r, target, method, nights)
        upgraded = msgspec.structs.replace(r, room_type=target)
        if new_dates(db, upgraded, start, end) is None:
            return None
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        hotel = record(db, "properties", r.property_id)
        moved = dates_text(start.isoformat(), end.isoformat())
        actions = [
            *STAYS.reads(db, who, r, words=words),
            *upgrade.quote(),
            upgrade.write(),
            *request_writes(rid, first, second),
        ]
        task = self.task(
            domain,
            who,
            goal=f"For {words} I want four things: move it to {moved}; upgrade the room to a "
            f"{ROOM_TEXT[target]} (any cost on {method_text(method)}); and I need "
            f"{REQUEST_TEXT[first]} and {REQUEST_TEXT[second]}. I do not know the reservation "
            "code. If the agent says the dates cannot be changed, I accept it in the end and "
            f"keep the other changes. {CONFIRM}",
            demand=f"the stay moved to {moved}",
            opening=rng.choice(_KEEP_OPENINGS).format(
                hotel=hotel.name, city=hotel.city.split(",")[0]
            ),
            known={
                "stay": words,
                "new_dates": moved,
                "new_room_type": ROOM_TEXT[target],
                "special_request": f"{REQUEST_TEXT[first]} and {REQUEST_TEXT[second]}",
                "payment_method": method_text(method),
            },
            actions=actions,
            outputs=[
                "cannot be changed",
                "complimentary" if upgrade.free else money_text(upgrade.difference),
            ],
            summary=f"non-refundable {rid} (described): {r.room_type}->{target}, {first}, "
            f"{second}; move to {start}..{end} refused",
        )
        dates = {"check_in": start.isoformat(), "check_out": end.isoformat()}
        move = {"reservation_id": rid, **dates, "payment_method_id": method.id}
        return refusing(task, Action("change_reservation_dates", move))


_POINTS_OPENINGS = (
    "Hi, I'd like to use my points on two of my upcoming hotel stays.",
    "Hello, can my loyalty points pay a night at {a} and one at {b}?",
    "Hey, I have plenty of points; put a night of each of my next two trips on them.",
    "Good afternoon, I want to redeem points for my stays in {a} and {b}.",
)


def _redeem(r: Reservation, night: str, points: int) -> Action:
    return Action(
        "redeem_points_for_night",
        {"reservation_id": r.reservation_id, "night": night, "points": points},
    )


class PointsOnTwoStays(Mixed, HotelIntent):
    """Points pay a night of a described flexible stay; a non-refundable stay's night is refused."""

    name = "points_on_two_stays"
    challenges = frozenset({"search", "mixed"})
    rules = ("non-refundable-no-points",)

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def accept(rs: list[Reservation]) -> bool:
            return any(movable(a) for a in rs) and any(_non_refundable(b) for b in rs)

        guest = STAYS.owner(db, rng, accept, admit=lambda g: g.points >= 40_000)
        if guest is None:
            return None
        mine = STAYS.of(db, guest.user_id)
        a = rng.choice([r for r in mine if movable(r)])
        b = rng.choice([r for r in mine if _non_refundable(r)])
        cost_a, cost_b = POINTS_PER_NIGHT[a.room_type], POINTS_PER_NIGHT[b.room_type]
        words_a, words_b = STAYS.describe(db, a, rng), STAYS.describe(db, b, rng)
        if words_a is None or words_b is None or guest.points < cost_a + cost_b:
            return None
        two = len(a.nights) > 1 and guest.points >= 2 * cost_a + cost_b and rng.random() < 0.5
        nights_a = sorted(rng.sample(a.nights, 2 if two else 1), key=lambda n: n.date)
        night_b = rng.choice(b.nights)
        who = self.owner(db, a, rng)
        balance = guest.points - cost_a * len(nights_a)
        back = money(sum(n.price for n in nights_a))
        which_a = " and ".join(f"the night of {n.date}" for n in nights_a)
        city_a = record(db, "properties", a.property_id).city.split(",")[0]
        city_b = record(db, "properties", b.property_id).city.split(",")[0]
        task = self.task(
            domain,
            who,
            goal=f"I want to pay nights of two stays with my points: {which_a} of {words_a}, "
            f"and the night of {night_b.date} of {words_b}. I do not know the reservation "
            "codes. I want to know how much money comes back and my points balance. If the "
            "agent says one of them cannot be paid with points, I accept it in the end and "
            f"keep the rest. {CONFIRM}",
            demand=f"the night of {night_b.date} paid with points too",
            opening=rng.choice(_POINTS_OPENINGS).format(a=city_a, b=city_b),
            known={
                "stays": f"{words_a}; {words_b}",
                "night": f"{which_a} of the first, and the night of {night_b.date}",
            },
            actions=[
                *STAYS.reads(db, who, a, b, words=words_a + words_b),
                Action(
                    "calculate", {"expression": f"{guest.points}" + f" - {cost_a}" * len(nights_a)}
                ),
                *(_redeem(a, n.date, cost_a) for n in nights_a),
            ],
            outputs=[money_text(back), points_text(balance), "non-refundable"],
            summary=f"points for {which_a} of {a.reservation_id} ({a.rate_plan}): "
            f"{money_text(back)} back, {points_text(balance)} left; "
            f"{night_b.date} of non-refundable {b.reservation_id} refused",
        )
        return refusing(task, _redeem(b, night_b.date, cost_b))


class CancelMineAndFriends(CancelOwnAndOthers[Reservation], HotelIntent):
    """Cancel the guest's described stay; a friend's reservation (its code given) is refused."""

    name = "cancel_mine_and_friends"
    rules = ("others-reservation",)
    shelf, slot = STAYS, "stay"
    cancelling = Cancelling(
        cancellable=refund_on_cancel,
        refund=cancellation_refund,
        kept=lambda r: (net_paid(r), r.nights[0].price),
        place=lambda db, r: HOTEL_NAMES[r.property_id],
    )
    openings = (
        "Hi, I need to cancel two hotel reservations: mine and a friend's.",
        "Hello, can you cancel my stay at {place}, and my friend {friend}'s too?",
        "Hey, our trip is off. Please cancel my room and {friend}'s.",
        "Hi, two cancellations please, my own stay and a friend's.",
    )
