"""Hotel task intents: templates that sample the base database and produce grounded tasks."""

from __future__ import annotations

import datetime as dt
import random

from tau_sim.domains.hotel.catalog import PROPERTIES, Property
from tau_sim.domains.hotel.data import (
    CHECKED_OUT,
    CONFIRMED,
    LAST_NIGHT,
    NOW,
    TODAY,
    Guest,
    Night,
    Reservation,
    StayNight,
    net_paid,
    night_key,
    stay_dates,
)
from tau_sim.domains.hotel.rules import (
    EARN_PER_NIGHT,
    FLEXIBLE,
    GOODWILL_PER_NIGHT,
    MAX_GOODWILL,
    MEMBER,
    MEMBER_TIERS,
    NON_REFUNDABLE,
    POINTS_PER_NIGHT,
    ROOM_TYPES,
    SPECIAL_REQUESTS,
    cancellation_deadline,
    goodwill_points,
    plan_price,
)
from tau_sim.domains.hotel.scenario import (
    CONFIRM,
    PLAN_TEXT,
    REQUEST_TEXT,
    ROOM_TEXT,
    UNKNOWN_IDS,
    dates_text,
    gold_reads,
    points_text,
    stay_text,
)
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP, Identity
from tau_sim.domains.kit.lookup import pick, picker, record
from tau_sim.domains.kit.payments import (
    PaymentMethod,
    card_for,
    diff_text,
    method_text,
    money,
    money_text,
)
from tau_sim.domains.kit.tasks import CustomerIntent, replaced, sum_action, swapped
from tau_sim.simulator.world import Action, Database, Domain, Intent, Task

_MAX_GUESTS = {"standard": 2, "deluxe": 3, "suite": 4}


def upcoming(reservation: Reservation) -> bool:
    """Whether the reservation is confirmed and its stay starts after today."""
    return reservation.status == CONFIRMED and iso_day(reservation.check_in) > TODAY


def open_nights(
    db: Database, property_id: str, room_type: str, dates: list[str]
) -> list[Night] | None:
    """The nights of ``dates`` when each has a room left, else None."""
    nights: list[Night] = []
    for d in dates:
        night: Night | None = db.get("nights", night_key(property_id, room_type, d))
        if night is None or night.rooms_left < 1:
            return None
        nights.append(night)
    return nights


def total_expression(prices: list[float]) -> str:
    """A sum of prices as a ``calculate`` expression."""
    return " + ".join(f"{p:.2f}" for p in prices)


def difference_expression(new: list[float], old: list[float]) -> str:
    """``(new) - (old)`` as a ``calculate`` expression."""
    return f"({total_expression(new)}) - ({total_expression(old)})"


def search(property_id: str, room_type: str, check_in: str, check_out: str) -> Action:
    """The availability search of a stay."""
    return Action(
        "search_availability",
        {
            "property_id": property_id,
            "room_type": room_type,
            "check_in": check_in,
            "check_out": check_out,
        },
    )


