"""Hard hotel intents whose guests describe their stays: move, overhaul, rework two stays.

The guest never gives a reservation code: it describes the stay ("my trip to the beach resort
in Miami, arriving 2026-07-20"), the agent lists the guest's reservations and picks the one
meant. The goals are conditional (a price limit decides the path), raise a new need later in
the conversation, or make three or four changes on one or two stays.
"""

from __future__ import annotations

import datetime as dt
import random

from tau_sim.domains.hotel.data import Guest, Reservation, net_paid
from tau_sim.domains.hotel.factory.bookings import request_writes
from tau_sim.domains.hotel.factory.common import (
    HARD,
    STAYS,
    DateChange,
    HotelIntent,
    RoomUpgrade,
    cancellation_refund,
    difference_expression,
    movable,
    new_dates,
    open_nights,
    refund_on_cancel,
)
from tau_sim.domains.hotel.rules import (
    POINTS_PER_NIGHT,
    ROOM_TYPES,
    SPECIAL_REQUESTS,
)
from tau_sim.domains.hotel.scenario import REQUEST_TEXT, ROOM_TEXT, dates_text, points_text
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.factory.chains import Chain, changed
from tau_sim.domains.kit.factory.search import card
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import PaymentMethod, diff_text, method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, replay_actions, swapped
from tau_sim.simulator.world import Action, Database, Domain, Task


def _shifted(
    db: Database, r: Reservation, days: int, longer: int, method: PaymentMethod
) -> DateChange | None:
    """``r`` moved ``days`` later and made ``longer`` nights longer, when the move is possible."""
    start = iso_day(r.check_in) + dt.timedelta(days=days)
    end = iso_day(r.check_out) + dt.timedelta(days=days + longer)
    fresh = new_dates(db, r, start, end)
    if fresh is None:
        return None
    return DateChange(r, start.isoformat(), end.isoformat(), method, fresh)


def _change_steps(change: DateChange) -> list[Action]:
    """The availability search and the price difference of a date change (not the change)."""
    expression = difference_expression(change.new_prices, change.old_prices)
    return [change.search, Action("calculate", {"expression": expression})]


def _request_for(r: Reservation, rng: random.Random, *taken: str) -> str:
    return rng.choice([q for q in SPECIAL_REQUESTS if q not in (*r.special_requests, *taken)])


def _city(db: Database, r: Reservation) -> str:
    """The city of ``r``'s hotel, without its state."""
    return str(record(db, "properties", r.property_id).city.split(",")[0])


_MOVE_OPENINGS = (
    "Hi, I need to move one of my hotel stays, the one at {hotel}.",
    "Hello, can I change the dates of my trip to {city}?",
    "Hey, my plans shifted and my {city} hotel booking has to move.",
    "Good afternoon, I'd like new dates for a stay I booked with you.",
)


