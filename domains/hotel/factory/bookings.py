"""Hotel intents that book a stay, add a special request or redeem points."""

from __future__ import annotations

import datetime as dt
import random

from tau_sim.domains.hotel.catalog import PROPERTIES, Property
from tau_sim.domains.hotel.data import CONFIRMED, TODAY, Guest, Reservation, stay_dates
from tau_sim.domains.hotel.factory.common import (
    HotelIntent,
    StayRef,
    movable,
    open_nights,
    pick_reservation,
    search,
)
from tau_sim.domains.hotel.rules import (
    EARN_PER_NIGHT,
    FLEXIBLE,
    MEMBER,
    MEMBER_TIERS,
    NON_REFUNDABLE,
    POINTS_PER_NIGHT,
    ROOM_TYPES,
    SPECIAL_REQUESTS,
    plan_price,
)
from tau_sim.domains.hotel.scenario import (
    PLAN_TEXT,
    REQUEST_TEXT,
    ROOM_TEXT,
    dates_text,
    points_text,
    stay_text,
)
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.lookup import pick, record
from tau_sim.domains.kit.payments import method_text, money, money_text
from tau_sim.domains.kit.tasks import CONFIRM, replaced, sum_action, swapped
from tau_sim.domains.kit.vocab import counted
from tau_sim.simulator.world import Action, Database, Domain, Task

_MAX_GUESTS = {"standard": 2, "deluxe": 3, "suite": 4}


# ---- booking ----------------------------------------------------------------------------------


_BOOK = (
    "Hi, I'd like to book a room at {hotel}.",
    "Hello, I need a hotel room in {city}.",
    "Hey, do you have rooms at {hotel}? I want to book.",
    "Good afternoon, I'm planning a trip to {city} and need a room at {hotel}.",
    "Hi there, can I reserve a stay at {hotel}?",
)

_REQUEST = (
    "Hi, I have a special request for {ref}.",
    "Hello, could you note something on {ref} for the hotel?",
    "Hey, I need to ask for something extra on {ref}.",
    "Good afternoon, I'd like to add a request to {ref}.",
)

_POINTS = (
    "Hi, can I pay a night of {ref} with points?",
    "Hello, I'd like to use my loyalty points on {ref}.",
    "Hey, I have points saved up; can they cover a night of {ref}?",
    "Hi, please put one night of {ref} on my points.",
)