class HotelIntent(CustomerIntent):
    """A hotel guest: email (60%) or name + zip; never knows payment method or property ids."""

    factors = ((EMAIL, 0.6), (NAME_ZIP, 0.4))
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The last write left out (the request half done)."""
        return self.last_write_left_out(domain, task)


pick_reservation = picker("reservations", Reservation)


# ---- booking ----------------------------------------------------------------------------------


class BookStay(HotelIntent):
    """Book a stay: hotel, room type, dates, rate plan, guests, requests; total and points."""

    name = "book_stay"
    description = "The guest books a room for a stay and learns the total and the points earned."

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
        known = {
            "hotel": f"{prop.name} in {prop.city}",
            "stay_dates": dates_text(check_in.isoformat(), check_out.isoformat()),
            "room_type": ROOM_TEXT[room],
            "rate_plan": PLAN_TEXT[plan],
            "guests": f"{guests} guest(s)",
            **({"special_request": REQUEST_TEXT[requests[0]]} if requests else {}),
            "payment_method": method_text(method),
        }
        return self.task(
            domain,
            who,
            goal=f"I want to book a {ROOM_TEXT[room]} at {prop.name} in {prop.city} for "
            f"{guests} guest(s), {dates_text(check_in.isoformat(), check_out.isoformat())}, on "
            f"{PLAN_TEXT[plan]}, paid with {method_text(method)}.{wish} I want to know the total "
            f"price and how many loyalty points I will earn. {CONFIRM}",
            opening=f"Hi, I'd like to book a room at {prop.name}.",
            known=known,
            actions=[
                *who.actions,
                Action("list_properties", {}),
                search(prop.property_id, room, check_in.isoformat(), check_out.isoformat()),
                *sum_action(prices),
                book,
            ],
            outputs=[money_text(total), points_text(earn)],
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


def movable(r: Reservation) -> bool:
    """An upcoming reservation on a plan that can change dates, no night paid with points."""
    return upcoming(r) and r.rate_plan != NON_REFUNDABLE and not any(n.points for n in r.nights)


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


# ---- cancellations ----------------------------------------------------------------------------


def cancellation_refund(r: Reservation) -> tuple[float, bool]:
    """(refund, whether the one-night fee applies) of cancelling ``r`` now under the policy."""
    paid = net_paid(r)
    deadline = cancellation_deadline(r.check_in, r.rate_plan)
    if deadline is None:
        return 0.0, False
    if deadline >= NOW:
        return paid, False
    return money(paid - r.nights[0].price), True


class CancelStay(HotelIntent):
    """Cancel a flexible or member stay: free before the window, else one night is kept."""

    name = "cancel_stay"
    description = "The guest cancels a stay; the refund depends on the rate plan's window."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        late = rng.random() < 0.5

        def fits(r: Reservation) -> bool:
            if (
                r.status != CONFIRMED
                or iso_day(r.check_in) < TODAY
                or r.rate_plan == NON_REFUNDABLE
            ):
                return False
            if late and len(r.nights) < 2:
                return False  # keeping the only night refunds nothing: not a task worth asking
            return cancellation_refund(r)[1] == late

        r = pick_reservation(db, rng, fits)
        if r is None:
            return None
        refund, fee = cancellation_refund(r)
        paid = net_paid(r)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        reads = gold_reads(who, rid)
        if fee:
            reads.append(
                Action("calculate", {"expression": f"{paid:.2f} - {r.nights[0].price:.2f}"})
            )
        return self.task(
            domain,
            who,
            goal=f"I want to cancel my reservation {rid} ({stay_text(r)}). I want to know how "
            f"much I get back. {CONFIRM}",
            opening=f"Hi, I need to cancel my hotel reservation {rid}.",
            known={"reservation_id": rid},
            actions=[
                *reads,
                Action("cancel_reservation", {"reservation_id": rid, "refund_amount": refund}),
            ],
            outputs=[money_text(refund)],
            summary=f"cancel {rid} ({r.rate_plan}, check-in {r.check_in}): refund "
            f"{money_text(refund)}" + (" (one night kept)" if fee else " (free)"),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the refund of the other side of the window."""
        write = task.actions[-1]
        r: Reservation = record(
            domain.new_database(), "reservations", write.arguments["reservation_id"]
        )
        paid = net_paid(r)
        given = write.arguments["refund_amount"]
        other = paid if given != paid else money(paid - r.nights[0].price)
        return [
            *super().mistakes(domain, task),
            swapped(task, write, replaced(write, refund_amount=other)),
        ]


