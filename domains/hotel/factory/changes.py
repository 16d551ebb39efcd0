"""Hotel intents that change a reservation: its dates and its room."""

from __future__ import annotations

import datetime as dt
import random

from tau_sim.domains.hotel.data import (
    Guest,
    Reservation,
)
from tau_sim.domains.hotel.factory.bookings import new_requests, request_writes
from tau_sim.domains.hotel.factory.common import (
    DateChange,
    HotelIntent,
    StayRef,
    difference_expression,
    movable,
    new_dates,
    open_nights,
    pick_reservation,
    search,
    upcoming,
    upgrade_due,
)
from tau_sim.domains.hotel.rules import ROOM_TYPES, SPECIAL_REQUESTS, plan_price
from tau_sim.domains.hotel.scenario import ROOM_TEXT, dates_text, stay_text
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.factory.chains import Chain
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import (
    card_for,
    diff_text,
    method_text,
    money,
    money_text,
)
from tau_sim.domains.kit.tasks import CONFIRM, replaced, swapped
from tau_sim.simulator.world import Action, Database, Domain, Task

# ---- date changes -----------------------------------------------------------------------------


_DATES = (
    "Hi, I need to change the dates of {ref}.",
    "Hello, my travel plans moved; can {ref} move too?",
    "Hey, I want different dates for {ref}.",
    "Good afternoon, I'd like to rebook {ref} for other dates.",
)

_DATES_REQUEST = (
    "Hi, I want to change {ref} and add a request.",
    "Hello, two things on {ref}: new dates and a special request.",
    "Hey, can you move {ref} and note a request for the hotel?",
    "Hi there, {ref} needs new dates, plus something extra.",
)

_UPGRADE = (
    "Hello, I'd like to upgrade my room on {ref}.",
    "Hi, is a bigger room possible on {ref}?",
    "Hey, I want a nicer room for {ref}.",
    "Good afternoon, please upgrade the room of {ref}.",
)


def _sample_change(db: Database, rng: random.Random) -> DateChange | None:
    r = pick_reservation(db, rng, movable)
    if r is None:
        return None
    start, end = iso_day(r.check_in), iso_day(r.check_out)
    mode = rng.choice(("shift", "shift", "extend", "shorten"))
    if mode == "shift":
        delta = dt.timedelta(days=rng.choice((-2, -1, 1, 2, 3)))
        start, end = start + delta, end + delta
    elif mode == "extend":
        end += dt.timedelta(days=rng.randint(1, 2))
    elif (end - start).days >= 2:
        end -= dt.timedelta(days=1)
    else:
        return None
    fresh = new_dates(db, r, start, end)
    if fresh is None:
        return None
    user: Guest = record(db, "users", r.user_id)
    prices = [plan_price(n.rate, r.rate_plan) for n in fresh.values()]
    method = card_for(user, sum(prices), rng)
    if method is None:
        return None
    return DateChange(r, start.isoformat(), end.isoformat(), method, fresh)


def _other_dates_mistake(
    domain: Domain, task: Task, write: Action | None = None
) -> list[Action] | None:
    """The change ``write`` (the last action) made one day off, when those dates are possible."""
    write = task.actions[-1] if write is None else write
    db = domain.new_database()
    r: Reservation = record(db, "reservations", write.arguments["reservation_id"])
    start, end = iso_day(write.arguments["check_in"]), iso_day(write.arguments["check_out"])
    for delta in (1, -1):
        shift = dt.timedelta(days=delta)
        if new_dates(db, r, start + shift, end + shift) is not None:
            wrong = replaced(
                write,
                check_in=(start + shift).isoformat(),
                check_out=(end + shift).isoformat(),
            )
            return swapped(task, write, wrong)
    return None


class ChangeDates(Chain, HotelIntent):
    """Move, extend or shorten a flexible or member reservation; learn the price difference."""

    name = "change_dates"
    slips = (_other_dates_mistake,)  # the stay moved one day off

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        change = _sample_change(db, rng)
        if change is None:
            return None
        r = change.reservation
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        ref = StayRef(r, who, rng)
        return self.task(
            domain,
            who,
            goal=f"I want to change the dates of {stay_text(r)}{ref.text} to "
            f"{dates_text(change.check_in, change.check_out)}, same room and rate. Any price "
            f"difference goes through {method_text(change.method)}. I want to know how much I "
            f"pay or get back. {CONFIRM}",
            opening=ref.opening(rng, _DATES),
            known={
                **ref.known,
                "new_dates": dates_text(change.check_in, change.check_out),
                "payment_method": method_text(change.method),
            },
            actions=[
                *change.gold_path(ref.reads),
            ],
            outputs=[money_text(abs(change.difference))],
            summary=f"move {rid} to {change.check_in}..{change.check_out}: "
            f"{diff_text(change.difference)}",
        )