class BookStay(HotelIntent):
    """Book a stay: hotel, room type, dates, rate plan, guests, requests; total and points."""

    name = "book_stay"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        user: Guest | None = pick(db, rng, "users", lambda u: True)
        if user is None:
            return None
        prop: Property = rng.choice(PROPERTIES)
        room = rng.choices(ROOM_TYPES, (50, 35, 15))[0]
        check_in = TODAY + dt.timedelta(days=rng.randint(2, 28))
        check_out = check_in + dt.timedelta(
            days=rng.choices((1, 2, 3, 4, 5), (20, 30, 25, 15, 10))[0]
        )
        dates = stay_dates(check_in.isoformat(), check_out.isoformat())
        nights = open_nights(db, prop.property_id, room, dates)
        if nights is None:
            return None
        plans = [FLEXIBLE, NON_REFUNDABLE] + ([MEMBER] if user.tier in MEMBER_TIERS else [])
        plan = rng.choice(plans)
        guests = rng.randint(1, _MAX_GUESTS[room])
        requests = [rng.choice(SPECIAL_REQUESTS)] if rng.random() < 0.4 else []
        prices = [plan_price(n.rate, plan) for n in nights]
        total = money(sum(prices))
        methods = [m for m in user.payment_methods if m.source != "gift_card"]
        if not methods:
            return None
        method = rng.choice(methods)
        earn = EARN_PER_NIGHT[user.tier] * len(dates)
        who = self.identity(db, user.user_id, rng)
        book = Action(
            "book_reservation",
            {
                "user_id": user.user_id,
                "property_id": prop.property_id,
                "room_type": room,
                "check_in": check_in.isoformat(),
                "check_out": check_out.isoformat(),
                "rate_plan": plan,
                "guests": guests,
                "payment_method_id": method.id,
                "special_requests": requests,
            },
        )
        wish = f" Please note {REQUEST_TEXT[requests[0]]}." if requests else ""
        asks_time = rng.random() < 0.4
        if asks_time:
            wish += " I also want to know from what time I can check in."
        known = {
            "hotel": f"{prop.name} in {prop.city}",
            "stay_dates": dates_text(check_in.isoformat(), check_out.isoformat()),
            "room_type": ROOM_TEXT[room],
            "rate_plan": PLAN_TEXT[plan],
            "guests": f"{counted(guests, 'guest')}",
            **({"special_request": REQUEST_TEXT[requests[0]]} if requests else {}),
            "payment_method": method_text(method),
        }
        return self.task(
            domain,
            who,
            goal=f"I want to book a {ROOM_TEXT[room]} at {prop.name} in {prop.city} for "
            f"{counted(guests, 'guest')}"
            f", {dates_text(check_in.isoformat(), check_out.isoformat())}, on "
            f"{PLAN_TEXT[plan]}, paid with {method_text(method)}.{wish} I want to know the total "
            f"price and how many loyalty points I will earn. {CONFIRM}",
            opening=rng.choice(_BOOK).format(hotel=prop.name, city=prop.city.split(",")[0]),
            known=known,
            actions=[
                *who.actions,
                Action("list_properties", {}),
                *(
                    [Action("get_property_details", {"property_id": prop.property_id})]
                    if asks_time
                    else []
                ),
                search(prop.property_id, room, check_in.isoformat(), check_out.isoformat()),
                *sum_action(prices),
                book,
            ],
            outputs=[
                money_text(total),
                points_text(earn),
                *([prop.check_in_time] if asks_time else []),
            ],
            summary=f"book {room} at {prop.property_id} {check_in}..{check_out} on {plan} "
            f"({user.tier}): {money_text(total)}, earns {points_text(earn)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """No booking, the other rate plan (the member rate for a blue guest), another room."""
        book = task.actions[-1]
        args = book.arguments
        db = domain.new_database()
        user: Guest = record(db, "users", args["user_id"])
        other_plan = {FLEXIBLE: NON_REFUNDABLE, NON_REFUNDABLE: FLEXIBLE, MEMBER: FLEXIBLE}
        paths = [swapped(task, book, replaced(book, rate_plan=other_plan[args["rate_plan"]]))]
        if user.tier not in MEMBER_TIERS:
            paths.append(swapped(task, book, replaced(book, rate_plan=MEMBER)))
        dates = stay_dates(args["check_in"], args["check_out"])
        for room in ROOM_TYPES:
            if (
                room != args["room_type"]
                and args["guests"] <= _MAX_GUESTS[room]
                and open_nights(db, args["property_id"], room, dates) is not None
            ):
                paths.append(swapped(task, book, replaced(book, room_type=room)))
                break
        return [*super().mistakes(domain, task), *paths]


# ---- special requests -------------------------------------------------------------------------


def new_requests(r: Reservation, rng: random.Random) -> tuple[list[str], str]:
    """One or (40 %) two special requests ``r`` does not hold yet, and the guest's words."""
    wanted = [q for q in SPECIAL_REQUESTS if q not in r.special_requests]
    requests = rng.sample(wanted, 2 if len(wanted) > 1 and rng.random() < 0.4 else 1)
    return requests, " and ".join(REQUEST_TEXT[q] for q in requests)


def request_writes(rid: str, *requests: str) -> list[Action]:
    """The writes recording each of ``requests`` on reservation ``rid``."""
    return [Action("add_special_request", {"reservation_id": rid, "request": q}) for q in requests]


class AddSpecialRequest(HotelIntent):
    """Record a special request (late check-out, crib, accessible room...) on a stay."""

    name = "add_special_request"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(
            db, rng, lambda r: r.status == CONFIRMED and iso_day(r.check_in) >= TODAY
        )
        if r is None:
            return None
        requests, words = new_requests(r, rng)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        ref = StayRef(r, who, rng)
        return self.task(
            domain,
            who,
            goal=f"For {stay_text(r)}{ref.text} I need {words}. Nothing else should change. "
            f"{CONFIRM}",
            opening=ref.opening(rng, _REQUEST),
            known={**ref.known, "special_request": words},
            actions=[
                *ref.reads,
                *request_writes(rid, *requests),
            ],
            summary=f"add {' and '.join(requests)} to {rid}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, another request, the request put on another reservation."""
        write = task.actions[-1]
        db = domain.new_database()
        r: Reservation = record(db, "reservations", write.arguments["reservation_id"])
        paths = super().mistakes(domain, task)
        asked = [a.arguments["request"] for a in task.actions if a.name == "add_special_request"]
        other = next(
            (q for q in SPECIAL_REQUESTS if q not in (*r.special_requests, *asked)),
            None,
        )
        if other is not None:
            paths.append(swapped(task, write, replaced(write, request=other)))
        user: Guest = record(db, "users", r.user_id)
        for code in user.reservations:
            sibling: Reservation = record(db, "reservations", code)
            if (
                code != r.reservation_id
                and sibling.status == CONFIRMED
                and not set(asked) & set(sibling.special_requests)
            ):
                paths.append(swapped(task, write, replaced(write, reservation_id=code)))
                break
        return paths


# ---- loyalty points ---------------------------------------------------------------------------


class RedeemPointsNight(HotelIntent):
    """Pay one night of an upcoming stay with points: the night's price comes back."""

    name = "redeem_points_night"

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def fits(r: Reservation) -> bool:
            if not movable(r):
                return False
            user: Guest = record(db, "users", r.user_id)
            return user.points >= POINTS_PER_NIGHT[r.room_type]

        r = pick_reservation(db, rng, fits)
        if r is None:
            return None
        user: Guest = record(db, "users", r.user_id)
        cost = POINTS_PER_NIGHT[r.room_type]
        two = len(r.nights) > 1 and user.points >= 2 * cost and rng.random() < 0.4
        nights = sorted(rng.sample(r.nights, 2 if two else 1), key=lambda n: n.date)
        balance = user.points - cost * len(nights)
        back = money(sum(n.price for n in nights))
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        ref = StayRef(r, who, rng)
        which = " and ".join(f"the night of {n.date}" for n in nights)
        return self.task(
            domain,
            who,
            goal=f"I want to use my loyalty points to pay {which} of "
            f"{stay_text(r)}{ref.text}. I want to know how much money comes back and "
            f"my new points balance. {CONFIRM}",
            opening=ref.opening(rng, _POINTS),
            known={**ref.known, "night": which},
            actions=[
                *ref.reads,
                Action(
                    "calculate",
                    {"expression": f"{user.points}" + f" - {cost}" * len(nights)},
                ),
                *(
                    Action(
                        "redeem_points_for_night",
                        {"reservation_id": rid, "night": n.date, "points": cost},
                    )
                    for n in nights
                ),
            ],
            outputs=[money_text(back), points_text(balance)],
            summary=f"redeem {points_text(cost)} a night for {which} of {rid} "
            f"({r.room_type}): {money_text(back)} back, {points_text(balance)} left",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, another room type's cost, another night paid."""
        write = task.actions[-1]
        args = write.arguments
        db = domain.new_database()
        r: Reservation = record(db, "reservations", args["reservation_id"])
        user: Guest = record(db, "users", r.user_id)
        paths = super().mistakes(domain, task)
        for cost in POINTS_PER_NIGHT.values():
            if cost != args["points"] and cost <= user.points:
                paths.append(swapped(task, write, replaced(write, points=cost)))
                break
        paid = {a.arguments["night"] for a in task.actions if a.name == "redeem_points_for_night"}
        other = next((n for n in r.nights if n.date not in paid), None)
        if other is not None:
            paths.append(swapped(task, write, replaced(write, night=other.date)))
        return paths
