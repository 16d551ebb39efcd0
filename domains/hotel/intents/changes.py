"""Hotel intents that change a reservation: its dates and its room."""

from __future__ import annotations

import datetime as dt
import random

from tau_sim.domains.hotel.data import (
    LAST_NIGHT,
    TODAY,
    Guest,
    Night,
    Reservation,
    StayNight,
    stay_dates,
)
from tau_sim.domains.hotel.intents.common import (
    HotelIntent,
    movable,
    open_nights,
    pick_reservation,
    search,
    upcoming,
)
from tau_sim.domains.hotel.rules import ROOM_TYPES, SPECIAL_REQUESTS, plan_price
from tau_sim.domains.hotel.scenario import (
    CONFIRM,
    REQUEST_TEXT,
    ROOM_TEXT,
    dates_text,
    gold_reads,
    stay_text,
)
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.identity import Identity
from tau_sim.domains.kit.lookup import record
from tau_sim.domains.kit.payments import (
    PaymentMethod,
    card_for,
    diff_text,
    method_text,
    money,
    money_text,
)
from tau_sim.domains.kit.tasks import replaced, swapped
from tau_sim.simulator.world import Action, Database, Domain, Task


def total_expression(prices: list[float]) -> str:
    """A sum of prices as a ``calculate`` expression."""
    return " + ".join(f"{p:.2f}" for p in prices)


def difference_expression(new: list[float], old: list[float]) -> str:
    """``(new) - (old)`` as a ``calculate`` expression."""
    return f"({total_expression(new)}) - ({total_expression(old)})"


# ---- date changes -----------------------------------------------------------------------------


class _DateChange:
    """A checked date change of a reservation: the new dates, nights and price difference."""

    def __init__(
        self,
        reservation: Reservation,
        check_in: str,
        check_out: str,
        method: PaymentMethod,
        fresh: dict[str, Night],
    ) -> None:
        self.reservation, self.check_in, self.check_out = reservation, check_in, check_out
        old = {n.date: n for n in reservation.nights}
        nights = [
            old[d] if d in old else StayNight(d, plan_price(fresh[d].rate, reservation.rate_plan))
            for d in stay_dates(check_in, check_out)
        ]
        self.new_prices = [n.price for n in nights]
        self.old_prices = [n.price for n in reservation.nights]
        self.difference = money(sum(self.new_prices) - sum(self.old_prices))
        self.write = Action(
            "change_reservation_dates",
            {
                "reservation_id": reservation.reservation_id,
                "check_in": check_in,
                "check_out": check_out,
                "payment_method_id": method.id,
            },
        )
        self.search = search(reservation.property_id, reservation.room_type, check_in, check_out)
        self.method = method

    def gold_path(self, who: Identity) -> list[Action]:
        """The reads, the availability search, the price difference and the change itself."""
        expression = difference_expression(self.new_prices, self.old_prices)
        return [
            *gold_reads(who, self.reservation.reservation_id),
            self.search,
            Action("calculate", {"expression": expression}),
            self.write,
        ]


def new_dates(
    db: Database, r: Reservation, check_in: dt.date, check_out: dt.date
) -> dict[str, Night] | None:
    """The nights the move to ``check_in``..``check_out`` adds, when the move is possible."""
    if check_in <= TODAY or check_out <= check_in or check_out > LAST_NIGHT + dt.timedelta(days=1):
        return None
    if (check_in.isoformat(), check_out.isoformat()) == (r.check_in, r.check_out):
        return None
    held = {n.date for n in r.nights}
    added = [d for d in stay_dates(check_in.isoformat(), check_out.isoformat()) if d not in held]
    nights = open_nights(db, r.property_id, r.room_type, added)
    return None if nights is None else {n.date: n for n in nights}


def _sample_change(db: Database, rng: random.Random) -> _DateChange | None:
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
    return _DateChange(r, start.isoformat(), end.isoformat(), method, fresh)


def _other_dates_mistake(domain: Domain, task: Task, write: Action) -> list[Action] | None:
    """The change made one day off (the wrong dates booked), when those dates are possible."""
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