class ChangeDatesAndRequest(HotelIntent):
    """Two writes: change the dates of a stay, then record a special request on it."""

    name = "change_dates_and_request"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        change = _sample_change(db, rng)
        if change is None:
            return None
        r = change.reservation
        requests, words = new_requests(r, rng)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        ref = StayRef(r, who, rng)
        return self.task(
            domain,
            who,
            goal=f"Two things for {stay_text(r)}{ref.text}: change the dates to "
            f"{dates_text(change.check_in, change.check_out)} (same room and rate, any "
            f"difference through {method_text(change.method)}), and I need "
            f"{words}. I want to know the price difference. {CONFIRM}",
            opening=ref.opening(rng, _DATES_REQUEST),
            known={
                **ref.known,
                "new_dates": dates_text(change.check_in, change.check_out),
                "special_request": words,
                "payment_method": method_text(change.method),
            },
            actions=[
                *change.gold_path(ref.reads),
                *request_writes(rid, *requests),
            ],
            outputs=[money_text(abs(change.difference))],
            summary=f"move {rid} to {change.check_in}..{change.check_out} "
            f"({diff_text(change.difference)}) and add {' and '.join(requests)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The request forgotten, another request recorded, the stay moved one day off."""
        request = task.actions[-1]
        asked = [a.arguments["request"] for a in task.actions if a.name == "add_special_request"]
        other_request = next(q for q in SPECIAL_REQUESTS if q not in asked)
        r: Reservation = record(
            domain.new_database(), "reservations", request.arguments["reservation_id"]
        )
        paths = super().mistakes(domain, task)
        if other_request not in r.special_requests:
            paths.append(swapped(task, request, replaced(request, request=other_request)))
        move = next(a for a in task.actions if a.name == "change_reservation_dates")
        other = _other_dates_mistake(domain, task, move)
        if other:
            paths.append(other)
        return paths


# ---- upgrades ---------------------------------------------------------------------------------


class UpgradeRoom(HotelIntent):
    """Upgrade every night to a higher room type: paid, or complimentary one level for gold."""

    name = "upgrade_room"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(
            db,
            rng,
            lambda r: upcoming(r) and r.room_type != "suite" and not r.complimentary_upgrade,
        )
        if r is None:
            return None
        user: Guest = record(db, "users", r.user_id)
        higher = list(ROOM_TYPES[ROOM_TYPES.index(r.room_type) + 1 :])
        target = higher[0] if user.tier == "gold" and rng.random() < 0.7 else rng.choice(higher)
        dates = [n.date for n in r.nights]
        nights = open_nights(db, r.property_id, target, dates)
        if nights is None:
            return None
        free = upgrade_due(user.tier, r.room_type, target)
        new_prices = [plan_price(n.rate, r.rate_plan) for n in nights]
        old_prices = [n.price for n in r.nights]
        difference = 0.0 if free else money(sum(new_prices) - sum(old_prices))
        method = card_for(user, difference, rng)
        if method is None:
            return None
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        ref = StayRef(r, who, rng)
        reads = [*ref.reads, search(r.property_id, target, r.check_in, r.check_out)]
        if not free:
            reads.append(
                Action("calculate", {"expression": difference_expression(new_prices, old_prices)})
            )
        write = Action(
            "upgrade_room",
            {
                "reservation_id": rid,
                "room_type": target,
                "payment_method_id": method.id,
                "complimentary": free,
            },
        )
        return self.task(
            domain,
            who,
            goal=f"I want to upgrade {stay_text(r)}{ref.text} from a "
            f"{ROOM_TEXT[r.room_type]} to a {ROOM_TEXT[target]} for the whole stay; if there is "
            f"a cost, pay with {method_text(method)}. I want to know what the upgrade costs. "
            f"{CONFIRM}",
            opening=ref.opening(rng, _UPGRADE),
            known={
                **ref.known,
                "new_room_type": ROOM_TEXT[target],
                "payment_method": method_text(method),
            },
            actions=[*reads, write],
            outputs=["complimentary" if free else money_text(difference)],
            summary=f"upgrade {rid} {r.room_type}->{target} ({user.tier}): "
            + ("complimentary" if free else money_text(difference)),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, complimentary the wrong way round, another room type."""
        write = task.actions[-1]
        args = write.arguments
        db = domain.new_database()
        r: Reservation = record(db, "reservations", args["reservation_id"])
        paths = [
            *super().mistakes(domain, task),
            swapped(task, write, replaced(write, complimentary=not args["complimentary"])),
        ]
        dates = [n.date for n in r.nights]
        for room in ROOM_TYPES[ROOM_TYPES.index(r.room_type) + 1 :]:
            if room != args["room_type"] and open_nights(db, r.property_id, room, dates):
                paths.append(swapped(task, write, replaced(write, room_type=room)))
        return paths
