"""Airline task intents: templates that sample the base database and produce grounded tasks."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

import msgspec

from tau_sim.domains.airline.catalog import CABINS
from tau_sim.domains.airline.data import (
    ACTIVE,
    CANCELLED,
    DELAYED,
    LAST_DAY,
    NOW,
    ONE_WAY,
    ROUND_TRIP,
    SCHEDULED,
    TODAY,
    Flight,
    Passenger,
    Reservation,
    User,
    flight_key,
    net_paid,
    route_key,
)
from tau_sim.domains.airline.rules import (
    BAG_FEE,
    CANCELLATION_FEE,
    COMPENSATION_CAP,
    DELAY_THRESHOLD_MINUTES,
    FREE_CANCELLATION_HOURS,
    INSURANCE_PRICE,
    compensation,
    nonfree_bags,
)
from tau_sim.domains.airline.scenario import (
    CABIN_TEXT,
    UNKNOWN_IDS,
    departure_text,
    flight_text,
    gold_reads,
    passenger_text,
    passengers_text,
    trip_text,
)
from tau_sim.domains.kit.calc import iso_day
from tau_sim.domains.kit.identity import EMAIL, NAME_ZIP
from tau_sim.domains.kit.lookup import pick, picker, record
from tau_sim.domains.kit.payments import (
    PaymentMethod,
    card_for,
    diff_text,
    method_text,
    money,
    money_text,
)
from tau_sim.domains.kit.tasks import CustomerIntent, replaced, swap_last
from tau_sim.domains.kit.vocab import FIRST_NAMES
from tau_sim.simulator.world import Action, Database, Domain, Intent, Task

_CONFIRM = "When the agent lists the details and asks for confirmation, say yes."


def upcoming(reservation: Reservation) -> bool:
    """Whether the reservation is active and every flight is after today."""
    return reservation.status == ACTIVE and all(
        iso_day(s.date) > TODAY for s in reservation.flights
    )


def booked_hours_ago(reservation: Reservation) -> float:
    """Hours between the booking and the world's ``NOW``."""
    return (NOW - dt.datetime.fromisoformat(reservation.created_at)).total_seconds() / 3600


def flights_of(db: Database, reservation: Reservation) -> list[Flight]:
    """The flights of a reservation as the flights table holds them."""
    return [record(db, "flights", flight_key(s.flight_number, s.date)) for s in reservation.flights]


def airline_cancelled(db: Database, reservation: Reservation) -> Flight | None:
    """The first flight of the reservation the airline cancelled, or None."""
    return next((f for f in flights_of(db, reservation) if f.status == CANCELLED), None)


def bookable(
    db: Database, origin: str, destination: str, date: dt.date, cabin: str, seats: int
) -> list[Flight]:
    """Scheduled flights of a route on ``date`` with ``seats`` seats left in ``cabin``."""
    if not TODAY < date <= LAST_DAY:
        return []
    out = []
    for key in db.find("routes", route_key(origin, destination, date.isoformat())):
        flight: Flight = record(db, "flights", key)
        fare = flight.fare(cabin)
        if flight.status != CANCELLED and fare is not None and fare.seats_left >= seats:
            out.append(flight)
    return sorted(out, key=lambda f: f.departure)


def price_of(flight: Flight, cabin: str) -> float:
    """The current price per passenger of ``cabin`` on ``flight``."""
    fare = flight.fare(cabin)
    assert fare is not None
    return fare.price


def seats_left(flight: Flight, cabin: str) -> int:
    """Seats left in ``cabin`` of ``flight`` (0 when it has no such cabin)."""
    fare = flight.fare(cabin)
    return 0 if fare is None else fare.seats_left


def expression(prices: list[float], count: int, extra: list[float] | None = None) -> str:
    """A ``calculate`` expression: (sum of prices) * count + extras."""
    inner = " + ".join(f"{p:.2f}" for p in prices)
    text = f"({inner}) * {count}" if len(prices) > 1 else f"{prices[0]:.2f} * {count}"
    return " + ".join([text, *(f"{e:.2f}" for e in extra or [])])