class ChangeDates(HotelIntent):
    """Move, extend or shorten a flexible or member reservation; learn the price difference."""

    name = "change_dates"
    description = "The guest changes the dates of a stay and learns the price difference."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        change = _sample_change(db, rng)
        if change is None:
            return None
        r = change.reservation
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"I want to change the dates of reservation {rid} ({stay_text(r)}) to "
            f"{dates_text(change.check_in, change.check_out)}, same room and rate. Any price "
            f"difference goes through {method_text(change.method)}. I want to know how much I "
            f"pay or get back. {CONFIRM}",
            opening=f"Hi, I need to change the dates of my hotel reservation {rid}.",
            known={
                "reservation_id": rid,
                "new_dates": dates_text(change.check_in, change.check_out),
                "payment_method": method_text(change.method),
            },
            actions=[
                *change.gold_path(who),
            ],
            outputs=[money_text(abs(change.difference))],
            summary=f"move {rid} to {change.check_in}..{change.check_out}: "
            f"{diff_text(change.difference)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the stay moved one day off."""
        other = _other_dates_mistake(domain, task, task.actions[-1])
        return [*super().mistakes(domain, task), *([other] if other else [])]


class ChangeDatesAndRequest(HotelIntent):
    """Two writes: change the dates of a stay, then record a special request on it."""

    name = "change_dates_and_request"
    description = "The guest changes the dates of a stay and adds a special request."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        change = _sample_change(db, rng)
        if change is None:
            return None
        r = change.reservation
        wanted = [q for q in SPECIAL_REQUESTS if q not in r.special_requests]
        request = rng.choice(wanted)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"Two things for reservation {rid} ({stay_text(r)}): change the dates to "
            f"{dates_text(change.check_in, change.check_out)} (same room and rate, any "
            f"difference through {method_text(change.method)}), and I need "
            f"{REQUEST_TEXT[request]}. I want to know the price difference. {CONFIRM}",
            opening=f"Hi, I want to change my stay {rid} and add a request.",
            known={
                "reservation_id": rid,
                "new_dates": dates_text(change.check_in, change.check_out),
                "special_request": REQUEST_TEXT[request],
                "payment_method": method_text(change.method),
            },
            actions=[
                *change.gold_path(who),
                Action("add_special_request", {"reservation_id": rid, "request": request}),
            ],
            outputs=[money_text(abs(change.difference))],
            summary=f"move {rid} to {change.check_in}..{change.check_out} "
            f"({diff_text(change.difference)}) and add {request}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The request forgotten, another request recorded, the stay moved one day off."""
        request = task.actions[-1]
        other_request = next(q for q in SPECIAL_REQUESTS if q != request.arguments["request"])
        r: Reservation = record(
            domain.new_database(), "reservations", request.arguments["reservation_id"]
        )
        paths = super().mistakes(domain, task)
        if other_request not in r.special_requests:
            paths.append(swapped(task, request, replaced(request, request=other_request)))
        other = _other_dates_mistake(domain, task, task.actions[-2])
        if other:
            paths.append(other)
        return paths


# ---- upgrades ---------------------------------------------------------------------------------


def upgrade_due(tier: str, old: str, new: str) -> bool:
    """Whether the policy makes the upgrade from ``old`` to ``new`` complimentary."""
    return tier == "gold" and ROOM_TYPES.index(new) - ROOM_TYPES.index(old) == 1


class UpgradeRoom(HotelIntent):
    """Upgrade every night to a higher room type: paid, or complimentary one level for gold."""

    name = "upgrade_room"
    description = "The guest upgrades the room type of a stay (complimentary one level for gold)."

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
        reads = [*gold_reads(who, rid), search(r.property_id, target, r.check_in, r.check_out)]
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
            goal=f"I want to upgrade reservation {rid} ({stay_text(r)}) from a "
            f"{ROOM_TEXT[r.room_type]} to a {ROOM_TEXT[target]} for the whole stay; if there is "
            f"a cost, pay with {method_text(method)}. I want to know what the upgrade costs. "
            f"{CONFIRM}",
            opening=f"Hello, I'd like to upgrade my room on reservation {rid}.",
            known={
                "reservation_id": rid,
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