class MoveDescribedStay(HotelIntent):
    """Move the stay the guest describes; above a price limit, a late checkout instead."""

    name = "move_described_stay"
    tier = HARD
    challenges = frozenset({"search", "conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        found = STAYS.pick(db, rng, movable)
        if found is None:
            return None
        guest, r = found
        words, method = STAYS.describe(db, r, rng), card(guest, rng)
        if words is None or method is None or "late_checkout" in r.special_requests:
            return None
        change = _shifted(db, r, rng.choice((-1, 1, 2, 3)), rng.choice((0, 0, 1)), method)
        if change is None or change.difference <= 0:
            return None
        over = rng.random() < 0.5
        limit = money(5 * round(change.difference * (0.6 if over else 1.5) / 5))
        over = change.difference > limit
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        actions = [*STAYS.reads(db, who, r, words=words), *_change_steps(change)]
        actions += request_writes(rid, "late_checkout") if over else [change.write]
        hotel = record(db, "properties", r.property_id)
        moved = dates_text(change.check_in, change.check_out)
        return self.task(
            domain,
            who,
            goal=f"I want to move {words} to {moved}, same room and rate, any difference "
            f"through {method_text(method)}. If the new dates cost more than "
            f"{money_text(limit)} extra, I keep my dates and only want a late checkout "
            f"instead. I do not know the reservation code. I want to know the price "
            f"difference. {CONFIRM}",
            opening=rng.choice(_MOVE_OPENINGS).format(hotel=hotel.name, city=_city(db, r)),
            known={
                "stay": words,
                "new_dates": f"{moved}, or keep the dates with a late checkout if they cost "
                f"more than {money_text(limit)} extra",
                "special_request": "a late checkout, only if the move costs too much",
                "payment_method": method_text(method),
            },
            actions=actions,
            outputs=[money_text(change.difference)],
            summary=f"{rid} (described): move {diff_text(change.difference)} vs limit "
            f"{money_text(limit)}: {'late checkout' if over else 'moved'}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The limit ignored: the stay moved when it costs too much, or not moved when it fits."""
        write = task.actions[-1]
        rid = write.arguments["reservation_id"]
        db = domain.new_database()
        r: Reservation = record(db, "reservations", rid)
        paths = [*super().mistakes(domain, task)]
        if write.name == "add_special_request":
            dates = next(a for a in task.actions if a.name == "search_availability")
            user: Guest = record(db, "users", r.user_id)
            said = task.scenario.known_info["payment_method"]
            pay = next(m for m in user.payment_methods if method_text(m) == said)
            move = Action(
                "change_reservation_dates",
                {
                    "reservation_id": rid,
                    "check_in": dates.arguments["check_in"],
                    "check_out": dates.arguments["check_out"],
                    "payment_method_id": pay.id,
                },
            )
            paths.append(swapped(task, write, move))
        elif "late_checkout" not in r.special_requests:
            paths.append([*task.actions[:-1], *request_writes(rid, "late_checkout")])
        return paths


_OVERHAUL_OPENINGS = (
    "Hi, I'd like to make my upcoming stay at {hotel} a bit nicer.",
    "Hello, I want a better room for my {city} trip, and a couple of other things.",
    "Hey, can you help me with some changes to a hotel stay?",
    "Good afternoon, I have a few changes for my reservation in {city}.",
)


def _paid_the_wrong_way(upgrade: Action) -> Action:
    """The upgrade complimentary where it is paid, or paid where it is complimentary."""
    return replaced(upgrade, complimentary=not upgrade.arguments["complimentary"])


class StayOverhaul(Chain, HotelIntent):
    """Upgrade a described stay and add a request; later, one night paid with points."""

    name = "stay_overhaul"
    tier = HARD
    challenges = frozenset({"search", "long", "later"})
    slips = (
        changed(
            "upgrade_room", lambda a: replaced(a, complimentary=not a.arguments["complimentary"])
        ),
    )

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(r: Reservation) -> bool:
            return movable(r) and r.room_type != "suite" and not r.complimentary_upgrade

        found = STAYS.pick(db, rng, fits, admit=lambda g: g.points >= 30_000)
        if found is None:
            return None
        guest, r = found
        words, method = STAYS.describe(db, r, rng), card(guest, rng)
        target = ROOM_TYPES[ROOM_TYPES.index(r.room_type) + 1]
        cost = POINTS_PER_NIGHT[target]
        nights = open_nights(db, r.property_id, target, [n.date for n in r.nights])
        if words is None or method is None or nights is None or guest.points < cost:
            return None
        upgrade = RoomUpgrade.of(guest, r, target, method, nights)
        free, difference = upgrade.free, upgrade.difference
        wanted = [q for q in SPECIAL_REQUESTS if q not in r.special_requests]
        requests = rng.sample(wanted, rng.choice((1, 2)))
        request_words = " and ".join(REQUEST_TEXT[q] for q in requests)
        night = rng.choice(r.nights).date
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        writes = [
            upgrade.write(),
            *request_writes(rid, *requests),
            Action(
                "redeem_points_for_night", {"reservation_id": rid, "night": night, "points": cost}
            ),
        ]
        results = replay_actions(domain, domain.new_database(), writes)
        if results is None:
            return None
        refund = next(n["price"] for n in results[0]["nights"] if n["date"] == night)
        actions = [*STAYS.reads(db, who, r, words=words), *upgrade.quote()]
        actions += writes[:-1]
        later_at = len(actions)
        actions += [Action("calculate", {"expression": f"{guest.points} - {cost}"}), writes[-1]]
        hotel = record(db, "properties", r.property_id)
        return self.task(
            domain,
            who,
            goal=f"For {words} I want the room upgraded from a {ROOM_TEXT[r.room_type]} to a "
            f"{ROOM_TEXT[target]} for the whole stay (any cost on {method_text(method)}) and I "
            f"need {request_words}. I do not know the reservation code. I want to know "
            f"what the upgrade costs. {CONFIRM}",
            opening=rng.choice(_OVERHAUL_OPENINGS).format(hotel=hotel.name, city=_city(db, r)),
            known={
                "stay": words,
                "new_room_type": ROOM_TEXT[target],
                "special_request": request_words,
                "night": f"the night of {night}",
                "payment_method": method_text(method),
            },
            actions=actions,
            outputs=[
                "complimentary" if free else money_text(difference),
                money_text(refund),
                points_text(guest.points - cost),
            ],
            summary=f"{rid} (described): {r.room_type}->{target} "
            f"({'free' if free else money_text(difference)}), {'+'.join(requests)}; "
            f"later {night} on "
            f"points ({money_text(refund)} back)",
            later=f"Oh, and while I have you: could I also pay the night of {night} with my "
            "points? How many points would I have left?",
            later_at=later_at,
        )


_TWO_OPENINGS = (
    "Hi, I have two hotel stays with you that both need changes.",
    "Hello, one of my trips is cancelled and another one moves. Can you help?",
    "Hey, I need to sort out two reservations, in {a} and in {b}.",
    "Good afternoon, two of my stays need attention: {a} and {b}.",
)


class TwoStaysReworked(HotelIntent):
    """Cancel one described stay, move another and add a request; a price picks the dates."""

    name = "two_stays_reworked"
    tier = HARD
    challenges = frozenset({"search", "long", "conditional"})

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        guest = STAYS.pair_owner(db, rng, refund_on_cancel, movable)
        method = card(guest, rng) if guest is not None else None
        if guest is None or method is None:
            return None
        pair = STAYS.pair(db, rng, guest, refund_on_cancel, movable, draw_same=True)
        if pair is None:
            return None
        x, y = pair
        words_x, words_y = STAYS.describe(db, x, rng), STAYS.describe(db, y, rng)
        shift = rng.choice((1, 2))
        longer = _shifted(db, y, shift, 1, method)
        same = _shifted(db, y, shift, 0, method)
        if words_x is None or words_y is None or longer is None or same is None:
            return None
        over = rng.random() < 0.5
        limit = money(5 * round(max(longer.difference, 10.0) * (0.7 if over else 1.3) / 5))
        chosen = same if longer.difference > limit else longer
        refund, fee = cancellation_refund(x)
        request = _request_for(y, rng)
        who = self.owner(db, x, rng)
        cancel = STAYS.cancel(x, refund, (net_paid(x), x.nights[0].price) if fee else None)
        steps = _change_steps(longer)
        if chosen is same:
            steps += _change_steps(same)
        both = f"cancel {words_x}; move {words_y}"
        return self.task(
            domain,
            who,
            goal=f"I want to cancel {words_x}. And I want to move {words_y} to "
            f"{dates_text(longer.check_in, longer.check_out)}, one night longer; if that costs "
            f"more than {money_text(limit)} extra, move it to "
            f"{dates_text(same.check_in, same.check_out)} instead (same length). On that stay I "
            f"also need {REQUEST_TEXT[request]}. Any difference goes through "
            f"{method_text(method)}. I do not know the reservation codes. I want to know the "
            f"refund and the price difference. {CONFIRM}",
            opening=rng.choice(_TWO_OPENINGS).format(a=_city(db, x), b=_city(db, y)),
            known={
                "stays": both,
                "new_dates": f"{dates_text(longer.check_in, longer.check_out)}, or "
                f"{dates_text(same.check_in, same.check_out)} if the longer stay costs more "
                f"than {money_text(limit)} extra",
                "special_request": REQUEST_TEXT[request],
                "payment_method": method_text(method),
            },
            actions=[
                *STAYS.reads(db, who, x, y, words=both),
                *cancel,
                *steps,
                chosen.write,
                *request_writes(y.reservation_id, request),
            ],
            outputs=[money_text(refund), money_text(abs(chosen.difference))],
            summary=f"cancel {x.reservation_id} ({money_text(refund)} back); move "
            f"{y.reservation_id} to {chosen.check_in}..{chosen.check_out} "
            f"({diff_text(chosen.difference)}; longer {money_text(longer.difference)} vs "
            f"{money_text(limit)}), {request}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The limit ignored (the other dates), and the full refund when a night is kept."""
        paths = [*super().mistakes(domain, task)]
        move = next(a for a in task.actions if a.name == "change_reservation_dates")
        searches = [a for a in task.actions if a.name == "search_availability"]
        other = next(
            (s for s in searches if s.arguments["check_out"] != move.arguments["check_out"]),
            None,
        )
        if other is None:  # the longer stay was chosen: the same-length one is the wrong one
            r: Reservation = record(
                domain.new_database(), "reservations", move.arguments["reservation_id"]
            )
            start = iso_day(move.arguments["check_in"])
            end = start + dt.timedelta(days=len(r.nights))
            wrong = replaced(move, check_out=end.isoformat())
        else:
            wrong = replaced(
                move,
                check_in=other.arguments["check_in"],
                check_out=other.arguments["check_out"],
            )
        paths.append(swapped(task, move, wrong))
        return paths