class AirlineIntent(CustomerIntent):
    """An airline customer: email (60%) or name + zip; never knows payment method ids."""

    factors = ((EMAIL, 0.6), (NAME_ZIP, 0.4))
    unknown_info = UNKNOWN_IDS

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The last write left out (the request half done)."""
        return self.last_write_left_out(domain, task)


pick_reservation = picker("reservations", Reservation)


class BookFlight(AirlineIntent):
    """Book a one-way or round trip for the user and maybe a companion, with bags and insurance."""

    name = "book_flight"
    description = "The user books a trip: flights, cabin, passengers, bags, insurance, payment."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        user: User | None = pick(db, rng, "users", lambda u: True)
        out_day = TODAY + dt.timedelta(days=rng.randint(3, 18))
        flight: Flight | None = pick(
            db, rng, "flights", lambda f: f.date == out_day.isoformat() and f.status == SCHEDULED
        )
        if user is None or flight is None:
            return None
        cabin = rng.choices(CABINS, (30, 50, 20))[0]
        people = [Passenger(user.name.first_name, user.name.last_name, _dob(rng))]
        if rng.random() < 0.5:
            people.append(Passenger(rng.choice(FIRST_NAMES), user.name.last_name, _dob(rng)))
        count = len(people)
        chosen = bookable(db, flight.origin, flight.destination, out_day, cabin, count)
        if not chosen:
            return None
        out = rng.choice(chosen)
        legs = [out]
        trip = ONE_WAY
        if rng.random() < 0.5:
            back_day = out_day + dt.timedelta(days=rng.randint(2, 6))
            back = bookable(db, out.destination, out.origin, back_day, cabin, count)
            if not back:
                return None
            legs.append(rng.choice(back))
            trip = ROUND_TRIP
        bags = rng.randint(0, 2 * count)
        nonfree = nonfree_bags(user.membership, cabin, count, bags)
        insurance = rng.random() < 0.4
        prices = [price_of(f, cabin) for f in legs]
        extras = ([INSURANCE_PRICE * count] if insurance else []) + (
            [BAG_FEE * nonfree] if nonfree else []
        )
        total = money(sum(prices) * count + sum(extras))
        method = next(
            (
                m
                for m in rng.sample(user.payment_methods, len(user.payment_methods))
                if m.source != "gift_card"
            ),
            None,
        )
        if method is None:
            return None
        who = self.identity(db, user.user_id, rng)
        book = Action(
            "book_reservation",
            {
                "user_id": user.user_id,
                "origin": out.origin,
                "destination": out.destination,
                "trip_type": trip,
                "cabin": cabin,
                "flights": [{"flight_number": f.flight_number, "date": f.date} for f in legs],
                "passengers": [msgspec.to_builtins(p) for p in people],
                "payment_method_id": method.id,
                "total_baggages": bags,
                "nonfree_baggages": nonfree,
                "insurance": insurance,
            },
        )
        searches = [
            Action(
                "search_direct_flights",
                {"origin": f.origin, "destination": f.destination, "date": f.date},
            )
            for f in legs
        ]
        dates = out.date if trip == ONE_WAY else f"out on {out.date}, back on {legs[1].date}"
        picked = " and back on ".join(departure_text(f) for f in legs)
        return self.task(
            domain,
            who,
            goal=f"I want to book a {'round trip' if trip == ROUND_TRIP else 'one-way trip'} "
            f"from {out.origin} to {out.destination} in {CABIN_TEXT[cabin]} for "
            f"{passengers_text(people)}: flight {picked}. We check {bags} bag(s) in total, "
            f"{'with' if insurance else 'without'} travel insurance, paid with "
            f"{method_text(method)}. I want to know the total price. {_CONFIRM}",
            opening=f"Hi, I'd like to book a flight from {out.origin} to {out.destination}.",
            known={
                "origin": out.origin,
                "destination": out.destination,
                "travel_dates": dates,
                "flight": picked,
                "cabin": CABIN_TEXT[cabin],
                "passengers": passengers_text(people),
                "bags": f"{bags} checked bag(s) in total",
                "insurance": "yes, travel insurance" if insurance else "no travel insurance",
                "payment_method": method_text(method),
            },
            actions=[
                *who.actions,
                *searches,
                Action("calculate", {"expression": expression(prices, count, extras)}),
                book,
            ],
            outputs=[money_text(total)],
            summary=f"book {trip} {out.origin}-{out.destination} in {cabin} for {count}, "
            f"{money_text(total)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """Insurance the other way round; every bag charged when some were free."""
        book = task.actions[-1]
        args = book.arguments
        paths = [swap_last(task, replaced(book, insurance=not args["insurance"]))]
        if args["nonfree_baggages"] < args["total_baggages"]:
            paths.append(swap_last(task, replaced(book, nonfree_baggages=args["total_baggages"])))
        return [*super().mistakes(domain, task), *paths]


def _dob(rng: random.Random) -> str:
    return dt.date(rng.randint(1955, 2008), rng.randint(1, 12), rng.randint(1, 28)).isoformat()


def _new_outbound(db: Database, reservation: Reservation, rng: random.Random) -> Flight | None:
    """Another bookable outbound flight, one to three days away from the current one."""
    first = reservation.flights[0]
    shift = rng.choice((-3, -2, -1, 1, 2, 3))
    day = iso_day(first.date) + dt.timedelta(days=shift)
    if len(reservation.flights) > 1 and day >= iso_day(reservation.flights[1].date):
        return None
    options = [
        f
        for f in bookable(
            db, first.origin, first.destination, day, reservation.cabin, len(reservation.passengers)
        )
        if f.flight_number != first.flight_number or f.date != first.date
    ]
    return rng.choice(options) if options else None


def _changeable(r: Reservation) -> bool:
    return upcoming(r) and r.cabin != "basic_economy"


class _Change:
    """A checked flight change of a reservation: the new outbound flight and its price."""

    def __init__(self, reservation: Reservation, new: Flight, method: PaymentMethod) -> None:
        self.reservation, self.new, self.method = reservation, new, method
        count = len(reservation.passengers)
        old = reservation.flights[0].price
        self.new_price = price_of(new, reservation.cabin)
        self.difference = money((self.new_price - old) * count)
        self.expression = f"({self.new_price:.2f} - {old:.2f}) * {count}"
        flights = [{"flight_number": new.flight_number, "date": new.date}]
        flights += [
            {"flight_number": s.flight_number, "date": s.date} for s in reservation.flights[1:]
        ]
        self.write = Action(
            "change_reservation_flights",
            {
                "reservation_id": reservation.reservation_id,
                "flights": flights,
                "payment_method_id": method.id,
            },
        )
        self.search = Action(
            "search_direct_flights",
            {"origin": new.origin, "destination": new.destination, "date": new.date},
        )

    @property
    def actions(self) -> list[Action]:
        """The gold steps of the change: the search, the price difference, the write."""
        return [self.search, Action("calculate", {"expression": self.expression}), self.write]


def _sample_change(db: Database, rng: random.Random) -> _Change | None:
    reservation = pick_reservation(db, rng, _changeable)
    if reservation is None:
        return None
    new = _new_outbound(db, reservation, rng)
    if new is None:
        return None
    user: User = record(db, "users", reservation.user_id)
    count = len(reservation.passengers)
    method = card_for(
        user, (price_of(new, reservation.cabin) - reservation.flights[0].price) * count, rng
    )
    if method is None:
        return None
    return _Change(reservation, new, method)


def _other_flight_mistake(domain: Domain, task: Task, write: Action) -> list[Action] | None:
    """The change made to another bookable flight of the same route (the wrong flight booked)."""
    db = domain.new_database()
    chosen = write.arguments["flights"][0]
    reservation: Reservation = record(db, "reservations", write.arguments["reservation_id"])
    first = reservation.flights[0]
    day = iso_day(chosen["date"])
    limit = iso_day(reservation.flights[1].date) if len(reservation.flights) > 1 else LAST_DAY
    for shift in (0, 1, -1, 2, -2):
        candidates = [
            f
            for f in bookable(
                db,
                first.origin,
                first.destination,
                day + dt.timedelta(days=shift),
                reservation.cabin,
                len(reservation.passengers),
            )
            if (f.flight_number, f.date)
            not in {(chosen["flight_number"], chosen["date"]), (first.flight_number, first.date)}
            and iso_day(f.date) < limit
        ]
        if candidates:
            other = candidates[0]
            flights = [{"flight_number": other.flight_number, "date": other.date}]
            flights += write.arguments["flights"][1:]
            wrong = replaced(write, flights=flights)
            return [a if a is not write else wrong for a in task.actions]
    return None


class ChangeFlight(AirlineIntent):
    """Move the outbound flight of an economy or business reservation to another day."""

    name = "change_flight"
    description = "The user moves an outbound flight to another day and learns the difference."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        change = _sample_change(db, rng)
        if change is None:
            return None
        r, new = change.reservation, change.new
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"In reservation {rid} ({trip_text(r)}) I want to move my outbound flight "
            f"{flight_text(r.flights[0])} to flight {departure_text(new)}, same cabin. Any "
            f"price difference goes through {method_text(change.method)}. I want to know how "
            f"much I pay or get back. {_CONFIRM}",
            opening=f"Hi, I need to change the date of my flight, reservation {rid}.",
            known={
                "reservation_id": rid,
                "flight": departure_text(new),
                "payment_method": method_text(change.method),
            },
            actions=[
                *gold_reads(who, rid),
                *change.actions,
            ],
            outputs=[money_text(abs(change.difference))],
            summary=f"move outbound of {rid} to {new.flight_number} on {new.date}: "
            f"{diff_text(change.difference)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and another flight of the route booked instead."""
        other = _other_flight_mistake(domain, task, task.actions[-1])
        return [*super().mistakes(domain, task), *([other] if other else [])]