class CancellationTermsInquiry(HotelIntent):
    """Until when a stay cancels free and what cancelling today would refund (information only)."""

    name = "cancellation_terms_inquiry"
    description = "The guest asks the free-cancellation deadline and today's refund; no change."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        late = rng.random() < 0.4

        def fits(r: Reservation) -> bool:
            if not upcoming(r) or r.rate_plan == NON_REFUNDABLE or len(r.nights) < 2:
                return False
            return cancellation_refund(r)[1] == late

        r = pick_reservation(db, rng, fits)
        if r is None:
            return None
        deadline = cancellation_deadline(r.check_in, r.rate_plan)
        assert deadline is not None
        refund, fee = cancellation_refund(r)
        paid = net_paid(r)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        reads = gold_reads(who, rid)
        if fee:
            reads.append(
                Action("calculate", {"expression": f"{paid:.2f} - {r.nights[0].price:.2f}"})
            )
        when = deadline.strftime("%Y-%m-%d %H:%M")
        return self.task(
            domain,
            who,
            goal=f"I might have to cancel reservation {rid} ({stay_text(r)}). I want to know "
            "until when I can cancel for free and how much I would get back if I cancelled "
            "today. I do not want to cancel or change anything now.",
            opening=f"Hi, what are the cancellation terms of my reservation {rid}?",
            known={"reservation_id": rid},
            actions=reads,
            outputs=[when, money_text(refund)],
            summary=f"terms of {rid} ({r.rate_plan}): free until {when}, today "
            f"{money_text(refund)} back",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The reservation cancelled although the guest only asked."""
        rid = task.actions[2].arguments["reservation_id"]
        r: Reservation = record(domain.new_database(), "reservations", rid)
        refund, _ = cancellation_refund(r)
        cancel = Action("cancel_reservation", {"reservation_id": rid, "refund_amount": refund})
        return [[*task.actions, cancel]]


class NonRefundableRefundRefused(HotelIntent):
    """A refund of a non-refundable booking: refuse, write nothing."""

    name = "non_refundable_refund_refused"
    description = "The guest wants their money back for a non-refundable booking: refuse."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(
            db,
            rng,
            lambda r: (
                r.status == CONFIRMED
                and r.rate_plan == NON_REFUNDABLE
                and iso_day(r.check_in) >= TODAY
            ),
        )
        if r is None:
            return None
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"My plans changed: I want to cancel reservation {rid} ({stay_text(r)}) and get "
            "my money back. If the agent explains it cannot be refunded, I accept it and keep "
            "the reservation as it is.",
            opening=f"I need to cancel reservation {rid} and get a refund.",
            known={"reservation_id": rid},
            actions=gold_reads(who, rid),
            outputs=["non-refundable"],
            summary=f"refund of non-refundable {rid} ({money_text(net_paid(r))}): refuse",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The booking cancelled anyway: with a full refund, and with none."""
        rid = task.actions[-1].arguments["reservation_id"]
        r: Reservation = record(domain.new_database(), "reservations", rid)
        return [
            [
                *task.actions,
                Action("cancel_reservation", {"reservation_id": rid, "refund_amount": amount}),
            ]
            for amount in (net_paid(r), 0.0)
        ]


# ---- special requests -------------------------------------------------------------------------


class AddSpecialRequest(HotelIntent):
    """Record a special request (late check-out, crib, accessible room...) on a stay."""

    name = "add_special_request"
    description = "The guest asks for a special request to be recorded on a reservation."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(
            db, rng, lambda r: r.status == CONFIRMED and iso_day(r.check_in) >= TODAY
        )
        if r is None:
            return None
        wanted = [q for q in SPECIAL_REQUESTS if q not in r.special_requests]
        request = rng.choice(wanted)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"For my reservation {rid} ({stay_text(r)}) I need {REQUEST_TEXT[request]}. "
            f"Nothing else should change. {CONFIRM}",
            opening=f"Hi, I have a special request for my reservation {rid}.",
            known={"reservation_id": rid, "special_request": REQUEST_TEXT[request]},
            actions=[
                *gold_reads(who, rid),
                Action("add_special_request", {"reservation_id": rid, "request": request}),
            ],
            summary=f"add {request} to {rid}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, another request, the request put on another reservation."""
        write = task.actions[-1]
        db = domain.new_database()
        r: Reservation = record(db, "reservations", write.arguments["reservation_id"])
        paths = super().mistakes(domain, task)
        other = next(
            (
                q
                for q in SPECIAL_REQUESTS
                if q not in (*r.special_requests, write.arguments["request"])
            ),
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
                and write.arguments["request"] not in sibling.special_requests
            ):
                paths.append(swapped(task, write, replaced(write, reservation_id=code)))
                break
        return paths


# ---- loyalty points ---------------------------------------------------------------------------


class RedeemPointsNight(HotelIntent):
    """Pay one night of an upcoming stay with points: the night's price comes back."""

    name = "redeem_points_night"
    description = "The guest pays one night with loyalty points; learns the refund and balance."

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
        night = rng.choice(r.nights)
        cost = POINTS_PER_NIGHT[r.room_type]
        balance = user.points - cost
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"I want to use my loyalty points to pay the night of {night.date} of my "
            f"reservation {rid} ({stay_text(r)}). I want to know how much money comes back and "
            f"my new points balance. {CONFIRM}",
            opening=f"Hi, can I pay a night of my reservation {rid} with points?",
            known={"reservation_id": rid, "night": f"the night of {night.date}"},
            actions=[
                *gold_reads(who, rid),
                Action("calculate", {"expression": f"{user.points} - {cost}"}),
                Action(
                    "redeem_points_for_night",
                    {"reservation_id": rid, "night": night.date, "points": cost},
                ),
            ],
            outputs=[money_text(night.price), points_text(balance)],
            summary=f"redeem {points_text(cost)} for {night.date} of {rid} ({r.room_type}): "
            f"{money_text(night.price)} back, {points_text(balance)} left",
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
        other = next((n for n in r.nights if n.date != args["night"]), None)
        if other is not None:
            paths.append(swapped(task, write, replaced(write, night=other.date)))
        return paths


def _completed(r: Reservation) -> bool:
    return r.status == CHECKED_OUT and not r.goodwill_points


class StayGoodwill(HotelIntent):
    """Goodwill points for a checked-out stay with a recorded incident, per night and capped."""

    name = "stay_goodwill_points"
    description = "The guest complains about a stay with a recorded incident: goodwill points."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(db, rng, lambda r: _completed(r) and bool(r.incident))
        if r is None:
            return None
        count = len(r.nights)
        uncapped, due = goodwill_points(count)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        reads = gold_reads(who, rid)
        if count > 1:
            reads.append(Action("calculate", {"expression": f"{GOODWILL_PER_NIGHT} * {count}"}))
        return self.task(
            domain,
            who,
            goal=f"During {stay_text(r)} (reservation {rid}) there was a problem: "
            f"{r.incident}. I want whatever the hotel gives for that, and to know how many "
            f"points I get. {CONFIRM}",
            opening=f"Hello, my last stay was a disappointment: {r.incident}.",
            known={"reservation_id": rid, "checked_out_stay": stay_text(r)},
            actions=[
                *reads,
                Action("credit_goodwill_points", {"reservation_id": rid, "points": due}),
            ],
            outputs=[points_text(due)],
            summary=f"goodwill for {rid} ({count} night(s), {r.incident}): {points_text(due)}"
            + (f" (capped from {points_text(uncapped)})" if uncapped > due else ""),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the uncapped amount (or, when not capped, one night more)."""
        write = task.actions[-1]
        r: Reservation = record(
            domain.new_database(), "reservations", write.arguments["reservation_id"]
        )
        uncapped, due = goodwill_points(len(r.nights))
        wrong = min(uncapped, MAX_GOODWILL) if uncapped > due else due + GOODWILL_PER_NIGHT
        return [
            *super().mistakes(domain, task),
            swapped(task, write, replaced(write, points=wrong)),
        ]


class BadStayCompensationTransfer(HotelIntent):
    """A demand for money back for a bad stay: the agent transfers, credits nothing."""

    name = "bad_stay_compensation_transfer"
    description = "The guest demands a cash refund for a completed bad stay: transfer."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(db, rng, _completed)
        if r is None:
            return None
        paid = net_paid(r)
        wanted = paid if rng.random() < 0.5 else r.nights[0].price
        complaint = r.incident or rng.choice(
            (
                "the room smelled of smoke",
                "the staff were rude at check-in",
                "the wifi never worked",
            )
        )
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        summary = (
            f"Guest {r.user_id} demands {money_text(wanted)} back for checked-out reservation "
            f"{rid} at {r.property_id} ({complaint}); cash refunds of completed stays are for a "
            "human agent."
        )
        return self.task(
            domain,
            who,
            goal=f"During {stay_text(r)} (reservation {rid}) {complaint}. I want "
            f"{money_text(wanted)} refunded and will not accept points or anything "
            "else. If the agent offers less, I refuse and ask for a human agent.",
            opening=f"Your hotel ruined my stay. I want {money_text(wanted)} back for "
            f"reservation {rid}.",
            known={
                "reservation_id": rid,
                "checked_out_stay": stay_text(r),
                "wanted_amount": money_text(wanted),
            },
            actions=[
                *gold_reads(who, rid),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"cash refund {money_text(wanted)} for stay {rid}: transfer",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """Goodwill points credited instead: the policy amount and the tool's most."""
        *reads, _transfer = task.actions
        rid = reads[-1].arguments["reservation_id"]
        r: Reservation = record(domain.new_database(), "reservations", rid)
        _, due = goodwill_points(len(r.nights))
        return [
            [*reads, Action("credit_goodwill_points", {"reservation_id": rid, "points": points})]
            for points in (due, MAX_GOODWILL)
        ]


INTENTS: list[Intent] = [
    BookStay(),
    ChangeDates(),
    UpgradeRoom(),
    CancelStay(),
    AddSpecialRequest(),
    RedeemPointsNight(),
    StayGoodwill(),
    ChangeDatesAndRequest(),
    NonRefundableRefundRefused(),
    BadStayCompensationTransfer(),
    CancellationTermsInquiry(),
]