class UpgradeCabin(AirlineIntent):
    """Move every flight of an upcoming reservation to a higher cabin and pay the difference."""

    name = "upgrade_cabin"
    description = "The user upgrades a reservation's cabin and learns what it costs."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(db, rng, lambda r: upcoming(r) and r.cabin != "business")
        if r is None:
            return None
        cabin = rng.choice(CABINS[CABINS.index(r.cabin) + 1 :])
        flights = flights_of(db, r)
        count = len(r.passengers)
        if any(seats_left(f, cabin) < count or f.status == CANCELLED for f in flights):
            return None
        new_prices = [price_of(f, cabin) for f in flights]
        difference = money((sum(new_prices) - sum(s.price for s in r.flights)) * count)
        user: User = record(db, "users", r.user_id)
        method = card_for(user, difference * 2, rng)
        if method is None:
            return None
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        old_sum = " + ".join(f"{s.price:.2f}" for s in r.flights)
        new_sum = " + ".join(f"{p:.2f}" for p in new_prices)
        return self.task(
            domain,
            who,
            goal=f"I want to upgrade every flight of reservation {rid} ({trip_text(r)}) from "
            f"{CABIN_TEXT[r.cabin]} to {CABIN_TEXT[cabin]}, paid with {method_text(method)}. "
            f"I want to know how much the upgrade costs. {_CONFIRM}",
            opening=f"Hello, I'd like to upgrade my reservation {rid} to {CABIN_TEXT[cabin]}.",
            known={
                "reservation_id": rid,
                "new_cabin": CABIN_TEXT[cabin],
                "payment_method": method_text(method),
            },
            actions=[
                *gold_reads(who, rid),
                *(
                    Action("get_flight_status", {"flight_number": s.flight_number, "date": s.date})
                    for s in r.flights
                ),
                Action("calculate", {"expression": f"(({new_sum}) - ({old_sum})) * {count}"}),
                Action(
                    "change_reservation_cabin",
                    {"reservation_id": rid, "cabin": cabin, "payment_method_id": method.id},
                ),
            ],
            outputs=[money_text(difference)],
            summary=f"upgrade {rid} from {r.cabin} to {cabin}: {money_text(difference)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the reservation moved to the other cabin."""
        write = task.actions[-1]
        db = domain.new_database()
        r: Reservation = record(db, "reservations", write.arguments["reservation_id"])
        paths = super().mistakes(domain, task)
        for cabin in CABINS:
            if cabin in (r.cabin, write.arguments["cabin"]):
                continue
            flights = flights_of(db, r)
            if all(seats_left(f, cabin) >= len(r.passengers) for f in flights):
                paths.append(swap_last(task, replaced(write, cabin=cabin)))
        return paths


def _bag_write(
    r: Reservation, user: User, added: int, method: PaymentMethod
) -> tuple[Action, float]:
    total = r.total_baggages + added
    nonfree = max(
        r.nonfree_baggages, nonfree_bags(user.membership, r.cabin, len(r.passengers), total)
    )
    fee = money(BAG_FEE * (nonfree - r.nonfree_baggages))
    write = Action(
        "update_reservation_baggages",
        {
            "reservation_id": r.reservation_id,
            "total_baggages": total,
            "nonfree_baggages": nonfree,
            "payment_method_id": method.id,
        },
    )
    return write, fee


def _all_bags_charged(task: Task, write: Action, reservation: Reservation) -> list[Action] | None:
    """The bag update with every new bag charged, when some of them were free."""
    added = write.arguments["total_baggages"] - reservation.total_baggages
    charged = reservation.nonfree_baggages + added
    if charged == write.arguments["nonfree_baggages"]:
        return None
    wrong = replaced(write, nonfree_baggages=charged)
    return [a if a is not write else wrong for a in task.actions]


class AddBaggage(AirlineIntent):
    """Add checked bags to an upcoming reservation; the free allowance depends on tier and cabin."""

    name = "add_baggage"
    description = "The user adds checked bags and learns the fee (free allowance by tier, cabin)."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(db, rng, upcoming)
        if r is None:
            return None
        user: User = record(db, "users", r.user_id)
        added = rng.randint(1, 3)
        if r.total_baggages + added > 5 * len(r.passengers):
            return None
        method = card_for(user, BAG_FEE * added, rng)
        if method is None:
            return None
        write, fee = _bag_write(r, user, added, method)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"I want to add {added} checked bag(s) to my reservation {rid} "
            f"({trip_text(r)}), paid with {method_text(method)} if there is a fee. I want to "
            f"know the fee. {_CONFIRM}",
            opening=f"Hi, I need to add {added} more bag(s) to my reservation {rid}.",
            known={
                "reservation_id": rid,
                "bags": f"{added} more checked bag(s)",
                "payment_method": method_text(method),
            },
            actions=[*gold_reads(who, rid), write],
            outputs=[money_text(fee)],
            summary=f"add {added} bag(s) to {rid} ({user.membership}, {r.cabin}): "
            f"{money_text(fee)}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and every new bag charged."""
        write = task.actions[-1]
        r: Reservation = record(
            domain.new_database(), "reservations", write.arguments["reservation_id"]
        )
        wrong = _all_bags_charged(task, write, r)
        return [*super().mistakes(domain, task), *([wrong] if wrong else [])]


def refund_reason(db: Database, r: Reservation) -> str | None:
    """Why the policy refunds a cancelled reservation in full, or None."""
    if booked_hours_ago(r) < FREE_CANCELLATION_HOURS:
        return "booked within the last 24 hours"
    if airline_cancelled(db, r) is not None:
        return "a flight was cancelled by the airline"
    if r.cabin == "business":
        return "business cabin"
    if r.insurance:
        return "travel insurance"
    return None


_REASON_GOAL = {
    "booked within the last 24 hours": "I booked it only a few hours ago.",
    "a flight was cancelled by the airline": "I heard one of my flights was cancelled.",
    "business cabin": "It is a business class booking.",
    "travel insurance": "I bought travel insurance with it.",
}


class CancelReservation(AirlineIntent):
    """Cancel an upcoming reservation: a full refund, or the economy refund less the fee."""

    name = "cancel_reservation"
    description = "The user cancels a reservation; the refund depends on the fare class and why."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(
            db,
            rng,
            lambda r: (
                upcoming(r) and (r.cabin != "basic_economy" or refund_reason(db, r) is not None)
            ),
        )
        if r is None:
            return None
        reason = refund_reason(db, r)
        paid = net_paid(r)
        count = len(r.passengers)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        reads = gold_reads(who, rid) + [
            Action("get_flight_status", {"flight_number": s.flight_number, "date": s.date})
            for s in r.flights
        ]
        if reason is None:
            refund = money(paid - CANCELLATION_FEE * count)
            reads.append(
                Action(
                    "calculate", {"expression": f"{paid:.2f} - {CANCELLATION_FEE:.2f} * {count}"}
                )
            )
            why = "the economy refund less the cancellation fee"
        else:
            refund = paid
            why = reason
        if refund < 0:
            return None
        hint = _REASON_GOAL.get(reason or "", "")
        return self.task(
            domain,
            who,
            goal=f"I want to cancel my reservation {rid} ({trip_text(r)}) completely. {hint} "
            f"I want to know how much I get back. {_CONFIRM}".replace("  ", " "),
            opening=f"Hi, I want to cancel my reservation {rid}.",
            known={"reservation_id": rid},
            actions=[
                *reads,
                Action("cancel_reservation", {"reservation_id": rid, "refund_amount": refund}),
            ],
            outputs=[money_text(refund)],
            summary=f"cancel {rid} ({r.cabin}): refund {money_text(refund)} ({why})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the refund the other rule would give (full vs less the fee)."""
        write = task.actions[-1]
        r: Reservation = record(
            domain.new_database(), "reservations", write.arguments["reservation_id"]
        )
        paid = net_paid(r)
        given = write.arguments["refund_amount"]
        other = (
            paid if given != paid else max(0.0, money(paid - CANCELLATION_FEE * len(r.passengers)))
        )
        return [
            *super().mistakes(domain, task),
            swap_last(task, replaced(write, refund_amount=other)),
        ]


def disrupted(db: Database, r: Reservation) -> Flight | None:
    """The reservation's first flight delayed past the threshold or cancelled, or None."""
    for flight in flights_of(db, r):
        if flight.status == CANCELLED or flight.delay_minutes >= DELAY_THRESHOLD_MINUTES:
            return flight
    return None


def _compensable(db: Database) -> Callable[[Reservation], bool]:
    return lambda r: r.status == ACTIVE and not r.compensation and disrupted(db, r) is not None


def _disruption_text(flight: Flight) -> str:
    if flight.status == CANCELLED:
        return f"flight {flight_text(flight)} was cancelled"
    return f"flight {flight_text(flight)} was delayed by {flight.delay_minutes} minutes"


class DelayCompensation(AirlineIntent):
    """Compensation for a delayed or cancelled flight: a rate per passenger, capped by tier."""

    name = "delay_compensation"
    description = "The user asks for compensation for a disrupted flight (rate by tier, capped)."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(db, rng, _compensable(db))
        if r is None:
            return None
        flight = disrupted(db, r)
        assert flight is not None
        user: User = record(db, "users", r.user_id)
        count = len(r.passengers)
        uncapped, due = compensation(user.membership, flight.status == CANCELLED, count)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"My {_disruption_text(flight)} (reservation {rid}). I want the compensation "
            f"I am entitled to and I want to know the amount. {_CONFIRM}",
            opening=f"Hello, my flight {flight.flight_number} was a disaster and I want "
            "compensation.",
            known={
                "reservation_id": rid,
                "disrupted_flight": f"{flight.flight_number} on {flight.date}",
            },
            actions=[
                *gold_reads(who, rid),
                Action(
                    "get_flight_status",
                    {"flight_number": flight.flight_number, "date": flight.date},
                ),
                Action(
                    "issue_compensation",
                    {"reservation_id": rid, "flight_number": flight.flight_number, "amount": due},
                ),
            ],
            outputs=[money_text(due)],
            summary=f"compensate {rid} ({user.membership}, {count} pax, {flight.status}): "
            f"{money_text(due)}"
            + (f" (capped from {money_text(uncapped)})" if uncapped > due else ""),
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the uncapped amount (or, when not capped, another tier's rate)."""
        write = task.actions[-1]
        due = write.arguments["amount"]
        db = domain.new_database()
        r: Reservation = record(db, "reservations", write.arguments["reservation_id"])
        user: User = record(db, "users", r.user_id)
        flight = disrupted(db, r)
        assert flight is not None
        uncapped, _ = compensation(user.membership, flight.status == CANCELLED, len(r.passengers))
        wrong = uncapped if uncapped != due else money(due + 50.0)
        return [*super().mistakes(domain, task), swap_last(task, replaced(write, amount=wrong))]


class CancelBasicEconomyRefused(AirlineIntent):
    """Cancel a basic economy ticket outside every refund case: refuse, write nothing."""

    name = "basic_economy_cancel_refused"
    description = "The user wants a refund for a non-refundable basic economy ticket: refuse."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(
            db,
            rng,
            lambda r: upcoming(r) and r.cabin == "basic_economy" and refund_reason(db, r) is None,
        )
        if r is None:
            return None
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"I want to cancel my reservation {rid} ({trip_text(r)}) and get my money "
            "back. If the agent explains it cannot be refunded, I accept it and keep the "
            "reservation as it is.",
            opening=f"I need to cancel reservation {rid} and get a refund.",
            known={"reservation_id": rid},
            actions=[
                *gold_reads(who, rid),
                *(
                    Action("get_flight_status", {"flight_number": s.flight_number, "date": s.date})
                    for s in r.flights
                ),
            ],
            outputs=["non-refundable"],
            summary=f"cancel basic economy {rid} booked {r.created_at[:10]}, no insurance: refuse",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The ticket cancelled anyway: with no refund, and with a full refund."""
        rid = task.actions[2].arguments["reservation_id"]
        r: Reservation = record(domain.new_database(), "reservations", rid)
        return [
            [
                *task.actions,
                Action("cancel_reservation", {"reservation_id": rid, "refund_amount": amount}),
            ]
            for amount in (0.0, net_paid(r))
        ]


class CompensationOverCapTransfer(AirlineIntent):
    """Demand more compensation than the tier's cap: the agent transfers, pays nothing."""

    name = "compensation_over_cap_transfer"
    description = "The user insists on compensation above the policy's cap: transfer."
    forbidden = True

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(db, rng, _compensable(db))
        if r is None:
            return None
        flight = disrupted(db, r)
        assert flight is not None
        user: User = record(db, "users", r.user_id)
        cap = COMPENSATION_CAP[user.membership]
        wanted = money(cap + rng.choice((100.0, 200.0, 250.0)))
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        summary = (
            f"User {user.user_id} wants {money_text(wanted)} compensation for reservation {rid} "
            f"({flight.flight_number} {flight.status}); the {user.membership} cap is "
            f"{money_text(cap)}."
        )
        return self.task(
            domain,
            who,
            goal=f"My {_disruption_text(flight)} (reservation {rid}). I want {money_text(wanted)} "
            "in compensation and will not accept less. If the agent offers less, I refuse and "
            "ask for a human agent.",
            opening=f"Your airline ruined my trip on flight {flight.flight_number}. I want "
            f"{money_text(wanted)} in compensation.",
            known={
                "reservation_id": rid,
                "disrupted_flight": f"{flight.flight_number} on {flight.date}",
                "wanted_amount": money_text(wanted),
            },
            actions=[
                *gold_reads(who, rid),
                Action(
                    "get_flight_status",
                    {"flight_number": flight.flight_number, "date": flight.date},
                ),
                Action("transfer_to_human_agents", {"summary": summary}),
            ],
            summary=f"compensation {money_text(wanted)} above the {money_text(cap)} cap: transfer",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The demanded amount paid, and the capped amount paid (the user refused it)."""
        *reads, _transfer = task.actions
        rid = reads[2].arguments["reservation_id"]
        db = domain.new_database()
        r: Reservation = record(db, "reservations", rid)
        user: User = record(db, "users", r.user_id)
        flight = disrupted(db, r)
        assert flight is not None
        wanted = float(task.scenario.known_info["wanted_amount"].lstrip("$").replace(",", ""))
        return [
            [
                *reads,
                Action(
                    "issue_compensation",
                    {
                        "reservation_id": rid,
                        "flight_number": flight.flight_number,
                        "amount": amount,
                    },
                ),
            ]
            for amount in (wanted, COMPENSATION_CAP[user.membership])
        ]


class ChangeFlightAndAddBag(AirlineIntent):
    """Two writes: move the outbound flight to another day, then add checked bags."""

    name = "change_flight_and_add_bags"
    description = "The user moves the outbound flight and adds bags in one conversation."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        change = _sample_change(db, rng)
        if change is None:
            return None
        r, new = change.reservation, change.new
        user: User = record(db, "users", r.user_id)
        added = rng.randint(1, 2)
        if r.total_baggages + added > 5 * len(r.passengers):
            return None
        bags, fee = _bag_write(r, user, added, change.method)
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"Two things for reservation {rid} ({trip_text(r)}): move my outbound flight "
            f"{flight_text(r.flights[0])} to flight {departure_text(new)}, and add {added} "
            f"checked bag(s). Everything is paid with {method_text(change.method)}. I want to "
            f"know the price difference and the bag fee. {_CONFIRM}",
            opening=f"Hi, I want to change my flight on reservation {rid} and add luggage.",
            known={
                "reservation_id": rid,
                "flight": departure_text(new),
                "bags": f"{added} more checked bag(s)",
                "payment_method": method_text(change.method),
            },
            actions=[
                *gold_reads(who, rid),
                *change.actions,
                bags,
            ],
            outputs=[money_text(abs(change.difference)), money_text(fee)],
            summary=f"move {rid} to {new.flight_number} on {new.date} "
            f"({diff_text(change.difference)}) and add {added} bag(s) ({money_text(fee)})",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones (bags forgotten), every bag charged, another flight booked."""
        bags = task.actions[-1]
        r: Reservation = record(
            domain.new_database(), "reservations", bags.arguments["reservation_id"]
        )
        paths = super().mistakes(domain, task)
        wrong = _all_bags_charged(task, bags, r)
        if wrong:
            paths.append(wrong)
        other = _other_flight_mistake(domain, task, task.actions[-2])
        if other:
            paths.append(other)
        return paths


class FlightStatusInquiry(AirlineIntent):
    """Ask whether an upcoming flight of a reservation is on time (information only)."""

    name = "flight_status_inquiry"
    description = "The user asks the status of a flight of their reservation (information only)."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""

        def soon(r: Reservation) -> bool:
            return r.status == ACTIVE and any(
                TODAY <= iso_day(s.date) <= TODAY + dt.timedelta(days=2) for s in r.flights
            )

        r = pick_reservation(db, rng, soon)
        if r is None:
            return None
        segment = next(
            s for s in r.flights if TODAY <= iso_day(s.date) <= TODAY + dt.timedelta(days=2)
        )
        flight: Flight = record(db, "flights", flight_key(segment.flight_number, segment.date))
        outputs = [flight.status, flight.departure]
        if flight.status == DELAYED:
            outputs.append(f"{flight.delay_minutes} minutes")
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        return self.task(
            domain,
            who,
            goal=f"I fly soon on flight {flight_text(flight)} (reservation {rid}). I want to know "
            "whether it is on time, its departure time and, if it is delayed, by how many "
            "minutes. I do not want to change anything.",
            opening=f"Hi, is my flight {flight.flight_number} on {flight.date} on time?",
            known={
                "reservation_id": rid,
                "booked_flight": f"{flight.flight_number} on {flight.date}",
            },
            actions=[
                *gold_reads(who, rid),
                Action(
                    "get_flight_status",
                    {"flight_number": flight.flight_number, "date": flight.date},
                ),
            ],
            outputs=outputs,
            summary=f"status of {flight.flight_number} on {flight.date}: {flight.status}",
        )


class CorrectPassengerBirthDate(AirlineIntent):
    """Correct a passenger's date of birth on an upcoming reservation."""

    name = "correct_passenger_dob"
    description = "The user corrects a passenger's date of birth on a reservation."

    def sample(self, domain: Domain, db: Database, rng: random.Random) -> Task | None:
        """Build one task."""
        r = pick_reservation(db, rng, upcoming)
        if r is None:
            return None
        index = rng.randrange(len(r.passengers))
        wrong = r.passengers[index]
        dob = _dob(rng)
        if dob == wrong.dob:
            return None
        fixed = msgspec.structs.replace(wrong, dob=dob)
        passengers = [fixed if i == index else p for i, p in enumerate(r.passengers)]
        who = self.owner(db, r, rng)
        rid = r.reservation_id
        name = f"{wrong.first_name} {wrong.last_name}"
        return self.task(
            domain,
            who,
            goal=f"On my reservation {rid} the date of birth of passenger {name} is wrong: it "
            f"should be {dob}. Nothing else should change. {_CONFIRM}",
            opening=f"Hi, there's a mistake in a passenger's date of birth on reservation {rid}.",
            known={"reservation_id": rid, "corrected_passenger": passenger_text(fixed)},
            actions=[
                *gold_reads(who, rid),
                Action(
                    "update_reservation_passengers",
                    {
                        "reservation_id": rid,
                        "passengers": [msgspec.to_builtins(p) for p in passengers],
                    },
                ),
            ],
            summary=f"correct the dob of {name} on {rid}",
        )

    def mistakes(self, domain: Domain, task: Task) -> list[list[Action]]:
        """The generic ones, and the date of birth written in day/month order."""
        write = task.actions[-1]
        passengers = [dict(p) for p in write.arguments["passengers"]]
        original: Reservation = record(
            domain.new_database(), "reservations", write.arguments["reservation_id"]
        )
        index = next(i for i, p in enumerate(original.passengers) if p.dob != passengers[i]["dob"])
        year, month, day = passengers[index]["dob"].split("-")
        swapped = (
            f"{year}-{day}-{month}"
            if int(day) <= 12 and day != month
            else f"{year}-{month}-{int(day) % 28 + 1:02d}"
        )
        passengers[index]["dob"] = swapped
        wrong = replaced(write, passengers=passengers)
        return [*super().mistakes(domain, task), swap_last(task, wrong)]


INTENTS: list[Intent] = [
    BookFlight(),
    ChangeFlight(),
    UpgradeCabin(),
    AddBaggage(),
    CancelReservation(),
    DelayCompensation(),
    CancelBasicEconomyRefused(),
    CompensationOverCapTransfer(),
    ChangeFlightAndAddBag(),
    FlightStatusInquiry(),
    CorrectPassengerBirthDate(),
]
